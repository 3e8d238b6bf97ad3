"""The nine CRMArena tasks, their gold answers, agents, runner and report."""
