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

Name, and the text fields a record is looked up by (external ids, idLookup fields such as
Email or CaseNumber), are compared ignoring case: their index is on ``lower(<column>)``,
the expression SOQL's equality compares. Audit dates are not indexed (a date range matches
too many rows for DuckDB to read them through an index). DuckDB uses an index only for a
table scan whose one filter is equality or IN with constants, so the SOQL translator fences such a condition
into a subquery of its own (:mod:`crmarena_sf.emulator.soql.seek`), and asks :func:`indexed_columns`
which columns have one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.emulator.store.files import sql_string

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org
    from crmarena_sf.metadata.model import SObject

INDEX_MIN_ROWS = 20_000
"""Tables with at least this many rows are indexed."""

LAYOUT = 7
"""What an org file built by this code holds beyond its tables' data: 4 = large tables carry these
indexes, and the search index's large token tables one on ``token``; 5 = number columns keep the
decimals the API sends (:func:`~crmarena_sf.emulator.store.ddl.column_type`); 6 = a small org, or a
large org's small record tables, are stored uncompressed (:mod:`crmarena_sf.emulator.store.files`);
7 = the search index's large objects carry each word's records in ranking order
(:mod:`crmarena_sf.emulator.sosl.ranked_lists`). Caches of built org files (the default org,
the benchmark's scaled org) key on it, so a file built before is rebuilt."""

INDEX_PREFIX = "_sf_idx_"
_CACHE_KEY = "store.indexed"


TEXT_LOOKUP_TYPES = ("string", "email", "phone", "url")


def index_keys(obj: SObject) -> list[str]:
    """What to index on ``obj``: the Id and reference columns as they are, and ``lower(<column>)``
    for Name and the other text fields a record is looked up by (external ids, idLookup and
    unique fields), which SOQL compares ignoring case."""
    keys = [f.name for f in obj.stored_fields if f.type in ("id", "reference")]
    keys += [
        lowered(f.name)
        for f in obj.stored_fields
        if f.type in TEXT_LOOKUP_TYPES and (f.name == "Name" or f.idLookup or f.externalId or f.unique)
    ]
    return keys


def lowered(column: str) -> str:
    """The key of an index on ``lower(column)``."""
    return f"lower({column})"


def _key_sql(key: str) -> str:
    if key.startswith("lower(") and key.endswith(")"):
        return f"lower({quote(key[6:-1])})"
    return quote(key)


def _key_of(expressions: object) -> str:
    """The key an index's ``duckdb_indexes().expressions`` text stands for (``[Id]``, ``['(lower("Name"))']``)."""
    text = str(expressions).strip("[]").strip("'").strip("()")
    if text.startswith("lower("):
        return lowered(text[6:].strip(")").strip('"'))
    return text.strip('"')


def index_name(table: str, key: str) -> str:
    return f"{INDEX_PREFIX}{table}_{key.replace('(', '_').replace(')', '')}"


def create_indexes(org: Org, table: str) -> None:
    """Index ``table`` (in ``org``'s own catalog) when it has :data:`INDEX_MIN_ROWS` rows.

    Runs on the caller's transaction when one is open.
    """
    obj = org.schema.get(table)
    if obj is None:
        return
    rows = org.con.execute(f"SELECT count(*) FROM {quote(org.catalog)}.main.{quote(table)}").fetchone()[0]
    if rows < INDEX_MIN_ROWS:
        return
    for key in index_keys(obj):
        org.con.execute(
            f"CREATE INDEX IF NOT EXISTS {quote(index_name(table, key))} "
            f"ON {quote(org.catalog)}.main.{quote(table)} ({_key_sql(key)})"
        )
    org.index_generation += 1


def copy_indexes(org: Org, table: str, source_catalog: str) -> None:
    """Give ``org``'s new copy of ``table`` the indexes the copied table had in ``source_catalog``."""
    rows = org.con.execute(
        "SELECT index_name, expressions FROM duckdb_indexes() "
        f"WHERE database_name = ? AND table_name = ? AND index_name LIKE {sql_string(INDEX_PREFIX + '%')}",
        [source_catalog, table],
    ).fetchall()
    for name, expressions in rows:
        org.con.execute(
            f"CREATE INDEX IF NOT EXISTS {quote(name)} "
            f"ON {quote(org.catalog)}.main.{quote(table)} ({_key_sql(_key_of(expressions))})"
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
    """``(table, key)`` for each index on the tables ``org`` reads (its own or a parent's); a key is a
    column name, or ``lower(<column>)`` (:func:`lowered`)."""
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
            found.add((table, _key_of(expressions)))
    value = frozenset(found)
    org.cache[_CACHE_KEY] = (key, value)
    return value


def inherit_indexed(parent: Org, child: Org) -> None:
    """A new fork indexes what its parent does (it reads the parent's tables): no need to ask DuckDB."""
    child.cache[_CACHE_KEY] = ((child.layout_version, child.index_generation), indexed_columns(parent))
