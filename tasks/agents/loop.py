"""What the LLM agents share: the turn budget, the transcript and the trajectory of one episode.

CRMArena's loop settings: at most 20 model turns an episode (``max_turns``); a reply the
agent cannot act on still counts as a turn and is answered with an error observation; an
episode that never answers ends with no answer (scored as such). Observations longer than
``max_observation`` characters are cut, with a note saying how much was left out, so one
huge result cannot overflow the model's context.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crmarena_sf.tasks.agents.base import EpisodeOutcome
from crmarena_sf.tasks.agents.llm import ChatModel, Usage

from crmarena_sf import interrupts

MAX_TURNS = 20
MAX_OBSERVATION = 30_000


def clip(text: str, limit: int = MAX_OBSERVATION) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"... [{len(text) - limit} more characters not shown]"


@dataclass
class Episode:
    """One episode's conversation with the model."""

    model: ChatModel
    messages: list[dict[str, Any]]
    max_turns: int = MAX_TURNS
    trajectory: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    turns: int = 0
    answer: str | None = None
    answered: bool = False

    @classmethod
    def for_task(cls, model: ChatModel, style: str, task, max_turns: int) -> Episode:
        """A new episode: the style's system prompt, then the task message."""
        from crmarena_sf.tasks.agents.prompts import system_prompt, task_message

        messages = [
            {"role": "system", "content": system_prompt(style)},
            {"role": "user", "content": task_message(task)},
        ]
        return cls(model, messages, max_turns)

    def turns_left(self) -> bool:
        return not self.answered and self.turns < self.max_turns

    def ask(self, tools: list[dict] | None = None):
        """The model's next reply (one turn); none after Ctrl-C (the runner is stopping)."""
        interrupts.stop_if_interrupted()
        self.turns += 1
        return self.model.complete(self.messages, tools=tools, usage=self.usage)

    def respond(self, answer: str | None) -> None:
        self.answer, self.answered = answer, True
        self.trajectory.append({"action": "respond", "content": answer})

    def outcome(self) -> EpisodeOutcome:
        if not self.answered:
            self.trajectory.append({"action": "error", "message": f"no answer within {self.max_turns} turns"})
        return EpisodeOutcome(self.answer, self.trajectory, self.turns, self.usage.to_json())
