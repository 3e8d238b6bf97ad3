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

The same class serves the threads of one process (it is thread-safe), worker processes and
Ray workers (each builds its own from the spec: org name or path, backend, agent spec).
"""

from __future__ import annotations

import threading
from typing import Any

from crmarena_sf.tasks.agents.base import NotAnAnswer
from crmarena_sf.tasks.metrics import Scoring, score_pro
from crmarena_sf.tasks.pro.suite import is_pro
from crmarena_sf.tasks.records import TaskRecord
from crmarena_sf.tasks.results import EpisodeResult
from crmarena_sf.tasks.scoring import reward

from crmarena_sf import interrupts
from crmarena_sf.connection.connect import connect, emulator_errors


class EpisodeRunner:
    def __init__(
        self, agent: Any, org: Any = "crmarena", backend: str = "emulator", connect_options=None, judge=None
    ) -> None:
        if backend not in ("emulator", "salesforce"):
            raise ValueError(f"unknown backend {backend!r}; expected 'emulator' or 'salesforce'")
        self.scoring = ("project", None)  # Pro's rule set and extraction step
        if isinstance(judge, Scoring):  # a run's Pro scoring settings travel where its judge does
            self.scoring, judge = (judge.rules, judge.extractor), judge.judge
        self.agent, self.org, self.backend, self.judge = agent, org, backend, judge
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

    def run(self, task: TaskRecord) -> EpisodeResult:
        interrupts.stop_if_interrupted()  # a worker thread does not start an episode after Ctrl-C
        sf, fork = self.open_episode(task)
        try:
            return self.checked(task, self._episode(task, sf), sf, fork)
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

    def checked(self, task: TaskRecord, result: EpisodeResult, sf, fork) -> EpisodeResult:
        """``result`` with the question it answers, unscored when the emulator failed during the episode."""
        result.question = task.query
        failures = emulator_errors(sf) if fork is not None else []
        if failures:
            result.scored, result.reward, result.cause = False, 0.0, "emulator"
            result.error = f"the emulator failed ({len(failures)} server error(s); first: {failures[0]})"
        return result

    def _episode(self, task: TaskRecord, sf) -> EpisodeResult:
        try:
            outcome = self.agent.run(task, sf)
        except Exception as exc:
            return _failed(task, exc)
        return self.scored(task, outcome, sf)

    def scored(self, task: TaskRecord, outcome, sf) -> EpisodeResult:
        """The result of an episode the agent ended with ``outcome``, its answer scored by the task's metric.

        A scoring that fails ends the episode as an agent's failure does (a judge's endpoint that
        fails leaves it unscored, to run again)."""
        try:
            value = self._reward(task, outcome, sf)
        except Exception as exc:
            return _failed(task, exc)
        return EpisodeResult(
            task.idx,
            task.task,
            outcome.answer,
            task.answer,
            value,
            outcome.trajectory,
            turns=outcome.turns,
            usage=outcome.usage,
        )

    def _reward(self, task: TaskRecord, outcome, sf) -> float:
        if task.reward_metric == "soql_execution":
            from crmarena_sf.tasks.soql_eval import compare

            verdict = compare(sf, outcome.answer, task.answer)
            outcome.trajectory.append(
                {"action": "evaluation", "match": verdict.match, "reason": verdict.reason}
            )
            return 1.0 if verdict.match else 0.0
        if is_pro(task.suite):
            return self._pro_reward(task, outcome)
        if task.reward_metric != "privacy_rejection":
            return reward(task.reward_metric, outcome.answer, task.answer)
        if self.judge is None:
            raise ValueError("this task is scored by the privacy-refusal judge: give --judge-model")
        return 1.0 if self.judge.refused(task.query, outcome.answer, outcome.trajectory) else 0.0

    def _pro_reward(self, task: TaskRecord, outcome) -> float:
        """CRMArena-Pro's metrics (:mod:`crmarena_sf.tasks.metrics`); privacy by judge or detector, and the leak check."""
        value, verdict = score_pro(
            task, outcome.answer, outcome.trajectory, Scoring(self.judge, *self.scoring)
        )
        if verdict is not None:
            outcome.trajectory.append(verdict.to_json())
        return value

    def close(self) -> None:
        if self._template is not None and self._owns_template:
            self._template.close()
        self._template = None


def _failed(task: TaskRecord, exc: Exception) -> EpisodeResult:
    """An episode that raised: unscored when the machinery around the agent failed (it runs again on
    resume), else scored 0 with the error (an agent's failure is the episode's result, not the run's end)."""
    if isinstance(exc, NotAnAnswer):
        return EpisodeResult(
            task.idx, task.task, None, task.answer, 0.0, [], str(exc), scored=False, cause=exc.cause
        )
    return EpisodeResult(task.idx, task.task, None, task.answer, 0.0, [], f"{type(exc).__name__}: {exc}")
