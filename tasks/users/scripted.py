"""The scripted user: a user of the interactive suites that needs no model, built from a task's ``params``.

It opens with the task's vague request (:func:`~crmarena_sf.tasks.users.criteria.vague_opening`).
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
