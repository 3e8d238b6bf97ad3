"""One process's episodes: an org template resolved once, a private fork per episode, the answer scored.

On the emulator every episode gets a copy-on-write fork of the template, closed when the
episode ends, so an agent that writes cannot disturb another episode. On a real org there
is nothing to fork: episodes share one connection, and an agent that writes changes the org
for later episodes (results.json's settings say which backend ran). An episode whose agent
raises scores 0 and keeps the error; the run goes on. An episode in which the emulator
answered a server error (a 5xx: a defect of the emulator, whatever the agent made of it), or
whose agent raised :class:`~crmarena_sf.tasks.agents.base.NotAnAnswer` (the model endpoint
failed after the client's retries), is not scored at all: it is recorded with ``scored`` false,
its ``cause`` and the error, and runs again on resume. It is detected where the emulator answers, the fork's transport adapter, since an LLM
agent sees a failed call only as an observation.

The org clock is frozen only for tasks that carry ``params.now`` (the text-to-SOQL track's
date-literal questions). CRMArena's nine tasks state "today" in their text instead, and the
clock is left alone for them: a real org's cannot be frozen, and both backends must answer a
query like ``LAST_N_DAYS:7`` the same way.

Each episode is an :class:`~crmarena_sf.tasks.episode.Episode` (the step the agents and the env
take too), which scores the answer by its metric; with a user (an interactive suite) it is
multi-turn, the user made afresh per episode and trial. An agent whose ``run`` takes no
``episode`` answers on its own and the episode scores that answer (single-turn only).

The same class serves the threads of one process (it is thread-safe), worker processes and
Ray workers (each builds its own from the spec: org name or path, backend, agent spec).
"""

from __future__ import annotations

import inspect
import threading
from typing import Any

from crmarena_sf.tasks.agents.base import NotAnAnswer
from crmarena_sf.tasks.episode import MAX_ACTIONS, Episode
from crmarena_sf.tasks.records import TaskRecord
from crmarena_sf.tasks.results import EpisodeResult

from crmarena_sf import interrupts
from crmarena_sf.connection.connect import connect, emulator_errors


class EpisodeRunner:
    def __init__(
        self,
        agent: Any,
        org: Any = "crmarena",
        backend: str = "emulator",
        connect_options=None,
        judge=None,
        user=None,
    ) -> None:
        if backend not in ("emulator", "salesforce"):
            raise ValueError(f"unknown backend {backend!r}; expected 'emulator' or 'salesforce'")
        self.agent, self.org, self.backend, self.judge, self.user = agent, org, backend, judge, user
        self._steps = "episode" in inspect.signature(agent.run).parameters
        """Whether the agent plays an :class:`Episode` itself (else it answers and the episode scores it)."""
        self.connect_options = dict(connect_options or {})
        self._template = None
        self._owns_template = False
        self._sf = None
        self._lock = threading.Lock()

    def _connection(self):
        """A client for one episode, and the fork to close after it (None on a real org)."""

        with self._lock:
            if self.backend == "salesforce":
                if self._sf is None:
                    self._sf = connect(backend="salesforce", **self.connect_options)
                return self._sf, None
            if self._template is None:
                from crmarena_sf.connection.orgs import resolve_org

                self._template = resolve_org(self.org, progress=False)  # workers draw no bars of their own
                self._owns_template = self._template is not self.org
            fork = self._template.fork()
        return connect(org=fork, **self.connect_options), fork

    def run(self, task: TaskRecord, trial: int = 0) -> EpisodeResult:
        interrupts.stop_if_interrupted()  # a worker thread does not start an episode after Ctrl-C
        sf, fork = self.open_episode(task)
        try:
            return self.checked(task, self._episode(task, sf, trial), sf, fork, trial)
        finally:
            if fork is not None:
                fork.close()

    def open_episode(self, task: TaskRecord):
        """A client on the episode's own fork, and the fork (None on a real org: close it after the episode).

        An agent driven from outside (``crmarena-sf mcp --suite``) is handed the same as :meth:`run`'s."""
        sf, fork = self._connection()
        now = (task.params or {}).get("now")
        if now and fork is not None:
            fork.clock.freeze(now)  # the instant the task's date literals mean (text-to-SOQL track)
        return sf, fork

    def checked(self, task: TaskRecord, result: EpisodeResult, sf, fork, trial: int = 0) -> EpisodeResult:
        """``result`` with the question it answers and its trial, unscored when the emulator failed during the episode."""
        result.question, result.trial = task.query, trial
        failures = emulator_errors(sf) if fork is not None else []
        if failures:
            result.scored, result.reward, result.cause = False, 0.0, "emulator"
            result.error = f"the emulator failed ({len(failures)} server error(s); first: {failures[0]})"
        return result

    def _episode(self, task: TaskRecord, sf, trial: int) -> EpisodeResult:
        episode = None
        try:
            episode = self.new_episode(task, sf, trial)
            outcome = self.agent.run(task, sf, episode=episode) if self._steps else self.agent.run(task, sf)
            if not episode.done:
                if self._steps and episode.interactive:
                    episode.end("agent_error", error="the agent stopped before the episode ended")
                else:  # an agent that answers without stepping (it cannot talk with a user: that raises)
                    episode.finish(outcome.answer, outcome.trajectory)
            return self.result_of(task, episode, outcome)
        except NotAnAnswer as exc:  # the machinery around the agent failed: no answer, run it again
            return EpisodeResult(
                task.idx, task.task, None, task.answer, 0.0, [], str(exc), scored=False, cause=exc.cause
            )
        except Exception as exc:  # an agent's failure is the episode's result, not the run's end
            return EpisodeResult(
                task.idx,
                task.task,
                None,
                task.answer,
                0.0,
                episode.trajectory if episode is not None else [],
                f"{type(exc).__name__}: {exc}",
                end_reason="agent_error",
                user_usage=episode.usage() if episode is not None else None,
            )

    def new_episode(self, task: TaskRecord, sf, trial: int = 0) -> Episode:
        """The episode on ``sf``: the agent's mode; with a user, the multi-turn limits (else the agent's own budget).

        ``crmarena-sf mcp --suite`` makes its episodes here too, the MCP client playing them."""
        mode = "text" if getattr(self.agent, "name", "") in ("act", "react") else "tools"
        user = self.user.build(task, trial) if self.user is not None else None
        episode = Episode(task, sf, mode, user, self.judge, MAX_ACTIONS if user is not None else None)
        episode.max_observation = getattr(self.agent, "max_observation", episode.max_observation)
        return episode

    @staticmethod
    def result_of(task: TaskRecord, episode: Episode, outcome=None) -> EpisodeResult:
        """The result of an ended ``episode`` (``outcome``: the agent's, for its turns and token usage)."""
        return EpisodeResult(
            task.idx,
            task.task,
            episode.answer,
            task.answer,
            episode.reward,
            episode.trajectory,
            error=episode.error,
            turns=getattr(outcome, "turns", None),
            usage=getattr(outcome, "usage", None),
            end_reason=episode.end_reason,
            user_usage=episode.usage(),
        )

    def close(self) -> None:
        if self._template is not None and self._owns_template:
            self._template.close()
        self._template = None
