"""A dataset: one directory, one Parquet file per object (columns named by API name) and ``manifest.json``.

It is the unit everything else consumes: the emulator loads it (:mod:`crmarena_sf.loaders.load`), the
org loader pushes it to a real org. :class:`DatasetWriter` builds one atomically: rows are
staged in a private DuckDB database, each object is written with its columns in describe
order and cast to the org's column types, and the directory appears under its final name
only when complete (a temporary sibling directory renamed at the end). The same inputs
give byte-identical files: fixed row order, no wall-clock value anywhere.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import duckdb
from crmarena_sf.emulator.store.ddl import declared_type, quote
from crmarena_sf.loaders import sqlids
from crmarena_sf.loaders.fill import fill_expression
from crmarena_sf.metadata.model import Schema

MANIFEST = "manifest.json"
STAGING_MEMORY = "512MB"
"""DuckDB memory for staging a dataset; larger orgs spill to disk beside the dataset (bounded memory)."""
FORMAT = "crmarena-sf-dataset"
FORMAT_VERSION = 1


class DatasetError(Exception):
    """A dataset that cannot be written, read or loaded; the message says why and what to do."""


def schema_version(schema: Schema, object_names: list[str]) -> str:
    """A short fingerprint of the metadata a dataset was validated against (its objects' stored fields)."""
    doc = []
    for name in sorted(object_names):
        obj = schema.get(name)
        if obj is None:
            continue
        doc.append(
            [
                obj.name,
                obj.keyPrefix,
                [
                    [
                        f.name,
                        f.type,
                        f.length,
                        f.precision,
                        f.scale,
                        f.nillable,
                        f.referenceTo,
                        f.picklist_values,
                    ]
                    for f in obj.stored_fields
                ],
            ]
        )
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------- writing
class DatasetWriter:
    """Builds a dataset directory; use as a context manager so a failure leaves nothing behind.

    ``stage`` appends batches of raw columns to a staging table; ``write_object`` turns a
    SELECT over staged tables into the object's Parquet file; ``commit`` writes the manifest
    and moves the directory into place.
    """

    def __init__(self, out: str | Path, schema: Schema, *, on_disk: bool = False) -> None:
        self.out = Path(out)
        self.schema = schema
        self.tmp = _temporary_sibling(self.out)
        self.counts: dict[str, int] = {}
        self.skipped_fields: dict[str, list[str]] = {}
        self.skipped_objects: list[str] = []
        self._staged: set[str] = set()
        self._pool: ThreadPoolExecutor | None = None
        self._pending: list[tuple[str, Future]] = []
        staging = str(self.tmp / "_staging.duckdb") if on_disk else ":memory:"
        try:
            self.con = duckdb.connect(staging)
            self.con.execute("SET preserve_insertion_order = true")
            self.con.execute("SET enable_progress_bar = false")
            self.con.execute(f"SET memory_limit = '{STAGING_MEMORY}'")
            self.con.execute(f"SET temp_directory = {_sql_string(str(self.tmp / '_spill'))}")
            sqlids.install(self.con)
        except BaseException:  # Ctrl-C included: the context manager that cleans up never started
            shutil.rmtree(self.tmp, ignore_errors=True)
            raise

    def __enter__(self) -> DatasetWriter:
        return self

    def __exit__(self, exc_type: Any, *exc: object) -> None:
        if exc_type is not None:
            self.abort()

    def has_object(self, object_name: str) -> bool:
        """True when the org's schema has ``object_name`` (objects it lacks are skipped)."""
        return self.schema.get(object_name) is not None

    def stage(self, table: str, columns: dict[str, tuple[str, list]]) -> None:
        """Append a batch to staging table ``table``: ``{column: (duckdb type, values)}``, all equally long."""
        names = list(columns)
        lengths = {len(values) for _, values in columns.values()}
        if len(lengths) > 1:
            raise ValueError(f"staging {table}: columns of different lengths {sorted(lengths)}")
        selects = ", ".join(f"unnest(${i + 1}::{columns[n][0]}[]) AS {quote(n)}" for i, n in enumerate(names))
        params = [columns[n][1] for n in names]
        if table in self._staged:
            self.con.execute(f"INSERT INTO {quote(table)} SELECT {selects}", params)
        else:
            self.con.execute(f"CREATE TABLE {quote(table)} AS SELECT {selects}", params)
            self._staged.add(table)

    def files(self) -> dict[str, Path]:
        """The Parquet file of each object written so far (after the background writes finish)."""
        self.wait()
        return {name: self.tmp / f"{name}.parquet" for name in self.counts}

    def is_staged(self, table: str) -> bool:
        """True once ``table`` has been created by :meth:`stage`."""
        return table in self._staged

    def drop(self, table: str) -> None:
        """Forget a staging table (frees memory once later objects no longer need it)."""
        self.con.execute(f"DROP TABLE IF EXISTS {quote(table)}")
        self._staged.discard(table)

    def write_object(
        self, object_name: str, select_sql: str, params: list | None = None, *, background: bool = False
    ) -> None:
        """Write ``object_name``'s Parquet file from ``select_sql``, rows in its order.

        Result columns the object's describe lacks are dropped (and reported in the manifest);
        the rest are cast to the types their describe declares and written in describe order. With
        ``background`` the file is written by a worker thread while the caller goes on (DuckDB
        works without the GIL); the staged tables the SELECT reads must not change afterwards.
        :meth:`wait` (called by :meth:`files` and :meth:`commit`) collects the results.
        """
        obj = self.schema.get(object_name)
        if obj is None:
            self.skipped_objects.append(object_name)
            return 0
        present = [r[0] for r in self.con.execute(f"DESCRIBE {select_sql}", params or []).fetchall()]
        stored = {f.name for f in obj.stored_fields}
        dropped = sorted(c for c in present if c not in stored)
        if dropped:
            self.skipped_fields[obj.name] = dropped
        columns = []
        for f in obj.stored_fields:
            if f.name in present:
                columns.append(f"CAST(src.{quote(f.name)} AS {declared_type(f)}) AS {quote(f.name)}")
            elif not f.nillable and f.type == "boolean":
                # Checkbox fields always have a value in an org: write the default the org would.
                columns.append(f"CAST({fill_expression(obj, f, set(present))} AS BOOLEAN) AS {quote(f.name)}")
        path = self.tmp / f"{obj.name}.parquet"
        copy = (
            f"COPY (SELECT {', '.join(columns)} FROM ({select_sql}) AS src) TO {_sql_string(str(path))} "
            "(FORMAT parquet, COMPRESSION zstd)"
        )
        if not background:
            self.counts[obj.name] = self.con.execute(copy, params or []).fetchone()[0]
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dataset-writer")
        cursor = self.con.cursor()  # a DuckDB connection is not shared between threads; a cursor is its own
        self._pending.append((obj.name, self._pool.submit(_run_copy, cursor, copy, params or [])))

    def wait(self) -> None:
        """Finish the background writes (re-raising the first failure)."""
        pending, self._pending = self._pending, []
        for name, future in pending:
            self.counts[name] = future.result()

    def commit(self, manifest: dict[str, Any]) -> Path:
        """Write ``manifest.json`` (plus counts and files) and move the directory to its final name."""
        self.wait()
        self._shutdown()
        self.con.close()
        for leftover in ("_staging.duckdb", "_staging.duckdb.wal"):
            with contextlib.suppress(FileNotFoundError):
                (self.tmp / leftover).unlink()
        shutil.rmtree(self.tmp / "_spill", ignore_errors=True)
        doc = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            **manifest,
            "counts": dict(sorted(self.counts.items())),
            "files": {name: f"{name}.parquet" for name in sorted(self.counts)},
            "schema_version": schema_version(self.schema, list(self.counts)),
        }
        if self.skipped_fields:
            doc["fields_not_in_schema"] = self.skipped_fields
        if self.skipped_objects:
            doc["objects_not_in_schema"] = sorted(self.skipped_objects)
        (self.tmp / MANIFEST).write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        if self.out.exists():
            self.abort()
            raise DatasetError(f"{self.out} already exists; choose another directory or remove it first")
        os.replace(self.tmp, self.out)
        return self.out

    def abort(self) -> None:
        """Remove everything written so far."""
        for _, future in self._pending:
            future.cancel()
            with contextlib.suppress(BaseException):
                future.result()
        self._pending = []
        self._shutdown()
        with contextlib.suppress(Exception):
            self.con.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None


def _run_copy(cursor: duckdb.DuckDBPyConnection, copy: str, params: list) -> int:
    try:
        return cursor.execute(copy, params).fetchone()[0]
    finally:
        cursor.close()


def _temporary_sibling(out: Path) -> Path:
    """A fresh directory next to ``out`` (same file system, so the final rename is atomic)."""
    if out.exists():
        raise DatasetError(f"{out} already exists; choose another directory or remove it first")
    parent = out.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = parent / f".{out.name}.tmp-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise DatasetError(f"cannot write a dataset in {parent}: {reason}") from None
    return tmp


# ---------------------------------------------------------------------------- reading
class Dataset:
    """A dataset directory on disk: its manifest and the Parquet file of each object."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        manifest_path = self.path / MANIFEST
        if not self.path.is_dir():
            raise DatasetError(f"no dataset at {self.path} (expected a directory with {MANIFEST})")
        try:
            self.manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise DatasetError(f"{self.path} is not a dataset: it has no {MANIFEST}") from None
        except (OSError, ValueError) as exc:
            raise DatasetError(f"{manifest_path} is unreadable: {exc}") from None
        if not isinstance(self.manifest, dict) or self.manifest.get("format") != FORMAT:
            raise DatasetError(f"{manifest_path} is not a {FORMAT} manifest")
        if self.manifest.get("format_version") != FORMAT_VERSION:
            raise DatasetError(
                f"{self.path} uses dataset format {self.manifest.get('format_version')}; "
                f"this crmarena-sf reads format {FORMAT_VERSION}"
            )
        files = self.manifest.get("files")
        if not isinstance(files, dict):
            raise DatasetError(f"{manifest_path} lists no files")
        self.files: dict[str, Path] = {}
        for name, file_name in files.items():
            path = self.path / file_name
            if not path.is_file() or Path(file_name).name != file_name:
                raise DatasetError(f"{self.path} is incomplete: {file_name} is missing")
            self.files[name] = path

    @property
    def objects(self) -> list[str]:
        """Object names, in the manifest's order."""
        return list(self.files)

    @property
    def schema_profile(self) -> str:
        """The schema profile the dataset's org has (``crmarena`` unless the manifest names another)."""
        return self.manifest.get("schema", "crmarena")

    @property
    def key_prefixes(self) -> dict[str, str]:
        """Custom objects whose key prefix differs from the schema's (an imported org's own), by object."""
        return dict(self.manifest.get("key_prefixes", {}))

    @property
    def latent(self) -> dict[str, Any]:
        """The truth behind the generated data (empty for an imported dump)."""
        return self.manifest.get("latent", {})

    def parquet_sql(self, object_name: str) -> str:
        """``read_parquet('<file>')`` for an object's file, ready to use in a FROM clause."""
        return f"read_parquet({_sql_string(str(self.files[object_name]))})"

    def connect(self) -> duckdb.DuckDBPyConnection:
        """A fresh DuckDB connection with one view per object, named by the object's API name."""
        return connect_files(self.files)


def connect_files(files: dict[str, Path]) -> duckdb.DuckDBPyConnection:
    """A fresh DuckDB connection with a view per object over its Parquet file."""
    con = duckdb.connect(":memory:")
    for name, path in files.items():
        con.execute(f"CREATE VIEW {quote(name)} AS SELECT * FROM read_parquet({_sql_string(str(path))})")
    return con


def _sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
