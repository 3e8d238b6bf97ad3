"""Running an agent over a task set: each episode on its own fork of the org, scored as it ends.

On the emulator the org is resolved once (a template) and every episode gets a
copy-on-write fork of it, closed when the episode ends, so an agent that writes cannot
disturb the next episode. On a real org there is nothing to fork: every episode shares the
one connection, and an agent that writes changes the org for later episodes (the results'
settings say which backend ran). An episode whose agent raises scores 0 and keeps the error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tasks.agents.base import Agent
from tasks.records import TaskRecord
from tasks.results import EpisodeResult, Results
from tasks.scoring import reward


def run_benchmark(
    tasks: list[TaskRecord],
    agent: Agent,
    *,
    org: Any = "crmarena",
    backend: str = "emulator",
    connect_options: dict[str, Any] | None = None,
    on_episode: Callable[[EpisodeResult], None] | None = None,
) -> Results:
    """Run ``agent`` on every task and score it (``on_episode`` sees each result as it ends)."""
    from crmarena_sf.connect import connect

    options = dict(connect_options or {})
    episodes: list[EpisodeResult] = []
    settings = {**agent.settings(), "backend": backend, "tasks": len(tasks)}
    if backend == "emulator":
        from crmarena_sf.orgs import resolve_org

        template = resolve_org(org)
        settings["org"] = org if isinstance(org, str) else None
        try:
            for task in tasks:
                fork = template.fork()
                try:
                    episodes.append(_episode(agent, task, connect(org=fork, **options), on_episode))
                finally:
                    fork.close()
        finally:
            if template is not org:  # resolved here from a name: ours to close
                template.close()
    elif backend == "salesforce":
        sf = connect(backend="salesforce", **options)
        for task in tasks:
            episodes.append(_episode(agent, task, sf, on_episode))
    else:
        raise ValueError(f"unknown backend {backend!r}; expected 'emulator' or 'salesforce'")
    return Results(settings, episodes)


def _episode(agent: Agent, task: TaskRecord, sf: Any, on_episode) -> EpisodeResult:
    try:
        outcome = agent.run(task, sf)
        result = EpisodeResult(
            task.idx,
            task.task,
            outcome.answer,
            task.answer,
            reward(task.reward_metric, outcome.answer, task.answer),
            outcome.trajectory,
        )
    except Exception as exc:  # an agent's failure is the episode's result, not the run's end
        result = EpisodeResult(
            task.idx, task.task, None, task.answer, 0.0, [], f"{type(exc).__name__}: {exc}"
        )
    if on_episode:
        on_episode(result)
    return result
