"""Which tables hold no deleted records, so a query can leave out the recycle-bin condition.

Every query that is not a queryAll keeps only live records (``NOT IsDeleted``), a condition
that costs about a tenth of a small query. A table a fork reads through from an org file
attached read-only can never change, so whether it holds a deleted record is asked once per
file and table; such a table without one needs no condition. Every other table (an org's
own, a fork's copy it wrote, an in-memory template's) keeps it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crmarena_sf.emulator.store.ddl import quote

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

_OWN_KEY = "store.no_deleted_own"
_KEY = "store.no_deleted"


def tables_without_deleted(org: Org) -> frozenset[str]:
    """The tables ``org`` reads through from a read-only org file and that hold no deleted record."""
    cached = org.cache.get(_KEY)
    if cached is not None and cached[0] == org.layout_version:
        return cached[1]
    value = frozenset(
        table
        for table, owner in org.read_through_owners()
        if owner.read_only and table in _clean_own(owner, org)
    )
    org.cache[_KEY] = (org.layout_version, value)
    return value


def _clean_own(owner: Org, reader: Org) -> frozenset[str]:
    """The tables of a read-only org file without a deleted record (asked once: the file cannot change).

    Asked on ``reader``'s cursor under ``reader``'s lock, never on the owner's: the owner is
    the template every episode forks, and other threads run statements on its cursor under its
    lock. A fork shares its ancestors' DuckDB database, so it reads their tables by qualified
    name; taking only its own lock also keeps locks in one order (an org before its forks).
    """
    found = owner.cache.get(_OWN_KEY)
    if found is not None:
        return found
    catalog = quote(owner.catalog)
    with reader.lock:
        present = {
            row[0]
            for row in reader.con.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_catalog = ? AND table_schema = 'main'",
                [owner.catalog],
            ).fetchall()
        }
        tables = [
            obj.name for obj in owner.schema if obj.field("IsDeleted") is not None and obj.name in present
        ]
        rows = []
        if tables:
            rows = reader.con.execute(
                " UNION ALL ".join(
                    f'SELECT {i}, bool_or(coalesce("IsDeleted", false)) FROM {catalog}.main.{quote(name)}'
                    for i, name in enumerate(tables)
                )
            ).fetchall()
    found = frozenset(tables[i] for i, any_deleted in rows if not any_deleted)
    owner.cache[_OWN_KEY] = found  # a race computes it twice, alike: the file cannot change
    return found
