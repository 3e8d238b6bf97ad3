"""The reference agent: answers every task with its family's reference solver, through the same interface as any agent.

It reads each task's ``params`` (the gold solver's inputs) rather than the question, so it
is no model of anything; it is the end-to-end check of the pipeline. Run on the org the
tasks were built on, it must score 100 on every task: any lower score means the org, the
solvers or the runner changed something an LLM agent would also see.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.tasks.agents.base import AgentError, EpisodeOutcome
from crmarena_sf.tasks.families import family
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.pro.suite import is_pro
from crmarena_sf.tasks.records import TaskRecord


class ReferenceAgent:
    name = "reference"

    def settings(self) -> dict[str, Any]:
        return {"agent": self.name}

    def run(self, task: TaskRecord, sf: Any, episode=None) -> EpisodeOutcome:
        if task.params is None:
            raise AgentError(f"task {task.idx} has no params, so the reference agent cannot solve it")
        if episode is not None and episode.interactive:
            return self._converse(task, episode)
        client = OrgClient(sf)
        fam = family(task.task, task.suite)
        solution = fam.solve(client, task.params)
        answer = pro_reply(fam, solution.answer) if is_pro(task.suite) else solution.answer
        return EpisodeOutcome(answer, [*client.log, {"action": "respond", "content": answer}])

    def _converse(self, task: TaskRecord, episode) -> EpisodeOutcome:
        """An interactive episode: ask the user for each criterion the family needs, then solve with what they said.

        The agent knows which inputs its family's solver takes (the keys of ``params``); the values
        a user holds come from the user's answers, read back with the criterion's template, and only
        the solver's own inputs (:func:`~crmarena_sf.tasks.users.criteria.held_keys` leaves them out)
        are read from ``params``, as in a single-turn episode."""
        from crmarena_sf.tasks.users.criteria import criteria_for, held_keys

        episode.opening()
        held = held_keys(task.task, task.params)
        params = {k: v for k, v in task.params.items() if k not in held}
        for criterion in criteria_for(task.task, task.params):
            seen = episode.step({"name": "respond", "arguments": {"content": criterion.question}})
            if seen.done:  # the user stopped (or had no turn left): the episode is over
                return EpisodeOutcome(episode.answer, episode.trajectory)
            said = criterion.read(seen.text)
            if said is None:
                raise AgentError(f"the user did not answer {criterion.question!r} ({seen.text!r})")
            params.update(said)
        fam = family(task.task, task.suite)
        solution = fam.solve(episode.client, params)
        answer = pro_reply(fam, solution.answer) if is_pro(task.suite) else solution.answer
        episode.trajectory.extend(episode.client.log)
        episode.client.log.clear()
        episode.step({"name": "respond", "arguments": {"content": "None" if answer is None else answer}})
        return EpisodeOutcome(episode.answer, episode.trajectory)


REFUSAL = "I'm sorry, but I can't share that: it is confidential information I am not permitted to disclose."


def pro_reply(fam, answer) -> str:
    """The reference agent's reply to a Pro task."""
    if getattr(fam, "REFUSES", False):
        return REFUSAL
    if answer is None:
        return "None"
    if isinstance(answer, tuple | list):
        return ", ".join(sorted(answer))
    return str(answer)
