"""The function-calling agent: the model calls CRMArena's 27 tools natively until it calls ``respond``.

This is CRMArena's ``tool_call_flex`` setting: all 27 tools (the helpers, free-form SOQL and
SOSL, respond) with the schema in the system prompt. Several tool calls in one reply are run
in order; a reply with no tool call, an unknown tool or arguments that are not JSON is
answered with an error observation and costs its turn. On a CRMArena-Pro task it has three
tools instead, ``execute_soql``, ``execute_sosl`` and ``respond`` (:mod:`.pro_prompts`). The tool
sets are :mod:`crmarena_sf.tasks.tools.tool_sets`', which ``crmarena-sf mcp --suite`` serves too.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.tasks.agents.llm import ChatModel
from crmarena_sf.tasks.agents.loop import MAX_OBSERVATION, MAX_TURNS, Episode, clip
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.records import TaskRecord
from crmarena_sf.tasks.tools.tool_sets import run_tool, tool_schemas

NO_TOOL_CALL = "Error: reply with a tool call; when you know the answer, call respond with it."


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

    def run(self, task: TaskRecord, sf: Any):
        client = OrgClient(sf)
        episode = Episode.for_task(self.model, self.name, task, self.max_turns, sf, self.privacy_aware)
        tools = tool_schemas(task.suite)
        while episode.turns_left():
            reply = episode.ask(tools)
            calls = list(getattr(reply, "tool_calls", None) or [])
            content = getattr(reply, "content", None)
            if content:
                episode.trajectory.append({"action": "model", "content": content})
            if not calls:
                episode.messages += [
                    {"role": "assistant", "content": content or ""},
                    {"role": "user", "content": NO_TOOL_CALL},
                ]
                episode.trajectory.append({"action": "error", "message": NO_TOOL_CALL})
                continue
            episode.messages.append(
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
            for call in calls:
                result = run_tool(client, task.suite, call.function.name, call.function.arguments)
                observation = clip(result.observation, self.max_observation)
                episode.trajectory.append(
                    {
                        "action": "tool",
                        "name": call.function.name,
                        "arguments": call.function.arguments,
                        "observation": observation,
                    }
                )
                episode.messages.append({"role": "tool", "tool_call_id": call.id, "content": observation})
                if result.final:
                    episode.respond(result.value)
                    break
        return episode.outcome()
