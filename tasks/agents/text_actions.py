"""The Act and ReAct agents: the model writes ``<execute>query</execute>`` or ``<respond>answer</respond>``.

CRMArena's ``act`` and ``react`` settings (ReAct adds a ``<thought>`` before each action).
An ``execute`` runs SOQL or SOSL as CRMArena's connector does and the model reads
``Salesforce instance output: [...]`` (:mod:`crmarena_sf.tasks.observation`). A reply without exactly
one action gets an error observation and costs its turn.
"""

from __future__ import annotations

import re
from typing import Any

from crmarena_sf.tasks.agents.llm import ChatModel
from crmarena_sf.tasks.agents.loop import MAX_OBSERVATION, MAX_TURNS, Conversation
from crmarena_sf.tasks.records import TaskRecord

ACTION = re.compile(r"<(execute|respond)>(.*?)</\1>", re.DOTALL)
THOUGHT = re.compile(r"<thought>(.*?)</thought>", re.DOTALL)
NO_ACTION = (
    "Error: your reply must hold exactly one action, <execute>...</execute> or <respond>...</respond>."
)


class TextActionAgent:
    """``act`` (actions only) or ``react`` (a thought, then an action)."""

    def __init__(
        self,
        style: str,
        model: ChatModel,
        max_turns: int = MAX_TURNS,
        max_observation: int = MAX_OBSERVATION,
        privacy_aware: bool = False,
    ) -> None:
        if style not in ("act", "react"):
            raise ValueError(f"style must be 'act' or 'react', not {style!r}")
        self.name, self.model, self.max_turns, self.max_observation = style, model, max_turns, max_observation
        self.privacy_aware = privacy_aware
        """CRMArena-Pro's privacy-aware prompt on external-facing Pro tasks (``--privacy-aware-prompt``)."""

    def settings(self) -> dict[str, Any]:
        out = {"agent": self.name, **self.model.settings(), "max_turns": self.max_turns}
        return {**out, "privacy_aware_prompt": True} if self.privacy_aware else out

    def run(self, task: TaskRecord, sf: Any, episode=None):
        """Play ``episode`` (a single-turn one on ``sf`` when none is given) to its end."""
        from crmarena_sf.tasks.episode import Episode

        episode = episode or Episode(task, sf, "text", max_actions=None, max_observation=self.max_observation)
        chat = Conversation.start(self.model, self.name, episode, self.max_turns, self.privacy_aware)
        while chat.turns_left():
            reply = chat.ask()
            text = (getattr(reply, "content", None) or "").strip()
            chat.messages.append({"role": "assistant", "content": text})
            thought = THOUGHT.search(text)
            if thought:
                episode.trajectory.append({"action": "think", "content": thought[1].strip()})
            seen = episode.step(text)
            if seen.speaker == "error":
                episode.trajectory[-1]["reply"] = text
            if not seen.done:
                chat.messages.append({"role": "user", "content": seen.text})
        return chat.outcome()
