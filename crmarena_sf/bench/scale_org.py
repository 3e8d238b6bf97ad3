"""The `--scale 100` org the benchmarks compare with the default org, built once into the cache.

``crmarena-sf generate --scale 100`` makes 97,700 cases and 4.2 M records; loading and
search-indexing them takes minutes, so the dataset and its org file are kept under
``<cache>/bench/`` (keyed by the generator's version and fingerprint) and reopened read-only
by later runs, each benchmark working on a fork.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from crmarena_sf.emulator.cache_dir import cache_root
from crmarena_sf.emulator.store.indexes import LAYOUT
from crmarena_sf.emulator.store.org import Org
from crmarena_sf.loaders.generate import GENERATOR_VERSION, generate, generator_fingerprint


def scaled_org_file(scale: int = 100, progress: bool = False) -> Path:
    """The org file of the ``full`` profile, seed 0, at ``scale`` (generated, loaded and indexed if missing)."""
    base = (
        cache_root()
        / "bench"
        / f"{GENERATOR_VERSION}-{generator_fingerprint()}-layout{LAYOUT}-full-0-x{scale}"
    )
    path = base.with_name(base.name + ".duckdb")
    if path.is_file():
        return path
    from crmarena_sf.emulator import sosl
    from crmarena_sf.loaders.load import load_dataset

    base.parent.mkdir(parents=True, exist_ok=True)
    if not (base / "manifest.json").is_file():
        shutil.rmtree(base, ignore_errors=True)
        generate(base, profile="full", seed=0, scale=scale, progress=progress)
    staging = path.with_name(f".{path.name}.{os.getpid()}")
    staging.unlink(missing_ok=True)
    try:
        org = load_dataset(base, Org.new(path=staging), progress=progress)
        sosl.ensure_index(org)
        org.close()
        os.replace(staging, path)
    finally:
        staging.unlink(missing_ok=True)
        staging.with_name(staging.name + ".wal").unlink(missing_ok=True)
    shutil.rmtree(base, ignore_errors=True)  # the org file holds everything the benchmarks read
    return path


def scaled_org(scale: int = 100, progress: bool = False) -> Org:
    """A private fork of the scaled org."""
    from crmarena_sf.loaders.org_templates import org_file_fork

    return org_file_fork(scaled_org_file(scale, progress), progress=progress)
