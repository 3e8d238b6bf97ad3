"""What the generation steps share: the seed, the sizes, the dataset being written and the plan so far."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crmarena_sf.emulator import ids
from crmarena_sf.loaders.dataset import DatasetError, DatasetWriter
from crmarena_sf.loaders.generate.rng import stream
from crmarena_sf.loaders.profiles import Sizing
from crmarena_sf.metadata.model import Schema

from crmarena_sf.progress import progress_bar

EPOCH = dt.datetime(1970, 1, 1)
ADMIN_USER_N = 1
"""Record number of the new org's admin user (``Org.user_id``); agents count from 2."""
STANDARD_PRICEBOOK_N = 1
"""Record number of the new org's standard price book (``seed.STANDARD_PRICEBOOK_ID``)."""


def secs(value: dt.datetime) -> int:
    """Whole seconds since 1970 (UTC) of a naive UTC datetime: how timestamps are staged."""
    return int((value - EPOCH).total_seconds())


def from_secs(value: int) -> dt.datetime:
    return EPOCH + dt.timedelta(seconds=value)


@dataclass
class Context:
    """Shared state of one generation run; each step reads what earlier steps planned."""

    seed: int
    sizing: Sizing
    writer: DatasetWriter
    schema: Schema
    truth: dict[str, Any] = field(default_factory=dict)
    plan: dict[str, Any] = field(default_factory=dict)
    """Objects planned by one step for later ones (agents, customers, catalog, cases ...)."""

    def rng(self, name: str) -> random.Random:
        """The random stream of one concern (see :func:`crmarena_sf.loaders.generate.rng.stream`)."""
        return stream(self.seed, name)

    def prefix(self, object_name: str) -> str:
        """The key prefix of ``object_name`` in the org's schema."""
        obj = self.schema.get(object_name)
        if obj is None or not obj.keyPrefix:
            raise KeyError(f"the schema has no key prefix for {object_name}")
        return obj.keyPrefix

    def record_id(self, object_name: str, n: int) -> str:
        """The Id of record number ``n`` of ``object_name`` (what SQL ``sfid`` computes)."""
        return ids.make_id(self.prefix(object_name), n)

    def count(self, object_name: str) -> int:
        """How many records of ``object_name`` this run generates."""
        return self.sizing.generated(object_name)

    def stage(self, table: str, columns: dict[str, tuple[str, list]]) -> None:
        self.writer.stage(table, columns)

    def write(self, object_name: str, select_sql: str, params: list | None = None) -> None:
        """Write ``object_name`` from ``select_sql`` (in the background) unless the schema lacks the object."""
        if not self.writer.has_object(object_name):
            self.writer.skipped_objects.append(object_name)
            return
        self.writer.write_object(object_name, select_sql, params, background=True)

    def sql_id(self, object_name: str, column: str) -> str:
        """SQL computing the Id of ``object_name`` from a record-number column."""
        return f"sfid('{self.prefix(object_name)}', {column})"


def run_steps(
    out: str | Path,
    schema: Schema,
    steps: list[tuple[str, Callable[[Context], None]]],
    make_context: Callable[[DatasetWriter], Context],
    manifest: Callable[[Context], dict[str, Any]],
    *,
    title: str,
    on_disk: bool,
    progress: bool,
) -> Path:
    """Run generation ``steps`` into a new dataset at ``out``: validated strictly against ``schema``
    before the directory appears (DatasetError, and nothing left behind, when it does not fit)."""
    from crmarena_sf.loaders.validate import validate_files

    with (
        DatasetWriter(out, schema, on_disk=on_disk) as writer,
        progress_bar(len(steps) + 2, title, enabled=progress) as bar,
    ):
        ctx = make_context(writer)
        for name, step in steps:
            bar.set_postfix_str(name)
            step(ctx)
            bar.update(1)
        bar.set_postfix_str("validating")
        problems = validate_files(writer.files(), schema, strict=True)
        if problems:
            raise DatasetError(
                "the generated data does not fit the metadata:\n  " + "\n  ".join(problems[:20])
            )
        bar.update(1)
        path = writer.commit(manifest(ctx))
        bar.update(1)
    return path


def audit_sql(created: str, modified: str | None = None, owner: bool = False) -> str:
    """The audit columns of a staged row: created/modified timestamps (SQL) by the admin user.

    Checkbox fields left out of a SELECT (``IsDeleted`` ...) get their default when written.
    """
    modified = modified or created
    admin = ids.make_id("005", ADMIN_USER_N)
    parts = [
        f'{created} AS "CreatedDate"',
        f"'{admin}' AS \"CreatedById\"",
        f'{modified} AS "LastModifiedDate"',
        f"'{admin}' AS \"LastModifiedById\"",
        f'{modified} AS "SystemModstamp"',
    ]
    if owner:
        parts.append(f"'{admin}' AS \"OwnerId\"")
    return ", ".join(parts)


def ts(column: str) -> str:
    """SQL turning a staged seconds-since-1970 column into a TIMESTAMP."""
    return f"make_timestamp(({column})::BIGINT * 1000000)"


def autonumber(column: str, digits: int) -> str:
    """SQL formatting an auto-number the way the org store numbers them (zero-padded)."""
    return f"lpad(({column})::VARCHAR, {digits}, '0')"
