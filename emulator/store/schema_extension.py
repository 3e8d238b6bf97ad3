"""An org with data grows the tables of a wider schema: how ``describes=`` reaches an existing org.

A brand-new org is simply created with the wider schema (:meth:`Org.new`'s
``extra_describe_dirs``). An org that already holds records (the CRMArena org, an org file,
a dataset, an ``Org`` object) gets, by :func:`extend_org`, what a real org shows once new
objects and fields are deployed to it (Metadata API Developer Guide, "CustomObject" and
"CustomField"): a table for each object it had none for, empty; a column for each stored
field a table lacks, empty on every existing record; a RecordType row for each record type
it lacks; the changed describe documents are kept in the org's settings, as a Metadata API
change is (:mod:`crmarena_sf.emulator.store.schema_changes`, which adds one object or field at a time).
Nothing is ever dropped or changed, so extending twice with the same documents is a no-op. In a fork, a table that gains a column is first copied out of the parent
(copy-on-write), so the parent and its other forks never see the change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crmarena_sf.emulator.store.ddl import column_type, create_table_sql, quote
from crmarena_sf.emulator.store.events import SCHEMA_GROWN
from crmarena_sf.emulator.store.settings import save_documents

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org
    from crmarena_sf.metadata.model import Schema

_CACHES_OF_THE_OLD_SCHEMA = ("rest.describe", "sosl.index")
"""Per-org caches built from the schema: serialised describes, and which objects the search index holds."""


def extend_org(org: Org, schema: Schema, changed: frozenset[str] | set[str]) -> None:
    """Give ``org`` the tables, columns and record types of ``schema`` (a superset of its own) and switch to it.

    ``changed`` names the objects whose documents differ from the org's: they are kept in the
    org's settings the way :mod:`crmarena_sf.emulator.store.schema_changes` keeps a Metadata API change, so an
    org file (or a fork saved to one) opens with them again.
    """
    from crmarena_sf.emulator.store.seed import add_record_types

    if schema is org.schema:
        return
    added: list[str] = []
    with org.lock, org.transaction():
        for obj in schema:
            # The org's tables are its schema's, so only what the schemas differ by needs the catalog.
            before = org.schema.get(obj.name)
            if before is None:
                org.con.execute(create_table_sql(obj))
                added.append(obj.name)
                continue
            had = {f.name.lower() for f in before.stored_fields}
            missing = [f for f in obj.stored_fields if f.name.lower() not in had]
            if missing:
                org.before_write(obj.name)
                for f in missing:
                    org.con.execute(
                        f"ALTER TABLE {quote(obj.name)} ADD COLUMN {quote(f.name)} {column_type(f)}"
                    )
        add_record_types(org, [schema.get(name) for name in sorted(changed)])
        save_documents(org, {name: schema.get(name).model_dump() for name in changed})
    org.schema = schema  # once the tables are there for good (a failed transaction leaves the old schema)
    for key in _CACHES_OF_THE_OLD_SCHEMA:
        org.cache.pop(key, None)
    # New objects join an existing search index. Objects that only gained columns are not announced:
    # the columns are empty on every record, and rebuilding their index for nothing would cost a fork
    # of the CRMArena org a fifth of a second per connect.
    for name in added:
        org.notify(name, [], SCHEMA_GROWN)


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
