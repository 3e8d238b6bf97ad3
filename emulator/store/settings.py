"""The org's settings, kept in a table of its own database so that an org file carries them.

One row per setting in ``_sf_org(key, value)``: the schema profile an org was made with, its
time zone, the extra describe directories it was extended by, and, under ``schema_changes``,
the describe documents of every object changed since it was made (by the Metadata API,
:mod:`crmarena_sf.emulator.store.schema_changes`, or by ``describes=``,
:mod:`crmarena_sf.emulator.store.schema_extension`), so a reopened file has its schema back.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import duckdb
from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.metadata.model import Schema, SObject

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

META_TABLE = "_sf_org"
"""Org settings (schema profile, time zone ...) kept inside the database file."""

SAVED_KEY = "schema_changes"
"""Key of the settings row holding the describe documents of every object changed since creation."""


def write_settings(org: Org, profile: str, timezone: str, extra_describe_dirs: tuple[str, ...]) -> None:
    """The settings table of a new org (inside the caller's transaction)."""
    org.con.execute(f"CREATE TABLE {META_TABLE} (key VARCHAR, value VARCHAR)")
    org.con.executemany(
        f"INSERT INTO {META_TABLE} VALUES (?, ?)",
        [
            ("profile", profile),
            ("timezone", timezone),
            ("extra_describe_dirs", json.dumps(list(extra_describe_dirs))),
        ],
    )


def read_settings(connection: duckdb.DuckDBPyConnection, catalog: str) -> dict[str, str]:
    """Every setting of the org in ``catalog`` (a duckdb.Error when it holds no settings table)."""
    return dict(connection.execute(f"SELECT key, value FROM {quote(catalog)}.main.{META_TABLE}").fetchall())


def saved_schema(schema: Schema, saved: str | None) -> Schema:
    """``schema`` with the describe documents a changed org saved (the settings row's JSON) in place."""
    if not saved:
        return schema
    docs = json.loads(saved)
    kept = [obj for obj in schema if obj.name not in docs]
    # a null document is an object deleted through the Metadata API
    return Schema(kept + [SObject.model_validate(doc) for doc in docs.values() if doc is not None])


def save_documents(org: Org, docs: dict[str, dict | None]) -> None:
    """Merge ``docs`` (complete describe documents, None for a deleted object) into the ones the org keeps
    (inside the caller's transaction)."""
    org.before_write(META_TABLE)
    row = org.con.execute(f"SELECT value FROM {quote(META_TABLE)} WHERE key = ?", [SAVED_KEY]).fetchone()
    saved = json.loads(row[0]) if row else {}
    saved.update(docs)
    org.con.execute(f"DELETE FROM {quote(META_TABLE)} WHERE key = ?", [SAVED_KEY])
    org.con.execute(f"INSERT INTO {quote(META_TABLE)} VALUES (?, ?)", [SAVED_KEY, json.dumps(saved)])
