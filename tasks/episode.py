"""One episode's step: an action in, an observation out, on the episode's fork, single- or multi-turn.

The agents' loops, the runner (:mod:`crmarena_sf.tasks.episode_runner`) and the Gymnasium-style
env (:mod:`crmarena_sf.env`) all go through :meth:`Episode.step`, so an action means the same
thing, ends an episode for the same reason and scores the same everywhere.

Actions are the agents' own:

- ``mode="tools"``: a tool call ``{"name": ..., "arguments": {...}}`` (CRMArena's 27 tools, or a
  Pro task's ``execute_soql``, ``execute_sosl``, ``respond``); anything else is answered with
  an error observation and costs its action;
- ``mode="text"``: a reply holding one ``<execute>SOQL/SOSL</execute>`` or ``<respond>...</respond>``.

Single-turn (no user): ``respond`` is the answer; the episode ends (``answered``) and is scored.
Multi-turn (a user, :mod:`crmarena_sf.tasks.users`), as CRMArena-Pro's interactive setting
(its paper, arXiv 2505.18878, §3; tau-bench, arXiv 2406.12045): ``respond`` is a message to the
user, whose reply is the next observation. The user's ``###STOP###`` ends the episode
(``user_stop``) and the reward is computed on the agent's last message; a user with no turn
left ends it with 0 (``user_turn_limit``: at most :data:`MAX_USER_TURNS`, the opening
included); :data:`MAX_ACTIONS` actions without a message to the user end it with 0
(``action_limit``; the count restarts after each message). ``agent_error`` is an agent that
failed (it raised, or ran out of its own turn budget without answering), scored 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crmarena_sf.tasks.agents.loop import MAX_OBSERVATION, clip
from crmarena_sf.tasks.agents.text_actions import ACTION, NO_ACTION
from crmarena_sf.tasks.episode_scoring import episode_reward
from crmarena_sf.tasks.observation import observation, run_query
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.records import TaskRecord
from crmarena_sf.tasks.tools import ToolResult
from crmarena_sf.tasks.tools.tool_sets import run_tool, tool_names

MAX_USER_TURNS = 10
MAX_ACTIONS = 20
STOP = "###STOP###"
END_REASONS = ("answered", "user_stop", "user_turn_limit", "action_limit", "agent_error")
"""Why an episode ended: the single-turn answer, then the multi-turn ends (see the module docstring)."""
MODES = ("tools", "text")

NO_TOOL_CALL = "Error: reply with a tool call; when you know the answer, call respond with it."
NOT_A_TOOL_CALL = 'Error: an action is a tool call {"name": ..., "arguments": {...}}'
SENT = "Your message was sent to the user; their reply follows."


@dataclass
class Observation:
    """What a step returns: the text the agent reads next, who produced it, and whether the episode ended."""

    text: str
    speaker: str
    """``org`` (a tool or query result), ``user`` (the user's reply), ``error`` (an action not understood), ``end``."""
    done: bool = False
    end_reason: str | None = None
    error: bool = False
    """True when the action failed: not understood, or a tool's error (a Salesforce error, a bad argument)."""


@dataclass
class Episode:
    task: TaskRecord
    sf: Any
    mode: str = "tools"
    user: Any = None
    """None for a single-turn episode; else a user (:mod:`crmarena_sf.tasks.users`)."""
    judge: Any = None
    max_actions: int | None = MAX_ACTIONS
    """Actions without a message to the user before ``action_limit`` (None: the agent's own budget bounds them)."""
    max_user_turns: int = MAX_USER_TURNS
    max_observation: int = MAX_OBSERVATION
    trajectory: list[dict[str, Any]] = field(default_factory=list)
    answer: str | None = None
    answered: bool = False
    end_reason: str | None = None
    reward: float = 0.0
    actions: int = 0
    """Actions since the last message to the user (all actions in a single-turn episode)."""
    user_turns: int = 0
    error: str | None = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        self.client = OrgClient(self.sf)
        self._failed = False

    @property
    def interactive(self) -> bool:
        return self.user is not None

    @property
    def done(self) -> bool:
        return self.end_reason is not None

    def opening(self) -> str:
        """The first user message: the task's question and metadata, or the user's vague opening."""
        from crmarena_sf.tasks.agents.prompts import task_message

        if not self.interactive:
            return task_message(self.task)
        text = self.user.opening()
        self.user_turns = 1
        self.trajectory.append({"action": "user", "content": text})
        return text

    def step(self, action: Any) -> Observation:
        """Take one action; the observation says what the agent sees next and whether the episode ended."""
        if self.done:
            raise RuntimeError("the episode is over: call reset() first")
        self._failed = False
        kind, body, seen = self._read(action)
        if kind == "respond":
            return self._respond(body)
        self.actions += 1
        if kind == "error":
            self.trajectory.append({"action": "error", "message": seen})
            speaker = "error"
        else:
            seen = clip(seen, self.max_observation)
            self.trajectory[-1]["observation"] = seen
            speaker = "org"
        if self.max_actions is not None and self.actions >= self.max_actions:
            return self.end("action_limit", seen)
        return Observation(seen, speaker, error=kind == "error" or self._failed)

    def _read(self, action: Any) -> tuple[str, Any, str]:
        """``(kind, body, observation)``: kind is respond, error or run (the action ran, its result observed)."""
        if self.mode == "text":
            found = _text_actions(action)
            if len(found) != 1:
                return "error", None, NO_ACTION
            kind, body = found[0]
            if kind == "respond":
                return "respond", body.strip(), ""
            query = body.strip()
            self.trajectory.append({"action": "execute", "query": query})
            rows = run_query(self.sf, query)
            self._failed = isinstance(rows, str)  # ``CODE: message``
            return "run", query, observation(rows)
        if action is None:
            return "error", None, NO_TOOL_CALL
        if not isinstance(action, dict) or not isinstance(action.get("name"), str):
            return "error", None, NOT_A_TOOL_CALL
        name, arguments = action["name"], action.get("arguments") or {}
        if name not in tool_names(self.task.suite):
            return "error", None, run_tool(self.client, self.task.suite, name, arguments).observation
        self.trajectory.append({"action": "tool", "name": name, "arguments": arguments})
        result: ToolResult = run_tool(self.client, self.task.suite, name, arguments)
        self._failed = result.error
        if result.final:  # the respond step follows (a multi-turn one needs no copy of it)
            if self.interactive:
                self.trajectory.pop()
            else:
                self.trajectory[-1]["observation"] = result.observation
            return "respond", result.value, ""
        return "run", None, result.observation

    def _respond(self, message: str | None) -> Observation:
        self.trajectory.append({"action": "respond", "content": message})
        self.answer, self.answered = message, True
        if not self.interactive:
            self.reward = self._score()
            return self._ended("answered", message or "")
        self.actions = 0
        if self.user_turns >= self.max_user_turns:  # the user has no turn left to answer in
            return self.end("user_turn_limit", "")
        reply = self.user.reply(message)
        self.trajectory.append({"action": "user", "content": reply})
        if STOP in reply:
            self.reward = self._score()
            return self._ended("user_stop", reply)
        self.user_turns += 1
        return Observation(reply, "user")

    def end(self, reason: str, text: str = "", error: str | None = None) -> Observation:
        """End the episode without a scored answer (reward 0): a limit, or the agent's failure."""
        if reason not in END_REASONS:
            raise ValueError(f"unknown end reason {reason!r}; expected one of {', '.join(END_REASONS)}")
        if error:
            self.error = error
        message = {
            "action_limit": f"no message to the user within {self.max_actions} actions"
            if self.interactive
            else f"no answer within {self.max_actions} actions",
            "user_turn_limit": f"the user had no turn left ({self.max_user_turns})",
            "agent_error": error or "the agent failed",
        }.get(reason)
        if message:
            self.trajectory.append({"action": "error", "message": message})
        self.reward = 0.0
        return self._ended(reason, text)

    def _ended(self, reason: str, text: str) -> Observation:
        self.end_reason = reason
        return Observation(text, "end", True, reason)

    def out_of_turns(self, turns: int) -> Observation:
        """A single-turn agent's own turn budget ran out: no answer, scored as such (CRMArena's rule)."""
        self.trajectory.append({"action": "error", "message": f"no answer within {turns} turns"})
        self.reward = self._score()
        return self._ended("action_limit", "")

    def finish(self, answer: Any, trajectory: list[dict[str, Any]]) -> None:
        """Score a single-turn agent that answered without stepping (its own trajectory, its answer)."""
        if self.interactive:
            raise ValueError("this agent answers single-turn tasks only; it cannot talk with a user")
        self.trajectory, self.answer, self.answered = trajectory, answer, True
        self.reward = self._score()
        self.end_reason = "answered"

    def _score(self) -> float:
        return episode_reward(self.task, self.answer, self.trajectory, self.sf, self.judge)

    def usage(self) -> dict[str, int] | None:
        """The user's token usage (an LLM user's), apart from the agent's."""
        return getattr(self.user, "usage", None) if self.user is not None else None


def _text_actions(reply: Any) -> list[tuple[str, str]]:
    return ACTION.findall(reply if isinstance(reply, str) else "")
