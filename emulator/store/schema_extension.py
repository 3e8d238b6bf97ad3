"""An org with data grows the tables of a wider schema: how ``describes=`` reaches an existing org.

A brand-new org is simply created with the wider schema (:meth:`Org.new`'s
``extra_describe_dirs``). An org that already holds records (the CRMArena org, an org file,
a dataset, an ``Org`` object) gets, by :func:`extend_org`, what a real org shows once new
objects and fields are deployed to it (Metadata API Developer Guide, "CustomObject" and
"CustomField"): a table for each object it had none for, empty; a column for each stored
field a table lacks, empty on every existing record; a RecordType row for each record type
it lacks. Nothing is ever dropped or changed, so extending twice with the same documents is
a no-op. In a fork, a table that gains a column is first copied out of the parent
(copy-on-write), so the parent and its other forks never see the change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from emulator.store.ddl import column_type, create_table_sql, quote

if TYPE_CHECKING:
    from emulator.store.org import Org
    from metadata.model import Schema

_CACHES_OF_THE_OLD_SCHEMA = ("rest.describe", "sosl.index")
"""Per-org caches built from the schema: serialised describes, and which objects the search index holds."""


def extend_org(org: Org, schema: Schema) -> None:
    """Give ``org`` the tables, columns and record types of ``schema`` (a superset of its own) and switch to it."""
    from emulator.store.seed import add_record_types

    if schema is org.schema:
        return
    with org.lock, org.transaction():
        for obj in schema:
            # The org's tables are its schema's, so only what the schemas differ by needs the catalog.
            before = org.schema.get(obj.name)
            if before is None:
                org.con.execute(create_table_sql(obj))
                continue
            had = {f.name.lower() for f in before.stored_fields}
            missing = [f for f in obj.stored_fields if f.name.lower() not in had]
            if missing:
                org.before_write(obj.name)
                for f in missing:
                    org.con.execute(
                        f"ALTER TABLE {quote(obj.name)} ADD COLUMN {quote(f.name)} {column_type(f)}"
                    )
        add_record_types(org, list(schema))
    org.schema = schema  # once the tables are there for good (a failed transaction leaves the old schema)
    for key in _CACHES_OF_THE_OLD_SCHEMA:
        org.cache.pop(key, None)
    _index_new_objects(org)


def ensure_tables(org: Org) -> None:
    """Give ``org`` an empty table for every object of its schema it has none for.

    An org file written before the schema gained objects (the standard sales objects, say)
    still opens: the objects are there, empty, as in a real org that gains a feature.
    """
    held = {name.lower() for name in org.table_names()}
    missing = [obj for obj in org.schema if obj.name.lower() not in held]
    if not missing:
        return
    with org.lock, org.transaction():
        for obj in missing:
            org.con.execute(create_table_sql(obj))


def remember_describe_dirs(org: Org, dirs: tuple[str, ...]) -> None:
    """Record ``dirs`` in the org's settings, where :meth:`Org.open` finds the describes an org was made with."""
    import json

    from emulator.store.org import META_TABLE

    with org.lock, org.transaction():
        row = org.con.execute(f"SELECT value FROM {META_TABLE} WHERE key = 'extra_describe_dirs'").fetchone()
        known = json.loads(row[0]) if row else []
        wanted = [*known, *[d for d in dirs if d not in known]]
        if wanted == known:
            return
        org.before_write(META_TABLE)
        org.con.execute(f"DELETE FROM {META_TABLE} WHERE key = 'extra_describe_dirs'")
        org.con.execute(f"INSERT INTO {META_TABLE} VALUES ('extra_describe_dirs', ?)", [json.dumps(wanted)])


def _index_new_objects(org: Org) -> None:
    """An org already indexed for search indexes the new objects now (they are empty: nothing to read)."""
    from emulator.sosl import ensure_index, index

    if index.META_TABLE in org.table_names():
        ensure_index(org)
