"""Running an agent over a task set: in order, on threads, on worker processes or on Ray; resumable.

Each episode runs on its own fork of the org (:class:`crmarena_sf.tasks.episode_runner.EpisodeRunner`).
``workers`` episodes run at once: on threads (LLM agents wait on the network, so threads
suffice) or on ``parallel="processes"`` (each process opens the org itself, for CPU-bound
agents), or as Ray tasks on a cluster (:mod:`crmarena_sf.tasks.ray_runner`). With an
:class:`~crmarena_sf.tasks.episode_log.EpisodeLog`, finished episodes are appended as they end and
episodes already in the log are skipped, so an interrupted run resumes.

Ctrl-C stops a run with ``KeyboardInterrupt`` and nothing after it is logged: an episode an
interrupt cut short (DuckDB may have turned the interrupt into a failed query the agent saw,
see :mod:`crmarena_sf.interrupts`) is never an answer. Episodes not yet started never start;
on threads, running ones end at their next step; worker processes ignore SIGINT and are
stopped by the run that started them.
"""

from __future__ import annotations

import concurrent.futures as futures
import multiprocessing
from collections.abc import Callable
from typing import Any

from crmarena_sf.tasks.agents import AgentSpec
from crmarena_sf.tasks.episode_log import EpisodeLog
from crmarena_sf.tasks.episode_runner import EpisodeRunner
from crmarena_sf.tasks.records import TaskRecord
from crmarena_sf.tasks.results import EpisodeResult, Results

from crmarena_sf import interrupts

PARALLEL = ("threads", "processes")


def run_benchmark(
    tasks: list[TaskRecord],
    agent: Any,
    *,
    org: Any = "crmarena",
    backend: str = "emulator",
    connect_options: dict[str, Any] | None = None,
    on_episode: Callable[[EpisodeResult], None] | None = None,
    workers: int = 1,
    parallel: str = "threads",
    ray: bool = False,
    ray_address: str | None = None,
    log: EpisodeLog | None = None,
    fresh: bool = False,
    judge: Any = None,
    user: Any = None,
    trials: int = 1,
) -> Results:
    """Run ``agent`` (an agent, or an :class:`AgentSpec`) on every task ``trials`` times and score it.

    ``user`` (a :class:`~crmarena_sf.tasks.users.UserSpec`) makes the episodes multi-turn: a user
    per episode, its seed varying with the trial. ``on_episode`` sees each result as it ends
    (episodes skipped from ``log`` included first).
    """
    if trials < 1:
        raise ValueError(f"trials must be 1 or more, not {trials}")
    if parallel not in PARALLEL:
        raise ValueError(f"parallel must be one of {', '.join(PARALLEL)}, not {parallel!r}")
    if workers < 1:
        raise ValueError(f"workers must be 1 or more, not {workers}")
    built = agent.build() if isinstance(agent, AgentSpec) else agent
    settings = {**built.settings(), "backend": backend, "tasks": len(tasks)}
    settings["org"] = org if isinstance(org, str) and backend == "emulator" else None
    if user is not None:
        settings.update(user.settings())
    if trials > 1:
        settings["trials"] = trials
    done = log.open(fresh) if log else {}
    jobs = [(t, trial) for trial in range(trials) for t in tasks]
    results = [done[(t.idx, trial)] for t, trial in jobs if (t.idx, trial) in done]
    todo = [(t, trial) for t, trial in jobs if (t.idx, trial) not in done]

    def finished(result: EpisodeResult) -> None:
        interrupts.stop_if_interrupted()  # an episode an interrupt cut short is not an answer
        results.append(result)
        if log:
            log.append(result)
        if on_episode:
            on_episode(result)

    if on_episode:
        for result in results:
            on_episode(result)
    with interrupts.catching():
        try:
            if ray:
                from crmarena_sf.tasks.ray_runner import run_on_ray

                spec = _spec(agent, "Ray")
                run_on_ray(todo, spec, org, backend, connect_options, ray_address, finished, judge, user)
            elif parallel == "processes" and workers > 1:
                spec = _spec(agent, "worker processes")
                _run_processes(todo, spec, org, backend, connect_options, workers, finished, judge, user)
            else:
                runner = EpisodeRunner(built, org, backend, connect_options, judge, user)
                _run_here(runner, todo, workers, finished)
        finally:
            if log:
                log.close()
    return Results(settings, results)


def _run_here(runner: EpisodeRunner, todo: list[tuple[TaskRecord, int]], workers: int, finished) -> None:
    """Episodes (task and trial) in this process: one after another, or on ``workers`` threads."""
    try:
        if workers == 1:
            for task, trial in todo:
                finished(runner.run(task, trial))
            return
        pool = futures.ThreadPoolExecutor(workers)
        try:
            for future in futures.as_completed([pool.submit(runner.run, t, n) for t, n in todo]):
                finished(future.result())
        finally:
            # After an interrupt, queued episodes never start and running ones stop at their next
            # step (EpisodeRunner.run and the agents' turns ask); the org is closed after them.
            pool.shutdown(wait=True, cancel_futures=True)
    finally:
        runner.close()


def _spec(agent: Any, where: str) -> AgentSpec:
    if not isinstance(agent, AgentSpec):
        raise ValueError(f"{where} need an AgentSpec (name and options) to build the agent themselves")
    return agent


_worker: EpisodeRunner | None = None


def _start_worker(spec: AgentSpec, org: Any, backend: str, connect_options, judge, user=None) -> None:
    global _worker
    interrupts.ignore_in_this_process()  # Ctrl-C reaches the whole process group: the parent answers it
    _worker = EpisodeRunner(spec.build(), org, backend, connect_options, judge, user)


def _run_in_worker(task: TaskRecord, trial: int = 0) -> EpisodeResult:
    return _worker.run(task, trial)


def _run_processes(
    todo, spec: AgentSpec, org, backend, connect_options, workers: int, finished, judge, user=None
) -> None:
    if not isinstance(org, str):
        raise ValueError("worker processes open the org themselves: give it by name or path")
    context = multiprocessing.get_context("spawn")  # forked DuckDB connections are not safe to share
    pool = futures.ProcessPoolExecutor(
        workers,
        mp_context=context,
        initializer=_start_worker,
        initargs=(spec, org, backend, connect_options, judge, user),
    )
    try:
        with interrupts.deferred():  # workers start with SIGINT blocked, and ignore it before it arrives
            pending = [pool.submit(_run_in_worker, t, n) for t, n in todo]
        for future in futures.as_completed(pending):
            finished(future.result())
    except BaseException:
        _stop_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _stop_workers(pool: futures.ProcessPoolExecutor) -> None:
    """End a pool's worker processes now (their episodes are cut short, and not logged)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
