"""The benchmark layer (issue 9): building the 1,170 CRMArena tasks with their gold answers, and the reference run.

``crmarena-sf run --agent reference`` on the embedded org is the README's main job and must
take well under a minute on two cores: the target covers building the default task set and
running the 1,170 episodes (each on its own fork of the org).
"""

from __future__ import annotations

import time

from crmarena_sf.bench import Measurement


def run(quick: bool = False) -> list[Measurement]:
    import crmarena_sf
    from crmarena_sf.loaders.default_org import crmarena_org
    from crmarena_sf.tasks.agents import make_agent
    from crmarena_sf.tasks.build import build_tasks
    from crmarena_sf.tasks.runner import run_benchmark

    template = crmarena_org(progress=False)
    per_task = 30 if quick else 130
    fork = template.fork()
    start = time.perf_counter()
    report = build_tasks(crmarena_sf.connect(org=fork), per_task=per_task)
    built = time.perf_counter() - start
    fork.close()
    n = len(report.records)
    start = time.perf_counter()
    results = run_benchmark(report.records, make_agent("reference"), org=template)
    ran = time.perf_counter() - start
    template.close()
    scale = f"{n} tasks" + (" (--quick: 30 per task)" if quick else "")
    return [
        Measurement("tasks", f"build the task set with gold answers ({scale})", round(built, 2), "s"),
        Measurement(
            "tasks",
            f"reference agent over {n} episodes, a fork each (score {results.overall:g})",
            round(ran, 2),
            "s",
        ),
        Measurement(
            "tasks",
            "main job: build + reference run",
            round(built + ran, 2),
            "s",
            "< 60 s",
            built + ran < 60 and results.overall == 100,
        ),
        Measurement(
            "tasks", "episodes per second (reference agent, 1 worker)", round(n / ran, 1), "episodes/s"
        ),
        *_scaling(report.records, quick),
    ]


def _scaling(records, quick: bool) -> list[Measurement]:
    """Reference-agent throughput with 2 workers: threads, processes (spawn included) and a local Ray."""
    from crmarena_sf.tasks.agents import AgentSpec
    from crmarena_sf.tasks.runner import run_benchmark

    ways = [("2 threads", {"workers": 2}), ("2 processes", {"workers": 2, "parallel": "processes"})]
    try:
        import ray  # noqa: F401

        ways.append(("local Ray, all cores", {"ray": True}))
    except ImportError:
        pass
    out = []
    for label, options in ways:
        start = time.perf_counter()
        results = run_benchmark(records, AgentSpec("reference"), org="crmarena", **options)
        took = time.perf_counter() - start
        out.append(
            Measurement(
                "tasks",
                f"episodes per second (reference agent, {label}; start-up included; score {results.overall:g})",
                round(len(records) / took, 1),
                "episodes/s",
            )
        )
    return out
