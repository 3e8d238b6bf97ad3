"""A benchmark served to an agent from outside: its episodes one at a time, each on its own fork, scored and logged.

``crmarena-sf mcp --suite`` hands an external agent (any MCP client) the tasks of a task set in
order. ``next_task`` opens an episode on a fresh fork of the org, exactly as ``crmarena-sf run``
opens one (:meth:`~crmarena_sf.tasks.episode_runner.EpisodeRunner.open_episode`: the fork, the
clock frozen for the text-to-SOQL track); the suite's tools run on that fork only
(:mod:`crmarena_sf.tasks.tools.tool_sets`, the function-calling agent's own); ``submit_answer``
scores the answer with the suite's metric (:meth:`~crmarena_sf.tasks.episode_runner.EpisodeRunner.scored`),
appends the episode to the run's episode log (:mod:`crmarena_sf.tasks.episode_log`), rewrites
``results.json`` beside it, and closes the fork. A server started again with the same ``--out``
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
- the agent's name is the MCP client's (``clientInfo.name``) unless ``--agent-name`` is given for
  a client that names none; each episode's trajectory opens with the client that ran it, and
  ``results.json``'s settings name the clients of its episodes;
- the run the episode log belongs to (what a resume must match) is the task set, the org, the
  suite's tool set and ``--model-name``; the client's name is not part of it, being known only
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crmarena_sf.tasks.agents.base import EpisodeOutcome
from crmarena_sf.tasks.agents.loop import MAX_OBSERVATION, clip
from crmarena_sf.tasks.episode_log import EpisodeLog, log_path, tasks_digest
from crmarena_sf.tasks.episode_runner import EpisodeRunner
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.pro.suite import is_pro
from crmarena_sf.tasks.records import TaskRecord
from crmarena_sf.tasks.results import EpisodeResult, Results
from crmarena_sf.tasks.tools import ToolResult
from crmarena_sf.tasks.tools.tool_sets import FINAL_TOOL, run_tool, tool_schemas

RESULTS_FILE = "results.json"
SUBMIT_TOOL = "submit_answer"
"""The MCP name of the final tool (the function-calling agent's ``respond``)."""


class EpisodeStateError(ValueError):
    """A call the benchmark's state refuses (no open episode, one already open ...): a tool error."""


class _ExternalAgent:
    """What results.json records about the agent: the MCP clients' names and ``--model-name``."""

    def __init__(self, model_name: str | None) -> None:
        self.model_name = model_name

    def settings(self) -> dict[str, Any]:
        return {"agent": "mcp", "model": self.model_name}


@dataclass
class OpenEpisode:
    """The episode an agent is working on."""

    task: TaskRecord
    sf: Any
    fork: Any
    client: OrgClient
    trajectory: list[dict[str, Any]] = field(default_factory=list)
    calls: int = 0


def run_key(tasks: list[TaskRecord], org: str | None, model_name: str | None) -> dict[str, Any]:
    """What an episode log of a ``mcp --suite`` run records about the run (a resume must match it)."""
    names = sorted({t.suite for t in tasks}, key=str)
    tools = json.dumps([tool_schemas(s) for s in names], sort_keys=True).encode()
    return {
        "agent": "mcp",
        "agent_code": hashlib.sha256(tools).hexdigest()[:12],
        "model_name": model_name,
        "backend": "emulator",
        "org": org,
        "tasks": tasks_digest(tasks),
    }


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
    ) -> None:
        self.tasks = tasks
        self.out = Path(out)
        self.results_path = self.out / RESULTS_FILE
        self.agent_name, self.model_name = agent_name, model_name
        self.settings = settings
        self.runner = EpisodeRunner(_ExternalAgent(model_name), org_template)
        self.log = EpisodeLog(log_path(self.results_path), run_key(tasks, settings.get("org"), model_name))
        self.done: dict[int, EpisodeResult] = {
            idx: result for idx, result in self.log.open(fresh).items() if idx in {t.idx for t in tasks}
        }
        self.todo = deque(t for t in tasks if t.idx not in self.done)
        self.current: OpenEpisode | None = None
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ the agent's calls
    def next_task(self, client: dict[str, str] | None) -> dict[str, Any]:
        """Open the next episode and say what the agent is asked; ``{"done": true}`` when none is left."""
        with self._lock:
            if self.current is not None:
                raise EpisodeStateError(
                    f"task {self.current.task.idx} is still open: call {SUBMIT_TOOL} with its answer first"
                )
            if not self.todo:
                return {
                    "done": True,
                    "message": f"every task of this run is answered ({len(self.done)}); the results are in "
                    f"{self.results_path}",
                }
            task = self.todo.popleft()
            sf, fork = self.runner.open_episode(task)
            name = self.agent_name or (client or {}).get("name") or "unnamed MCP client"
            step = {"action": "mcp_client", "name": name}
            if client and client.get("version"):
                step["version"] = client["version"]
            self.current = OpenEpisode(task, sf, fork, OrgClient(sf), [step])
            return self._briefing(self.current)

    def call(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        """Run one of the suite's tools on the open episode's fork (its result as the function-calling agent sees it)."""
        with self._lock:
            episode = self._open(name)
            result = run_tool(episode.client, episode.task.suite, name, arguments)
            observation = clip(result.observation, MAX_OBSERVATION)
            episode.calls += 1
            episode.trajectory.append(
                {
                    "action": "tool",
                    "name": name,
                    "arguments": json.dumps(arguments, ensure_ascii=False),
                    "observation": observation,
                }
            )
            return ToolResult(result.value, observation, result.final, result.error)

    def submit(self, answer: str) -> dict[str, Any]:
        """Score the open episode's answer, log it, rewrite results.json and close the episode's fork."""
        with self._lock:
            episode = self._open(SUBMIT_TOOL)
            self.current = None
            try:
                episode.trajectory.append({"action": "respond", "content": answer})
                outcome = EpisodeOutcome(answer, episode.trajectory, episode.calls)
                result = self.runner.scored(episode.task, outcome, episode.sf)
                result = self.runner.checked(episode.task, result, episode.sf, episode.fork)
            finally:
                if episode.fork is not None:
                    episode.fork.close()
            if result.scored:
                self.done[result.idx] = result
            else:  # a failure outside the agent: handed out again (after the others), as a resume runs it
                self.todo.append(episode.task)
            self.log.append(result)
            self.write_results()
            reply = {"recorded": True, "idx": episode.task.idx, "remaining": len(self.todo)}
            if not result.scored:
                reply |= {"recorded": False, "error": result.error}
            return reply

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
                + (" (the last answer was recorded)" if tool == SUBMIT_TOOL and self.done else "")
            )
        return self.current

    def _briefing(self, episode: OpenEpisode) -> dict[str, Any]:
        task = episode.task
        metadata = task.metadata or {}
        out: dict[str, Any] = {
            "idx": task.idx,
            "episode": len(self.done) + 1,
            "of": len(self.tasks),
            "query": task.query,
            "required": metadata.get("required", ""),
            "optional": metadata.get("optional", ""),
        }
        if is_pro(task.suite):
            out["persona"] = task.persona
        out["instructions"] = instructions(task, episode.sf)
        out["tools"] = [
            n["function"]["name"] for n in tool_schemas(task.suite) if n["function"]["name"] != FINAL_TOOL
        ] + [SUBMIT_TOOL]
        return out


_RESPOND = re.compile(r"\brespond\b")


def instructions(task: TaskRecord, sf: Any) -> str:
    """The function-calling agent's system prompt for ``task``, its final tool named as MCP names it."""
    from crmarena_sf.tasks.agents import pro_prompts
    from crmarena_sf.tasks.agents.prompts import system_prompt

    if is_pro(task.suite):
        text = pro_prompts.system_prompt("function-calling", task, sf)
    else:
        text = system_prompt("function-calling")
    head, marker, actions = text.rpartition("# Actions")
    return head + marker + _RESPOND.sub(SUBMIT_TOOL, actions) if marker else text
