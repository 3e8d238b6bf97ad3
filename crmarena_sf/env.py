"""``CRMArenaEnv``: one CRMArena task as a Gymnasium-style environment, for training loops.

``reset()`` gives the agent its task (and a fresh copy-on-write fork of the org);
``step(action)`` returns ``(observation, reward, terminated, truncated, info)``. Actions and
observations are the agents' own (:mod:`crmarena_sf.tasks.tools`, :mod:`crmarena_sf.tasks.observation`):

- ``mode="tools"``: an action is a tool call ``{"name": ..., "arguments": {...}}`` with one of
  the 27 CRMArena tools; the observation is the ``str()`` of its result;
- ``mode="text"``: an action is the model's reply holding ``<execute>SOQL/SOSL</execute>`` or
  ``<respond>answer</respond>``; the observation is ``Salesforce instance output: ...``.

The reward is 0 until the agent responds; then it is the task's reward (exact match or
token F1; a CRMArena-Pro task's by :mod:`crmarena_sf.tasks.metrics`, its privacy tasks by the
refusal detector and leak check, with Pro's system prompt and three tools) and the episode terminates. After ``max_turns`` steps without an answer the
episode is truncated with reward 0. It follows Gymnasium's ``Env`` API without depending on
gymnasium (no spaces: actions and observations are text).
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.tasks.agents import pro_prompts
from crmarena_sf.tasks.agents.loop import MAX_OBSERVATION, MAX_TURNS, clip
from crmarena_sf.tasks.agents.prompts import system_prompt, task_message
from crmarena_sf.tasks.agents.text_actions import ACTION, NO_ACTION
from crmarena_sf.tasks.metrics import score_pro
from crmarena_sf.tasks.observation import observation, run_query
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.pro.suite import is_pro
from crmarena_sf.tasks.records import TaskRecord, from_json
from crmarena_sf.tasks.scoring import reward
from crmarena_sf.tasks.tools.tool_sets import run_tool, tool_schemas

MODES = ("tools", "text")


class CRMArenaEnv:
    def __init__(
        self,
        task: TaskRecord | dict,
        org: Any = "crmarena",
        *,
        mode: str = "tools",
        max_turns: int = MAX_TURNS,
        max_observation: int = MAX_OBSERVATION,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.task = task if isinstance(task, TaskRecord) else from_json(task)
        self.mode, self.max_turns, self.max_observation = mode, max_turns, max_observation
        from crmarena_sf.connection.orgs import resolve_org

        self._template = resolve_org(org)
        self._owns_template = self._template is not org
        self._fork = None
        self.sf = None
        self.turns = 0
        self.done = True

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[str, dict[str, Any]]:
        """Start the episode on a fresh fork of the org; the observation is the task message."""
        from crmarena_sf.connection.connect import connect

        self._close_fork()
        self._fork = self._template.fork()
        self.sf = connect(org=self._fork)
        self._client = OrgClient(self.sf)
        self.turns, self.done = 0, False
        style = "function-calling" if self.mode == "tools" else "react"
        pro = is_pro(self.task.suite)
        system = pro_prompts.system_prompt(style, self.task, self.sf) if pro else system_prompt(style)
        info = {"idx": self.task.idx, "task": self.task.task, "system_prompt": system}
        if self.mode == "tools":
            info["tools"] = tool_schemas(self.task.suite)
        return task_message(self.task), info

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self.done:
            raise RuntimeError("the episode is over: call reset() first")
        self.turns += 1
        answer, answered, seen = None, False, ""
        if self.mode == "tools":
            if not isinstance(action, dict) or not isinstance(action.get("name"), str):
                seen = 'Error: an action is a tool call {"name": ..., "arguments": {...}}'
            else:
                result = run_tool(
                    self._client, self.task.suite, action["name"], action.get("arguments") or {}
                )
                seen, answered, answer = result.observation, result.final, result.value
        else:
            actions = ACTION.findall(action if isinstance(action, str) else "")
            if len(actions) != 1:
                seen = NO_ACTION
            elif actions[0][0] == "respond":
                answered, answer = True, actions[0][1].strip()
                seen = answer
            else:
                seen = observation(run_query(self.sf, actions[0][1].strip()))
        info: dict[str, Any] = {"turns": self.turns}
        if answered:
            self.done = True
            info["answer"] = answer
            if is_pro(self.task.suite):
                value, verdict = score_pro(self.task, answer, [{"action": "respond", "content": answer}])
                if verdict is not None:
                    info["privacy"] = verdict.to_json()
                return seen, value, True, False, info
            return seen, reward(self.task.reward_metric, answer, self.task.answer), True, False, info
        truncated = self.turns >= self.max_turns
        self.done = truncated
        return clip(seen, self.max_observation), 0.0, False, truncated, info

    def _close_fork(self) -> None:
        if self._fork is not None:
            self._fork.close()
            self._fork = None

    def close(self) -> None:
        self._close_fork()
        if self._owns_template and self._template is not None:
            self._template.close()
            self._template = None
