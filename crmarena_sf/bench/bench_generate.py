"""Generator and loader (issue 6): `full` generated and loaded in < 10 s; `--scale` at > 50,000 records/s, bounded memory.

The scaled run happens in a child process, so its peak memory (max RSS) is its own; with
``quick`` it uses ``--scale 10`` instead of 100.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from crmarena_sf.bench import Measurement

SCALED_RUN = """
import json, sys, time
from crmarena_sf.loaders.generate import generate
start = time.perf_counter()
path = generate(sys.argv[1], profile="full", seed=0, scale=int(sys.argv[2]))
seconds = time.perf_counter() - start
counts = json.loads((path / "manifest.json").read_text())["counts"]
print(json.dumps({"records": sum(counts.values()), "seconds": seconds}))
"""


def run(quick: bool = False) -> list[Measurement]:
    from crmarena_sf.loaders.generate import generate
    from crmarena_sf.loaders.load import load_dataset

    results = []
    with tempfile.TemporaryDirectory(prefix="crmarena-bench-") as tmp:
        start = time.perf_counter()
        path = generate(Path(tmp) / "full", profile="full", seed=0)
        generated = time.perf_counter() - start
        start = time.perf_counter()
        org = load_dataset(path)
        loaded = time.perf_counter() - start
        org.close()
        total = generated + loaded
        results.append(Measurement("generate", "generate `full` (seed 0)", round(generated, 2), "s"))
        results.append(Measurement("generate", "load `full` into a new org", round(loaded, 2), "s"))
        results.append(
            Measurement("generate", "generate + load `full`", round(total, 2), "s", "< 10 s", total < 10)
        )
        scale = 10 if quick else 100
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        done = subprocess.run(
            [sys.executable, "-c", SCALED_RUN, str(Path(tmp) / f"scale{scale}"), str(scale)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            results.append(
                Measurement(
                    "generate",
                    f"`--scale {scale}` throughput",
                    float("nan"),
                    "records/s",
                    "> 50000",
                    False,
                    done.stderr.strip()[-200:],
                )
            )
            return results
        report = json.loads(done.stdout.strip().splitlines()[-1])
        rate = report["records"] / report["seconds"]
        peak_mb = max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before) / 1024
        results.append(
            Measurement(
                "generate",
                f"`--scale {scale}` throughput ({report['records']:,} records)",
                round(rate),
                "records/s",
                "> 50000",
                rate > 50_000,
            )
        )
        results.append(
            Measurement(
                "generate",
                f"`--scale {scale}` peak memory",
                round(peak_mb),
                "MB",
                note="max RSS of the generating process",
            )
        )
    return results
