"""Indexes where Salesforce keeps a lookup flat: the Id and every relationship field of a large table.

Salesforce indexes the record Id and every lookup and master-detail field, so a query
filtering on them costs the same in a small org and a large one (SOQL and SOSL Reference,
"Working with Very Large SOQL Queries",
https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_soql_select_indexes.htm ).
DuckDB scans a table unless an ART index answers the filter, and its block statistics skip
nothing for Ids (every Id of an object shares a prefix longer than the 8 bytes DuckDB keeps).
So a table of :data:`INDEX_MIN_ROWS` rows or more gets one ART index per such column when it
is bulk loaded (:func:`ensure_indexes`), and keeps them when a fork copies it to write
(:func:`copy_indexes`; the search index's large token tables keep theirs the same way).
Smaller tables go without: scanning them costs about what an index lookup does, and an index
would be paid for at every copy-on-write. A table that grows past the threshold through
record writes is not indexed until it is loaded or copied again (it stays correct, only slower).

Case-insensitive text (Name, Email, external ids) is compared lowercased, which a plain
index cannot answer; those filters scan. DuckDB uses an index only for a table scan whose
one filter is equality or IN with constants, so the SOQL translator fences such a condition
into a subquery of its own (:mod:`emulator.soql.seek`), and asks :func:`indexed_columns`
which columns have one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from emulator.store.ddl import quote
from emulator.store.files import sql_string

if TYPE_CHECKING:
    from emulator.store.org import Org
    from metadata.model import SObject

INDEX_MIN_ROWS = 20_000
"""Tables with at least this many rows are indexed."""

LAYOUT = 3
"""What an org file built by this code holds beyond its tables: 3 = large tables carry these
indexes, and the search index's large token tables one on ``token``. Caches of built org files
(the default org, the benchmark's scaled org) key on it, so a file built before is rebuilt."""

INDEX_PREFIX = "_sf_idx_"
_CACHE_KEY = "store.indexed"


def index_columns(obj: SObject) -> list[str]:
    """The columns of ``obj`` Salesforce indexes that a plain index can serve: Id and reference fields."""
    return [f.name for f in obj.stored_fields if f.type in ("id", "reference")]


def index_name(table: str, column: str) -> str:
    return f"{INDEX_PREFIX}{table}_{column}"


def create_indexes(org: Org, table: str, rows: int | None = None) -> bool:
    """Index ``table`` (in ``org``'s own catalog) when it has :data:`INDEX_MIN_ROWS` rows; True if it did.

    Runs on the caller's transaction when one is open.
    """
    obj = org.schema.get(table)
    if obj is None:
        return False
    if rows is None:
        rows = org.con.execute(f"SELECT count(*) FROM {quote(org.catalog)}.main.{quote(table)}").fetchone()[0]
    if rows < INDEX_MIN_ROWS:
        return False
    for column in index_columns(obj):
        org.con.execute(
            f"CREATE INDEX IF NOT EXISTS {quote(index_name(table, column))} "
            f"ON {quote(org.catalog)}.main.{quote(table)} ({quote(column)})"
        )
    org.index_generation += 1
    return True


def copy_indexes(org: Org, table: str, source_catalog: str) -> None:
    """Give ``org``'s new copy of ``table`` the indexes the copied table had in ``source_catalog``."""
    rows = org.con.execute(
        "SELECT index_name, expressions FROM duckdb_indexes() "
        f"WHERE database_name = ? AND table_name = ? AND index_name LIKE {sql_string(INDEX_PREFIX + '%')}",
        [source_catalog, table],
    ).fetchall()
    for name, expressions in rows:
        column = str(expressions).strip("[]").strip('"')
        org.con.execute(
            f"CREATE INDEX IF NOT EXISTS {quote(name)} ON {quote(org.catalog)}.main.{quote(table)} ({quote(column)})"
        )
    if rows:
        org.index_generation += 1


def ensure_indexes(org: Org) -> None:
    """Index every large table ``org`` holds itself (after a bulk load; tables it reads through are its parent's)."""
    own = set(org.own_tables())
    with org.transaction():
        for obj in org.schema:
            if obj.name in own:
                create_indexes(org, obj.name)


def indexed_columns(org: Org) -> frozenset[tuple[str, str]]:
    """``(table, column)`` for each single-column index on the tables ``org`` reads (its own or a parent's)."""
    key = (org.layout_version, org.index_generation)
    cached = org.cache.get(_CACHE_KEY)
    if cached is not None and cached[0] == key:
        return cached[1]
    catalogs = {table: catalog for table, catalog in org.read_through}
    with org.lock:
        rows = org.con.execute(
            "SELECT database_name, table_name, expressions FROM duckdb_indexes() "
            f"WHERE index_name LIKE {sql_string(INDEX_PREFIX + '%')}"
        ).fetchall()
    found = set()
    for database, table, expressions in rows:
        if database == catalogs.get(table, org.catalog):
            found.add((table, str(expressions).strip("[]").strip('"')))
    value = frozenset(found)
    org.cache[_CACHE_KEY] = (key, value)
    return value


def inherit_indexed(parent: Org, child: Org) -> None:
    """A new fork indexes what its parent does (it reads the parent's tables): no need to ask DuckDB."""
    child.cache[_CACHE_KEY] = ((child.layout_version, child.index_generation), indexed_columns(parent))
