"""CRMArena-Pro's two orgs (issue 20): each generated and loaded in at most 10 s on two cores, a fork in at most 50 ms;
and each suite's main job (issue 21) in at most 60 s from a fresh cache.

Generation and loading are timed on a fresh dataset of each profile (seed 0); the fork is of
the cached named org (``crmarena-pro-b2b``, ``crmarena-pro-b2c``), built first if needed. The
main job is ``crmarena-sf run --suite pro-b2b --agent reference`` (and ``pro-b2c``) in a process
of its own whose ``CRMARENA_SF_CACHE`` is an empty directory: generating and loading the org,
building the 2,140 tasks with every gold computed twice, and the reference agent's episodes,
each on its own fork. Its CPU time is in the row's note (other work on the machine moves the
wall time much more than the CPU time).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from crmarena_sf.bench import Measurement, median_ms, under


def run(quick: bool = False) -> list[Measurement]:
    from crmarena_sf.loaders.default_org import crmarena_org
    from crmarena_sf.loaders.load import load_dataset
    from crmarena_sf.loaders.pro.generate import generate_pro

    results = []
    repeat = 5 if quick else 20
    with tempfile.TemporaryDirectory(prefix="crmarena-bench-pro-") as tmp:
        for profile in ("b2b", "b2c"):
            start = time.perf_counter()
            path = generate_pro(Path(tmp) / profile, profile=profile, seed=0)
            generated = time.perf_counter() - start
            start = time.perf_counter()
            org = load_dataset(path)
            loaded = time.perf_counter() - start
            records = sum(org.count(name) for name in org.table_names() if not name.startswith("_"))
            org.close()
            total = generated + loaded
            results.append(Measurement("pro", f"generate `{profile}` (seed 0)", round(generated, 2), "s"))
            results.append(Measurement("pro", f"load `{profile}` into a new org", round(loaded, 2), "s"))
            results.append(
                Measurement(
                    "pro",
                    f"generate + load `{profile}` ({records:,} records in the org)",
                    round(total, 2),
                    "s",
                    "< 10 s",
                    total < 10,
                )
            )
            template = crmarena_org(progress=False, profile=profile)
            forks: list = []
            fork = forks.append
            results.append(
                under(
                    "pro",
                    f"fork of the crmarena-pro-{profile} org",
                    median_ms(lambda t=template, keep=fork: keep(t.fork()), repeat),
                    50,
                )
            )
            for fork in [template, *forks]:
                fork.close()
    for suite in ("pro-b2b", "pro-b2c"):
        results.append(main_job(suite, quick))
    return results


def main_job(suite: str, quick: bool) -> Measurement:
    """``crmarena-sf run --suite SUITE --agent reference`` from an empty cache, in a process of its own.

    ``--quick`` builds 10 instances of each task instead of 100 (and has no target).
    """
    with tempfile.TemporaryDirectory(prefix="crmarena-bench-main-job-") as tmp:
        out = Path(tmp) / "results.json"
        command = [sys.executable, "-m", "crmarena_sf.cli.main", "run", "--suite", suite]
        command += ["--agent", "reference", "--out", str(out), "--quiet"]
        if quick:
            command += ["--per-task", "10"]
        env = {**os.environ, "CRMARENA_SF_CACHE": str(Path(tmp) / "cache")}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        took = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            return Measurement(
                "pro",
                f"main job `{suite}` from a fresh cache: failed",
                0,
                "s",
                "< 60 s",
                False,
                done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "",
            )
        results = json.loads(out.read_text(encoding="utf-8"))
    score = results.get("overall")
    tasks = results["settings"]["tasks"]
    name = (
        f"main job: `run --suite {suite} --agent reference` from a fresh cache "
        f"({tasks} tasks, score {score:g}; CPU {cpu:.1f} s)"
    )
    if quick:
        return Measurement("pro", name + " (--quick: 10 per task)", round(took, 2), "s")
    return Measurement("pro", name, round(took, 2), "s", "< 60 s", took < 60 and score == 100)
