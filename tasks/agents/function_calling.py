"""The function-calling agent: the model calls CRMArena's 27 tools natively until it calls ``respond``.

This is CRMArena's ``tool_call_flex`` setting: all 27 tools (the helpers, free-form SOQL and
SOSL, respond) with the schema in the system prompt. Several tool calls in one reply are run
in order; a reply with no tool call, an unknown tool or arguments that are not JSON is
answered with an error observation and costs its turn. On a CRMArena-Pro task it has three
tools instead, ``execute_soql``, ``execute_sosl`` and ``respond`` (:mod:`.pro_prompts`).
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.tasks.agents.llm import ChatModel
from crmarena_sf.tasks.agents.loop import MAX_OBSERVATION, MAX_TURNS, Conversation
from crmarena_sf.tasks.episode import NO_TOOL_CALL, SENT, Episode
from crmarena_sf.tasks.records import TaskRecord
from crmarena_sf.tasks.tools.tool_sets import tool_schemas

__all__ = ["NO_TOOL_CALL", "FunctionCallingAgent"]

NOT_RUN = "Not run: your message to the user came first in this reply."


class FunctionCallingAgent:
    name = "function-calling"

    def __init__(
        self,
        model: ChatModel,
        max_turns: int = MAX_TURNS,
        max_observation: int = MAX_OBSERVATION,
        privacy_aware: bool = False,
    ) -> None:
        self.model, self.max_turns, self.max_observation = model, max_turns, max_observation
        self.privacy_aware = privacy_aware

    def settings(self) -> dict[str, Any]:
        out = {"agent": self.name, **self.model.settings(), "max_turns": self.max_turns}
        return {**out, "privacy_aware_prompt": True} if self.privacy_aware else out

    def run(self, task: TaskRecord, sf: Any, episode: Episode | None = None):
        """Play ``episode`` (a single-turn one on ``sf`` when none is given) to its end."""
        episode = episode or Episode(
            task, sf, "tools", max_actions=None, max_observation=self.max_observation
        )
        chat = Conversation.start(self.model, self.name, episode, self.max_turns, self.privacy_aware)
        tools = tool_schemas(task.suite)
        while chat.turns_left():
            reply = chat.ask(tools)
            calls = list(getattr(reply, "tool_calls", None) or [])
            content = getattr(reply, "content", None)
            if content:
                episode.trajectory.append({"action": "model", "content": content})
            if not calls:
                seen = episode.step(None)
                chat.messages += [
                    {"role": "assistant", "content": content or ""},
                    {"role": "user", "content": seen.text},
                ]
                continue
            chat.messages.append(
                {
                    "role": "assistant",
                    "content": content,
                    "tool_calls": [
                        {
                            "id": c.id,
                            "type": "function",
                            "function": {"name": c.function.name, "arguments": c.function.arguments},
                        }
                        for c in calls
                    ],
                }
            )
            # Every tool call gets its tool message (the API requires one per call id); calls after a
            # message to the user are not run, and the user's reply follows the tool messages.
            answers, user_reply = [], None
            for call in calls:
                if user_reply is not None or episode.done:
                    answers.append({"role": "tool", "tool_call_id": call.id, "content": NOT_RUN})
                    continue
                seen = episode.step({"name": call.function.name, "arguments": call.function.arguments})
                if seen.speaker == "user":
                    user_reply = seen.text
                text = SENT if seen.speaker == "user" else seen.text
                answers.append({"role": "tool", "tool_call_id": call.id, "content": text})
            chat.messages += answers
            if user_reply is not None:
                chat.messages.append({"role": "user", "content": user_reply})
        return chat.outcome()
