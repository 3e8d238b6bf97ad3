"""A benchmark served to an agent from outside: its episodes one at a time, each on its own fork, scored and logged.

``crmarena-sf mcp --suite`` hands an external agent (any MCP client) the tasks of a task set in
order. ``next_task`` opens an episode on a fresh fork of the org, exactly as ``crmarena-sf run``
opens one (:meth:`~crmarena_sf.tasks.episode_runner.EpisodeRunner.open_episode`: the fork, the
clock frozen for the text-to-SOQL track). Every call is then a step of that episode
(:class:`crmarena_sf.tasks.episode.Episode`, the one the project's agents, the runner and the env
step): the suite's tools run on the fork only (:mod:`crmarena_sf.tasks.tools.tool_sets`, the
function-calling agent's own), and ``submit_answer`` is its ``respond``, scored with the suite's
metric. An episode that ended is appended to the run's episode log
(:mod:`crmarena_sf.tasks.episode_log`), ``results.json`` beside it is rewritten, and the fork closed. A server started again with the same ``--out``
skips the episodes the log holds; an episode still open when the server stops was never logged,
and is handed out again.

Decisions where issue 30 is silent:

- one episode is open at a time, whichever client calls (a benchmark serves one agent; its MCP
  connection may be stateless, as the 2026-07-28 protocol's HTTP requests are, so the open
  episode belongs to the server, not to a connection); ``next_task`` with an episode open is a
  tool error, as a tool call or ``submit_answer`` with none open is;
- the score is not told to the agent (it would learn from the gold answers): ``submit_answer``
  says the answer was recorded and how many tasks remain; ``results.json`` and
  ``crmarena-sf report`` have the scores;
- an interactive suite (a simulated user holds the question, :mod:`crmarena_sf.tasks.users`) has
  ``reply_to_user`` instead of ``submit_answer``: its argument is the agent's message, its
  result the user's reply; the episode ends as :mod:`crmarena_sf.tasks.episode` ends one (the
  user's stop, the user's turn limit, the action limit), and the call that ends it says so;
  ``next_task`` gives the user's opening message, never the task's query;
- a single-turn episode has no action limit (as ``run``'s agents, bounded by their own budget);
- the agent's name is the MCP client's (``clientInfo.name``), else ``--agent-name`` (a client that
  names none; the Python SDK's client says ``mcp`` unless told otherwise); each episode's trajectory opens with the client that ran it, and
  ``results.json``'s settings name the clients of its episodes;
- the run the episode log belongs to (what a resume must match) is the task set, the org, the
  suite's tool set, the user (interactive suites), the scoring (judge, rules, extractor) and
  ``--model-name``; the client's name is not part of it, being known only
  once a client calls.

No MCP import here: the module is the benchmark's side of the server (:mod:`.suite_tools` is the
protocol's).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crmarena_sf.tasks.episode import Episode, Observation
from crmarena_sf.tasks.episode_log import EpisodeLog, log_path, tasks_digest
from crmarena_sf.tasks.episode_runner import EpisodeRunner
from crmarena_sf.tasks.pro.suite import is_pro
from crmarena_sf.tasks.records import TaskRecord
from crmarena_sf.tasks.results import EpisodeResult, Results
from crmarena_sf.tasks.tools.tool_sets import FINAL_TOOL, tool_schemas

RESULTS_FILE = "results.json"
SUBMIT_TOOL = "submit_answer"
"""The MCP name of the single-turn suites' final tool (the function-calling agent's ``respond``)."""
REPLY_TOOL = "reply_to_user"
"""The MCP name of the interactive suites' message to the user (the function-calling agent's ``respond``)."""


class EpisodeStateError(ValueError):
    """A call the benchmark's state refuses (no open episode, one already open ...): a tool error."""


class _ExternalAgent:
    """What results.json records about the agent: the MCP clients' names and ``--model-name``.

    It plays tool calls (the runner's episodes for it are in ``tools`` mode)."""

    name = "mcp"

    def __init__(self, model_name: str | None) -> None:
        self.model_name = model_name

    def settings(self) -> dict[str, Any]:
        return {"agent": "mcp", "model": self.model_name}

    def run(self, task, sf):  # never called: the MCP client plays the episode
        raise NotImplementedError


@dataclass
class OpenEpisode:
    """The episode an agent is working on, on its own fork."""

    episode: Episode
    fork: Any

    @property
    def task(self) -> TaskRecord:
        return self.episode.task


@dataclass
class Reply:
    """A tool's answer to the agent: its text, whether it is an error, and whether it ended the episode."""

    text: str
    error: bool = False
    ended: str | None = None
    """The end reason when the call ended the episode (it is then recorded)."""


def run_key(tasks: list[TaskRecord], org: str | None, model_name: str | None, user: Any) -> dict[str, Any]:
    """What an episode log of a ``mcp --suite`` run records about the run (a resume must match it)."""
    names = sorted({t.suite or "" for t in tasks})
    tools = json.dumps([tool_schemas(s or None) for s in names], sort_keys=True).encode()
    key = {
        "agent": "mcp",
        "agent_code": hashlib.sha256(tools).hexdigest()[:12],
        "model_name": model_name,
        "backend": "emulator",
        "org": org,
        "tasks": tasks_digest(tasks),
    }
    return key | ({"user": user.settings()} if user is not None else {})


class SuiteSession:
    """The benchmark's state: the tasks still to hand out, the open episode, the log and results.json."""

    def __init__(
        self,
        tasks: list[TaskRecord],
        org_template: Any,
        out: str | Path,
        settings: dict[str, Any],
        *,
        agent_name: str | None = None,
        model_name: str | None = None,
        fresh: bool = False,
        user: Any = None,
        judge: Any = None,
    ) -> None:
        self.tasks = tasks
        self.out = Path(out)
        self.results_path = self.out / RESULTS_FILE
        self.agent_name, self.model_name, self.user = agent_name, model_name, user
        self.settings = settings
        self.runner = EpisodeRunner(_ExternalAgent(model_name), org_template, judge=judge, user=user)
        scoring = {k: settings[k] for k in ("judge_model", "scoring", "extractor_model") if settings.get(k)}
        key = run_key(tasks, settings.get("org"), model_name, user) | scoring
        self.log = EpisodeLog(log_path(self.results_path), key)
        wanted = {t.idx for t in tasks}
        opened = self.log.open(fresh).values()
        self.done: dict[int, EpisodeResult] = {r.idx: r for r in opened if r.idx in wanted and not r.trial}
        self.todo = deque(t for t in tasks if t.idx not in self.done)
        self.current: OpenEpisode | None = None
        self._lock = threading.RLock()

    @property
    def interactive(self) -> bool:
        """Whether a simulated user holds the question (``reply_to_user`` instead of ``submit_answer``)."""
        return self.user is not None

    @property
    def final_tool(self) -> str:
        return REPLY_TOOL if self.interactive else SUBMIT_TOOL

    # ------------------------------------------------------------------ the agent's calls
    def next_task(self, client: dict[str, str] | None) -> dict[str, Any]:
        """Open the next episode and say what the agent is asked; ``{"done": true}`` when none is left."""
        with self._lock:
            if self.current is not None:
                raise EpisodeStateError(
                    f"task {self.current.task.idx} is still open: call {self.final_tool} "
                    + (
                        "until the user ends the conversation"
                        if self.interactive
                        else "with its answer first"
                    )
                )
            if not self.todo:
                return {
                    "done": True,
                    "message": f"every task of this run is answered ({len(self.done)}); the results are in "
                    f"{self.results_path}",
                }
            task = self.todo.popleft()
            sf, fork = self.runner.open_episode(task)
            try:
                episode = self.runner.new_episode(task, sf)
                name = (client or {}).get("name") or self.agent_name or "unnamed MCP client"
                step = {"action": "mcp_client", "name": name}
                if client and client.get("version"):
                    step["version"] = client["version"]
                episode.trajectory.append(step)
                message = episode.opening()
            except BaseException:
                if fork is not None:
                    fork.close()
                self.todo.appendleft(task)
                raise
            self.current = OpenEpisode(episode, fork)
            return self._briefing(self.current, message)

    def call(self, name: str, arguments: dict[str, Any]) -> Reply:
        """Run one of the suite's tools on the open episode's fork (its result as the function-calling agent sees it)."""
        with self._lock:
            current = self._open(name)
            return self._after(current, current.episode.step({"name": name, "arguments": arguments}))

    def respond(self, message: str) -> Reply:
        """The agent's answer (single-turn) or message to the user (interactive): the user's reply, or the end."""
        with self._lock:
            current = self._open(self.final_tool)
            return self._after(
                current, current.episode.step({"name": FINAL_TOOL, "arguments": {"content": message}})
            )

    # ------------------------------------------------------------------ the run's files
    def write_results(self) -> None:
        """results.json of the episodes answered so far (none: nothing written)."""
        if not self.done:
            return
        clients = []  # the agents that ran the episodes, a resumed run's earlier ones included
        for result in sorted(self.done.values(), key=lambda r: r.idx):
            first = result.trajectory[0] if result.trajectory else {}
            if first.get("action") == "mcp_client" and first.get("name") not in clients:
                clients.append(first.get("name"))
        settings = {
            **self.settings,
            "agent": ", ".join(map(str, clients)) or "mcp",
            "model": self.model_name,
            "tasks": len(self.tasks),
            **(self.user.settings() if self.user is not None else {}),  # as run's: user, user_model ...
        }
        Results(settings, list(self.done.values())).write(self.results_path)

    def close(self) -> None:
        """Close the open episode's fork (its episode is not logged: a restart hands it out again), the log, the org."""
        with self._lock:
            if self.current is not None and self.current.fork is not None:
                self.current.fork.close()
            self.current = None
            self.log.close()
            self.runner.close()

    # ------------------------------------------------------------------ helpers
    def _open(self, tool: str) -> OpenEpisode:
        if self.current is None:
            raise EpisodeStateError(
                f"no task is open: call next_task before {tool}"
                + (" (the last answer was recorded)" if tool == self.final_tool and self.done else "")
            )
        return self.current

    def _after(self, current: OpenEpisode, seen: Observation) -> Reply:
        """The tool's reply to the agent; an episode that ended is scored, logged and closed."""
        if not seen.done:
            return Reply(seen.text, seen.error)
        result = self._finish(current)
        if seen.end_reason == "answered":
            text = json.dumps({"recorded": result.scored, "idx": result.idx, "remaining": len(self.todo)})
            return Reply(text, not result.scored, seen.end_reason)
        said = f"{seen.text}\n\n" if seen.text else ""
        why = {
            "user_stop": "the user ended the conversation",
            "user_turn_limit": "the user had no turn left",
            "action_limit": f"no message to the user within {current.episode.max_actions} tool calls",
        }.get(seen.end_reason, seen.end_reason)
        return Reply(
            f"{said}[The episode ended: {why}. It is recorded; call next_task for the next task.]",
            seen.end_reason != "user_stop",
            seen.end_reason,
        )

    def _finish(self, current: OpenEpisode) -> EpisodeResult:
        self.current = None
        try:
            result = self.runner.result_of(current.task, current.episode)
            result = self.runner.checked(current.task, result, current.episode.sf, current.fork)
        finally:
            if current.fork is not None:
                current.fork.close()
        if result.scored:
            self.done[result.idx] = result
        else:  # a failure outside the agent: handed out again (after the others), as a resume runs it
            self.todo.append(current.task)
        self.log.append(result)
        self.write_results()
        return result

    def _briefing(self, current: OpenEpisode, message: str) -> dict[str, Any]:
        task = current.task
        metadata = task.metadata or {}
        out: dict[str, Any] = {"idx": task.idx, "episode": len(self.done) + 1, "of": len(self.tasks)}
        if self.interactive:
            out["user_says"] = message  # the query stays with the simulated user
        else:
            out["query"] = task.query
        out |= {"required": metadata.get("required", ""), "optional": metadata.get("optional", "")}
        if is_pro(task.suite):
            out["persona"] = task.persona
        out["instructions"] = instructions(task, current.episode.sf, self.final_tool, self.interactive)
        names = [s["function"]["name"] for s in tool_schemas(task.suite)]
        out["tools"] = [n for n in names if n != FINAL_TOOL] + [self.final_tool]
        return out


_RESPOND = re.compile(r"\brespond\b")


def instructions(task: TaskRecord, sf: Any, final_tool: str, interactive: bool) -> str:
    """The function-calling agent's system prompt for ``task`` (and the interactive rules), its final tool
    named as MCP names it."""
    from crmarena_sf.tasks.agents import pro_prompts
    from crmarena_sf.tasks.agents.prompts import interactive_rules, system_prompt

    if is_pro(task.suite):
        text = pro_prompts.system_prompt("function-calling", task, sf)
    else:
        text = system_prompt("function-calling")
    if interactive:
        text += "\n\n" + interactive_rules(task)
    head, marker, actions = text.rpartition("# Actions")
    return head + marker + _RESPOND.sub(final_tool, actions) if marker else text
