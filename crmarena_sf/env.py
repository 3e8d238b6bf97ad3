"""``CRMArenaEnv``: one CRMArena task as a Gymnasium-style environment, for training loops.

``reset()`` gives the agent its task (and a fresh copy-on-write fork of the org);
``step(action)`` returns ``(observation, reward, terminated, truncated, info)``. It is a thin
shell around :class:`crmarena_sf.tasks.episode.Episode`, the step the agents and the runner
take too, so actions, limits and rewards are the same everywhere:

- ``mode="tools"``: an action is a tool call ``{"name": ..., "arguments": {...}}`` with one of
  the 27 CRMArena tools (a Pro task's three); the observation is the ``str()`` of its result;
- ``mode="text"``: an action is the model's reply holding ``<execute>SOQL/SOSL</execute>`` or
  ``<respond>answer</respond>``; the observation is ``Salesforce instance output: ...``.

Single-turn (``user=None``): the reward is 0 until the agent responds; then it is the task's
reward by its metric, every metric included (exact or fuzzy match, a Pro task's metrics, the
text-to-SOQL track's execution match on the episode's fork, privacy refusals by the judge
given as ``judge`` or Pro's detector), and the episode terminates; after ``max_turns`` steps
without an answer it is truncated with reward 0. Multi-turn (``user="scripted"``, or a
:class:`~crmarena_sf.tasks.users.UserSpec`): the first observation is the user's opening,
``respond`` talks to the user and the user's reply is the next observation (``info["speaker"]``
is ``user``; a tool result's is ``org``); the episode terminates on the user's ``###STOP###``
(reward on the agent's last reply) and is truncated with 0 at the user-turn or action limit.
``info["end_reason"]`` says which. It follows Gymnasium's ``Env`` API without depending on
gymnasium (no spaces: actions and observations are text).
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.tasks.agents import pro_prompts
from crmarena_sf.tasks.agents.loop import MAX_OBSERVATION, MAX_TURNS
from crmarena_sf.tasks.agents.prompts import interactive_rules, system_prompt
from crmarena_sf.tasks.episode import MODES, Episode
from crmarena_sf.tasks.pro.suite import is_pro
from crmarena_sf.tasks.records import TaskRecord, from_json
from crmarena_sf.tasks.tools.tool_sets import tool_schemas

__all__ = ["MODES", "CRMArenaEnv"]

TERMINATED = ("answered", "user_stop", "agent_error")
"""End reasons that terminate an episode; the limits truncate it."""


class CRMArenaEnv:
    def __init__(
        self,
        task: TaskRecord | dict,
        org: Any = "crmarena",
        *,
        mode: str = "tools",
        max_turns: int = MAX_TURNS,
        max_observation: int = MAX_OBSERVATION,
        user: Any = None,
        judge: Any = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.task = task if isinstance(task, TaskRecord) else from_json(task)
        self.mode, self.max_turns, self.max_observation = mode, max_turns, max_observation
        if isinstance(user, str):
            from crmarena_sf.tasks.users import UserSpec

            if user != "scripted":
                raise ValueError(
                    f"user must be 'scripted' or a UserSpec (an LLM user needs its model), not {user!r}"
                )
            user = UserSpec("scripted")
        self.user, self.judge = user, judge
        from crmarena_sf.connection.orgs import resolve_org

        self._template = resolve_org(org)
        self._owns_template = self._template is not org
        self._fork = None
        self.sf = None
        self.episode: Episode | None = None
        self.turns = 0

    @property
    def done(self) -> bool:
        return self.episode is None or self.episode.done

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[str, dict[str, Any]]:
        """Start the episode on a fresh fork of the org; the observation is the task message (or the user's opening).

        ``seed`` is the trial: an LLM user's seed is its own seed plus it (the scripted user has none)."""
        from crmarena_sf.connection.connect import connect

        self._close_fork()
        self._fork = self._template.fork()
        now = (self.task.params or {}).get("now")
        if now:
            self._fork.clock.freeze(now)  # the instant the task's date literals mean (text-to-SOQL track)
        self.sf = connect(org=self._fork)
        self.turns = 0
        user = self.user.build(self.task, seed or 0) if self.user is not None else None
        limit = None if user is not None else self.max_turns
        self.episode = Episode(
            self.task, self.sf, self.mode, user, self.judge, limit, max_observation=self.max_observation
        )
        if user is not None:
            from crmarena_sf.tasks.episode import MAX_ACTIONS

            self.episode.max_actions = MAX_ACTIONS
        style = "function-calling" if self.mode == "tools" else "react"
        pro = is_pro(self.task.suite)
        system = pro_prompts.system_prompt(style, self.task, self.sf) if pro else system_prompt(style)
        if user is not None:
            system += "\n\n" + interactive_rules(self.task)
        info = {"idx": self.task.idx, "task": self.task.task, "system_prompt": system}
        info["speaker"] = "user"
        if self.mode == "tools":
            info["tools"] = tool_schemas(self.task.suite)
        return self.episode.opening(), info

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self.done:
            raise RuntimeError("the episode is over: call reset() first")
        self.turns += 1
        seen = self.episode.step(action)
        info: dict[str, Any] = {"turns": self.turns, "speaker": seen.speaker}
        if not seen.done:
            return seen.text, 0.0, False, False, info
        episode = self.episode
        info["end_reason"] = seen.end_reason
        if episode.answered:
            info["answer"] = episode.answer
        privacy = [s for s in episode.trajectory if isinstance(s, dict) and s.get("action") == "privacy"]
        if privacy:
            info["privacy"] = privacy[-1]
        terminated = seen.end_reason in TERMINATED
        return seen.text, episode.reward, terminated, not terminated, info

    def _close_fork(self) -> None:
        if self._fork is not None:
            self._fork.close()
            self._fork = None

    def close(self) -> None:
        self._close_fork()
        if self._owns_template and self._template is not None:
            self._template.close()
            self._template = None
