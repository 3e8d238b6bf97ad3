"""CRMArena-Pro's two orgs (issue 20): each generated and loaded in at most 10 s on two cores, a fork in at most 50 ms.

Generation and loading are timed on a fresh dataset of each profile (seed 0); the fork is of
the cached named org (``crmarena-pro-b2b``, ``crmarena-pro-b2c``), built first if needed.
"""

from __future__ import annotations

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
    return results
