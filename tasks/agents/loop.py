"""What the LLM agents share: the turn budget and the transcript of one episode with the model.

The episode itself (its actions, trajectory, limits and reward) is :mod:`crmarena_sf.tasks.episode`;
the agents send it each action the model wrote. CRMArena's loop settings: at most 20 model turns
in a single-turn episode (``max_turns``); a reply the agent cannot act on still counts as a turn
and is answered with an error observation; an episode that never answers ends with no answer
(scored as such). A multi-turn episode is bounded by its own limits instead (10 user turns,
20 actions between messages to the user). Observations longer than
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
class Conversation:
    """One episode's conversation with the model; the episode itself (:mod:`crmarena_sf.tasks.episode`) acts."""

    model: ChatModel
    messages: list[dict[str, Any]]
    episode: Any
    max_turns: int | None = MAX_TURNS
    """Model calls before a single-turn episode gives up; None in a multi-turn one (the episode's limits bound it)."""
    usage: Usage = field(default_factory=Usage)
    turns: int = 0

    @classmethod
    def start(
        cls, model: ChatModel, style: str, episode, max_turns: int, privacy_aware: bool = False
    ) -> Conversation:
        """A new conversation: the style's system prompt (a Pro task's: :mod:`.pro_prompts`), then the opening."""
        from crmarena_sf.tasks.agents.prompts import interactive_rules, system_prompt
        from crmarena_sf.tasks.pro.suite import is_pro

        task = episode.task
        if is_pro(getattr(task, "suite", None)):
            from crmarena_sf.tasks.agents import pro_prompts

            system = pro_prompts.system_prompt(style, task, episode.sf, privacy_aware)
        else:
            system = system_prompt(style)
        if episode.interactive:
            system += "\n\n" + interactive_rules(task)
        messages = [{"role": "system", "content": system}, {"role": "user", "content": episode.opening()}]
        return cls(model, messages, episode, None if episode.interactive else max_turns)

    def turns_left(self) -> bool:
        if self.episode.done:
            return False
        if self.max_turns is not None and self.turns >= self.max_turns:
            self.episode.out_of_turns(self.max_turns)
            return False
        return True

    def ask(self, tools: list[dict] | None = None):
        """The model's next reply (one turn); none after Ctrl-C (the runner is stopping)."""
        interrupts.stop_if_interrupted()
        self.turns += 1
        return self.model.complete(self.messages, tools=tools, usage=self.usage)

    def outcome(self) -> EpisodeOutcome:
        episode = self.episode
        return EpisodeOutcome(episode.answer, episode.trajectory, self.turns, self.usage.to_json())
