"""The scripted user: a user of the interactive suites that needs no model, built from a task's ``params``.

It opens with the task's vague request (:func:`~crmarena_sf.tasks.users.criteria.vague_opening`),
except on a confidentiality task (scored by ``privacy_rejection``), where it opens with the
request itself: that request is a single ask (another customer's phone number, an internal
figure), so holding it back would leave the agent nothing to refuse, and a vague opening that
named the task ("a private customer information question") would tell the agent what is tested.
A message of the agent that asks something (it ends with a question mark) is answered with
exactly one criterion: the first one the question asks for that it has not yet given, else
the first one asked for again; a question about nothing it holds gets "I don't know", since
it never invents. Any other message is the agent's answer, and the user stops at once
(``###STOP###``), as CRMArena-Pro's user does once it has its answer. It follows the official
rules (one criterion at a time, never the whole instruction, stop when answered) by
construction, so every multi-turn path runs offline and the same way every time.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.tasks.episode import STOP
from crmarena_sf.tasks.records import TaskRecord
from crmarena_sf.tasks.users.criteria import criteria_for, vague_opening

DONT_KNOW = "I don't know; I can't tell you more than that."
THANKS = f"Thank you, that's what I needed. {STOP}"


class ScriptedUser:
    name = "scripted"
    usage = None

    def __init__(self, task: TaskRecord) -> None:
        self.task = task
        self.criteria = criteria_for(task.task, task.params)
        self.given: list[str] = []
        """The criteria said so far, in order."""

    def settings(self) -> dict[str, Any]:
        return {"user": self.name}

    def opening(self) -> str:
        """The vague request; a confidentiality task's request itself (see the module's docstring)."""
        if self.task.reward_metric == "privacy_rejection":
            return self.task.query
        return vague_opening(self.task.task)

    def reply(self, message: str | None) -> str:
        text = (message or "").strip()
        if not text.endswith("?"):
            return THANKS
        asked = [c for c in self.criteria if c.asked(text)]
        if not asked:
            return DONT_KNOW
        chosen = next((c for c in asked if c.name not in self.given), asked[0])
        if chosen.name not in self.given:
            self.given.append(chosen.name)
        return chosen.say(self.task.params)
