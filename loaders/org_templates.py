"""Org files and dataset directories as per-process templates: every caller gets its own fork.

``connect(org="crm.duckdb")`` and ``connect(org="ds/")`` behave like the default org
(:mod:`crmarena_sf.loaders.default_org`): each call returns a private copy-on-write fork, so one
connection's writes reach neither another connection nor the file, and a second call costs
milliseconds. Per process and path one template is kept:

- an org file is attached read-only (any number of processes may at once, including while a
  ``crmarena-sf serve`` reads it), under an in-memory fork layer that holds a search index
  when the file has none or an outdated one, so searching never writes the file;
- a dataset directory is loaded once into an in-memory org and indexed.

A template is remade when its source changes (another file at the path, a regenerated
dataset); forks of the old one keep working.

Writing into an org file is the explicit :func:`open_writable` (``connect(org=path,
writable=True)``). DuckDB cannot attach one file for writing and for reading in the same
process, so while this process holds the writable org of a path, read-only callers get forks
of that org instead of a template, and a writable open is refused while read-only forks of
the path's template are still open.
"""

from __future__ import annotations

import gc
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path

from crmarena_sf.emulator.store.files import FileInUse
from crmarena_sf.emulator.store.org import Org
from crmarena_sf.emulator.store.schema_extension import ensure_tables

from crmarena_sf.progress import progress_factory

INDEX_PROGRESS_DELAY = 0.5
"""Seconds an index build runs before its progress bar appears (a small org's build stays quiet)."""


@dataclass
class _Template:
    source: tuple[int, ...] | None
    """What the template was made from (file identity, size and time), to notice a changed source."""
    org: Org
    """The org every caller gets a fork of."""
    attached: Org | None = None
    """An org file's read-only attachment under :attr:`org` (None for a dataset)."""


_lock = threading.Lock()
_templates: dict[Path, _Template] = {}
_writable: weakref.WeakValueDictionary[Path, Org] = weakref.WeakValueDictionary()


def org_file_fork(path: str | Path, *, progress: bool = True) -> Org:
    """A private fork of the org file at ``path`` (its template attached read-only on first use).

    Raises :class:`~crmarena_sf.emulator.store.files.FileInUse` when another process is writing the file
    and :class:`~crmarena_sf.emulator.store.files.NotAnOrgFile` when it is not an org file.
    """
    key = Path(path).resolve()
    with _lock:
        writable = _writable.get(key)
        if writable is not None and not writable.closed:
            return writable.fork()
        source = _signature(key)
        entry = _templates.get(key)
        if entry is None or entry.source != source:
            attached = Org.open(key, read_only=True)
            template = attached.fork()  # where an index the file lacks is built: memory, never the file
            ensure_tables(template)  # objects the schema gained since the file was written
            _ensure_index(template, f"indexing {key.name} for search (in memory)", progress)
            entry = _templates[key] = _Template(source, template, attached)
        return entry.org.fork()


def dataset_fork(path: str | Path, *, progress: bool = True) -> Org:
    """A private fork of the dataset directory at ``path`` (loaded and indexed once per process).

    Raises :class:`crmarena_sf.loaders.dataset.DatasetError` when the dataset cannot be loaded.
    """
    from crmarena_sf.loaders.load import load_dataset

    key = Path(path).resolve()
    with _lock:
        source = _signature(key / "manifest.json")
        entry = _templates.get(key)
        if entry is None or entry.source != source:
            template = load_dataset(key)
            _ensure_index(template, f"indexing {key.name} for search", progress)
            entry = _templates[key] = _Template(source, template)
        return entry.org.fork()


def open_writable(path: str | Path, *, progress: bool = True) -> Org:
    """The org file at ``path`` opened for writing: writes go into the file (one such org per process and path).

    Its search index is brought up to date first and then kept current by every write, so
    readers of the file never need to build one. Raises
    :class:`~crmarena_sf.emulator.store.files.FileInUse` when another process has the file open, or when
    read-only forks of it made in this process are still open.
    """
    key = Path(path).resolve()
    with _lock:
        current = _writable.get(key)
        if current is not None and not current.closed:
            return current
        entry = _templates.get(key)
        if entry is not None:
            _retire(key, entry)
        org = Org.open(key)
        ensure_tables(org)
        _ensure_index(org, f"indexing {key.name} for search", progress)
        _writable[key] = org
        return org


def _retire(key: Path, entry: _Template) -> None:
    """Close a file's read-only template so the file can be opened for writing, if no fork still reads it."""
    gc.collect()  # forks their callers dropped (a client and its org refer to each other)
    readers = len(entry.org.open_forks())
    if readers:
        raise FileInUse(
            key,
            f"this process ({readers} read-only connection{'s' if readers > 1 else ''} made by connect() "
            "still open)",
            "close them before opening it with writable=True, or open it writable first",
        )
    entry.org.close()
    if entry.attached is not None:
        entry.attached.close()
    del _templates[key]


def _ensure_index(org: Org, description: str, progress: bool) -> None:
    from crmarena_sf.emulator.sosl import ensure_index

    ensure_index(org, progress_factory(description, enabled=progress, delay=INDEX_PROGRESS_DELAY))


def _signature(path: Path) -> tuple[int, ...] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)
