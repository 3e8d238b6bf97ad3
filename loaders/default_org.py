"""The default org: the ``full`` profile with seed 0, generated on first use and cached on disk;
and CRMArena-Pro's two orgs, ``b2b`` and ``b2c`` with seed 0 (:data:`NAMED_ORGS`), cached the same way.

The dataset lives in ``$CRMARENA_SF_CACHE/datasets/<generator version>-full-0/`` (default cache
root: ``$XDG_CACHE_HOME/crmarena-sf``, else ``~/.cache/crmarena-sf``). A cached dataset made
against other metadata (its manifest's schema version differs from the installed describes)
or by other generator code (its fingerprint differs) is regenerated.

Beside it, ``<generator version>-full-0.duckdb`` holds the loaded org with its search index
built, made once from the dataset (atomically). Each process attaches that file read-only
(any number of processes may) as a template; :func:`crmarena_org` returns a copy-on-write fork
of the template, so every caller gets a private org in milliseconds and nothing is reloaded
or re-indexed per process. The Pro orgs live beside it as ``pro<version>-b2b-0/`` and
``pro<version>-b2c-0/`` (their generator's own version), each with its org file.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

from crmarena_sf.emulator.cache_dir import cache_root
from crmarena_sf.emulator.store.indexes import LAYOUT
from crmarena_sf.emulator.store.org import Org
from crmarena_sf.loaders.dataset import Dataset, DatasetError, schema_version
from crmarena_sf.loaders.generate import GENERATOR_VERSION, generate, generator_fingerprint
from crmarena_sf.loaders.load import load_dataset, new_org_for
from crmarena_sf.metadata import load_schema

PROFILE, SEED = "full", 0
NAMED_ORGS = {"crmarena": "full", "crmarena-pro-b2b": "b2b", "crmarena-pro-b2c": "b2c"}
"""Org names and the generator profile each one is (seed 0)."""
PRO_PROFILES = ("b2b", "b2c")
_templates: dict[str, Org] = {}
_template_lock = threading.Lock()


def _generator(profile: str) -> tuple[str, str, str]:
    """(directory prefix, version, fingerprint) of the generator that makes ``profile``."""
    if profile in PRO_PROFILES:
        from crmarena_sf.loaders.pro.generate import PRO_GENERATOR_VERSION, pro_fingerprint

        return f"pro{PRO_GENERATOR_VERSION}", PRO_GENERATOR_VERSION, pro_fingerprint()
    return GENERATOR_VERSION, GENERATOR_VERSION, generator_fingerprint()


def default_dataset_dir(progress: bool = True, profile: str | None = None) -> Path:
    """The dataset directory of the cached org of ``profile`` (the default org's unless told), generated first if missing or stale."""
    profile = profile or PROFILE
    datasets = cache_root() / "datasets"
    path = datasets / f"{_generator(profile)[0]}-{profile}-{SEED}"
    if _is_current(path, profile):
        return path
    try:
        datasets.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatasetError(f"cannot create the cache directory {datasets}: {exc.strerror or exc}") from None
    with _exclusive(datasets / ".lock"):
        if _is_current(path, profile):  # another process generated it while we waited
            return path
        if path.exists():
            stale = path.with_name(f".{path.name}.stale-{os.getpid()}")
            path.rename(stale)
            shutil.rmtree(stale, ignore_errors=True)
        generate(path, profile=profile, seed=SEED, progress=progress)
    return path


def default_org_file(progress: bool = True, profile: str | None = None) -> Path:
    """The cached org of ``profile`` as an org file (loaded and search-indexed), built from the dataset if missing or stale."""
    profile = profile or PROFILE
    dataset_dir = default_dataset_dir(progress, profile)
    path = dataset_dir.with_name(dataset_dir.name + ".duckdb")
    stamp = dataset_dir.with_name(dataset_dir.name + ".duckdb.source")
    schema = load_schema(Dataset(dataset_dir).schema_profile)
    source = (
        Dataset(dataset_dir).manifest.get("generator_fingerprint", "")
        + ":"
        + str(schema_version(schema, Dataset(dataset_dir).objects))
        # every object's table must be in the file, not only the dataset's: a schema that gained
        # an object (PermissionSet ...) rebuilds the org file
        + ":"
        + str(schema_version(schema, schema.names))
        + f":layout{LAYOUT}"  # what the file holds beside the tables (its indexes)
    )
    if path.is_file() and stamp.is_file() and stamp.read_text(encoding="utf-8") == source:
        return path
    with _exclusive(dataset_dir.parent / ".lock"):
        if path.is_file() and stamp.is_file() and stamp.read_text(encoding="utf-8") == source:
            return path
        staging = path.with_name(f".{path.name}.{os.getpid()}")
        staging.unlink(missing_ok=True)
        try:
            org = load_dataset(
                dataset_dir, new_org_for(dataset_dir, staging), progress=progress
            )  # and indexes it
            org.close()
            os.replace(staging, path)
            stamp.write_text(source, encoding="utf-8")
        finally:
            staging.unlink(missing_ok=True)
            staging.with_name(staging.name + ".wal").unlink(missing_ok=True)
    return path


def crmarena_org(*, progress: bool = True, profile: str | None = None) -> Org:
    """A private copy of the default CRMArena org, or of the cached org of another ``profile``
    (``b2b``, ``b2c``: CRMArena-Pro's), built and cached on first use."""
    profile = profile or PROFILE
    with _template_lock:
        template = _templates.get(profile)
        if template is None:
            from crmarena_sf.emulator.sosl import ensure_index

            template = Org.open(default_org_file(progress, profile), read_only=True)
            ensure_index(template)  # checks the stored index once; forks inherit it
            _templates[profile] = template
        return template.fork()


def named_org(name: str, *, progress: bool = True) -> Org:
    """A private copy of the org ``name`` names (a key of :data:`NAMED_ORGS`)."""
    return crmarena_org(progress=progress, profile=NAMED_ORGS[name])


def _is_current(path: Path, profile: str) -> bool:
    try:
        dataset = Dataset(path)
    except DatasetError:
        return False
    manifest = dataset.manifest
    _, version, fingerprint = _generator(profile)
    return (
        manifest.get("schema_version") == schema_version(load_schema(dataset.schema_profile), dataset.objects)
        and manifest.get("generator_version") == version
        and manifest.get("generator_fingerprint") == fingerprint
    )


@contextlib.contextmanager
def _exclusive(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive file lock (so two processes do not generate the same dataset at once)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no cross-process lock, generation stays atomic
        yield
        return
    with open(lock_path, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
