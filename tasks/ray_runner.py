"""Episodes as Ray tasks, on a local Ray or an existing cluster (``crmarena-sf run --ray [ADDRESS]``).

Ray is an optional extra (``pip install -e '.[ray]'``). The agent spec, org and backend go
to the cluster once (an object reference); each Ray task carries one task record and
returns its scored episode. Each worker process builds one
:class:`~crmarena_sf.tasks.episode_runner.EpisodeRunner` (it opens the org itself: the default org's
cached file read-only, an org file, or a dataset directory, so the path must exist on every
machine, e.g. on a shared file system) and forks it per episode.
"""

from __future__ import annotations

import os
from typing import Any

from crmarena_sf.tasks.agents import AgentSpec
from crmarena_sf.tasks.episode_runner import EpisodeRunner
from crmarena_sf.tasks.records import TaskRecord, from_json
from crmarena_sf.tasks.results import EpisodeResult

_runners: dict[Any, EpisodeRunner] = {}


def _episode(spec: tuple, raw_task: dict, trial: int = 0) -> dict:
    """A Ray task: run one episode in this worker's runner (made on its first episode)."""
    key = repr(spec)
    runner = _runners.get(key)
    if runner is None:
        agent_spec, org, backend, connect_options, judge, user = spec
        runner = _runners[key] = EpisodeRunner(agent_spec.build(), org, backend, connect_options, judge, user)
    return runner.run(from_json(raw_task), trial).to_json()


def run_on_ray(
    todo: list[tuple[TaskRecord, int]],
    spec: AgentSpec,
    org: Any,
    backend: str,
    connect_options,
    address: str | None,
    finished,
    judge=None,
    user=None,
) -> None:
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install -e '.[ray]'") from None
    if not isinstance(org, str):
        raise ValueError("Ray workers open the org themselves: give it by name or path")
    if backend == "emulator" and org == "crmarena":
        from crmarena_sf.loaders.default_org import default_org_file

        org = str(default_org_file(progress=False))  # built once here; workers attach it read-only
    started = not ray.is_initialized()
    if started:
        env = {
            k: v
            for k, v in os.environ.items()
            if k in ("CRMARENA_SF_CACHE", "PYTHONPATH", "OPENAI_API_KEY", "OPENAI_USER_API_KEY")
        }
        ray.init(address=address, runtime_env={"env_vars": env} if env else None, logging_level="ERROR")
    try:
        remote = ray.remote(_episode)
        shared = ray.put((spec, org, backend, connect_options, judge, user))
        pending = [remote.remote(shared, task.to_json(), trial) for task, trial in todo]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            finished(EpisodeResult.from_json(ray.get(ready[0])))
    finally:
        if started:
            ray.shutdown()
