"""Plans cached per query text, so a repeated query skips parsing, binding and translation.

Binding depends only on the schema, so bound queries (and the errors of bad queries) are
cached by ``(schema, text)``. A compiled plan also depends on what date literals and
fiscal functions mean today for this org, queryAll, the API version and the org's tables:
its key is the text and the :class:`~crmarena_sf.emulator.soql.translate.PlanOptions` it is
compiled with. Both caches
are process-wide, bounded, thread-safe and shared by every org with the same schema
(forks included), since none of them holds org data.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace
from typing import TYPE_CHECKING

from crmarena_sf.emulator.soql.binder import BoundQuery, bind
from crmarena_sf.emulator.soql.dates import fiscal_year_start_month, today
from crmarena_sf.emulator.soql.errors import SoqlError, malformed, too_complicated
from crmarena_sf.emulator.soql.functions import CompileContext
from crmarena_sf.emulator.soql.json_records import worth_writing_json
from crmarena_sf.emulator.soql.parser import parse, parse_selection
from crmarena_sf.emulator.soql.selection import RecordSelection
from crmarena_sf.emulator.soql.translate import PlanOptions, QueryPlan, compile_plan
from crmarena_sf.emulator.store.indexes import indexed_columns
from crmarena_sf.emulator.store.recycle_bin import tables_without_deleted

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

MAX_BOUND = 1024
MAX_PLANS = 4096
"""A Pro suite's build and reference run send about 2,900 distinct query texts, twice: the run finds
the build's plans. A plan holds about 11 KB (at most about 45 MB for all), a bound query about
16 KB; only compiling reads bound queries, so fewer of them are kept."""
MAX_QUERY_LENGTH = 100_000
"""SOQL statements are limited to 100,000 characters (Salesforce Developer Limits, "SOQL and SOSL Limits
for Search Queries"); a longer one is ``MALFORMED_QUERY: SOQL statements can not be longer than 100000
characters`` (the payload quoted in django-salesforce/django-salesforce#164)."""


class _LRU:
    """A small thread-safe least-recently-used mapping."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def get_or_compute(self, key, compute):
        """The value for ``key``, computed once; a SoqlError is cached too (bad queries stay cheap) and re-raised."""
        cached = self.get(key)
        if cached is None:
            try:
                cached = compute()
            except SoqlError as exc:
                cached = exc
            except RecursionError:
                cached = too_complicated()
            self.put(key, cached)
        if isinstance(cached, SoqlError):
            raise SoqlError(cached.error_code, cached.message, cached.offset)
        return cached


_bound = _LRU(MAX_BOUND)
_plans = _LRU(MAX_PLANS)


def clear_caches() -> None:
    """Forget every cached bound query and plan (tests; metadata changes)."""
    _bound.clear()
    _plans.clear()


def bound_query(schema, text: str | RecordSelection) -> BoundQuery:
    """The bound query for ``text``, or for a query given by parts (cached, errors included); raises SoqlError."""
    key = (schema, text)  # the schema itself, not id(): a dead schema's id can be reused
    return _bound.get_or_compute(key, lambda: bind(_parsed(text), schema))


def _parsed(text: str | RecordSelection):
    if isinstance(text, RecordSelection):
        return parse_selection(text)
    return parse(_bounded(text))


def _bounded(text: str) -> str:
    if len(text) > MAX_QUERY_LENGTH:
        raise malformed(f"SOQL statements can not be longer than {MAX_QUERY_LENGTH} characters")
    return text


def context(org: Org) -> CompileContext:
    """What this org's date literals and fiscal functions mean right now."""
    return CompileContext(today(org), org.timezone, fiscal_year_start_month(org), org.user_id)


OPTIONS_KEY = "soql.plan_options"


def plan_options(
    org: Org, include_deleted: bool, api_version: str, restrict_ids: bool = False
) -> PlanOptions:
    """The :class:`PlanOptions` ``org``'s queries compile with now (one object while nothing they depend on changes).

    Asking the org's tables, indexes and recycle bin costs more than finding a cached plan; the
    options are kept per org and made again only when the org's day, time zone, schema or
    tables (a fork's copy-on-write, new indexes) changed, so a repeated query's key is the
    same object and hashes at once.
    """
    day = today(org)
    stamp = (org.schema, day, org.timezone, org.layout_version, org.index_generation)
    memo = org.cache.get(OPTIONS_KEY)
    if memo is None:
        memo = org.cache[OPTIONS_KEY] = {}
    key = (include_deleted, api_version, restrict_ids)
    known = memo.get(key)
    if known is not None and known[0] == stamp:
        return known[1]
    options = PlanOptions(
        org.schema,
        CompileContext(day, org.timezone, fiscal_year_start_month(org), org.user_id),
        api_version,
        include_deleted,
        restrict_ids,
        org.read_through,
        indexed_columns(org),
        frozenset() if include_deleted else tables_without_deleted(org),
    )
    memo[key] = (stamp, options)
    return options


def plan_for(
    org: Org, text: str | RecordSelection, include_deleted: bool, api_version: str, restrict_ids: bool = False
) -> QueryPlan:
    """The compiled plan of ``text`` (or of a query given by parts) for ``org`` now (cached); raises SoqlError."""
    options = plan_options(org, include_deleted, api_version, restrict_ids)

    def compile_now() -> QueryPlan:
        bound = bound_query(org.schema, text)
        json_records = worth_writing_json(bound, lambda: table_rows(org, bound.obj.name))
        return compile_plan(bound, replace(options, json_records=json_records))

    return _plans.get_or_compute((text, options), compile_now)


TABLE_ROWS_KEY = "soql.table_rows"
_UNKNOWN = object()


def table_rows(org: Org, name: str) -> int | None:
    """DuckDB's estimate of the rows of the table ``org`` reads (its own statistics: no scan), None if it has none.

    The table is the org's own or, for a fork, the one it reads through (``Org.read_through``);
    other orgs' tables of the same name (forks share one DuckDB database) do not count. Asked
    once per table and org, then again after a write to the table: the catalog query costs
    more than compiling most queries, and the estimate only picks how a plan's first run
    builds its records (every later run follows the row count the one before saw).
    """
    known = org.cache.get(TABLE_ROWS_KEY)
    estimate = known.get(name, _UNKNOWN) if known is not None else _UNKNOWN
    if estimate is not _UNKNOWN:
        return estimate
    with org.lock:
        row = org.con.execute(
            "SELECT max(estimated_size) FROM duckdb_tables() "
            "WHERE database_name = ? AND schema_name = 'main' AND table_name = ?",
            [dict(org.read_through).get(name, org.catalog), name],
        ).fetchone()
        if _forget_table_rows not in org.listeners:
            org.listeners.append(_forget_table_rows)
    estimate = int(row[0]) if row and row[0] is not None else None
    org.cache.setdefault(TABLE_ROWS_KEY, {})[name] = estimate
    return estimate


def _forget_table_rows(org: Org, object_name: str, record_ids: list[str], kind: str) -> None:
    """Change listener: a write (or a bulk load) makes the table's estimate stale."""
    known = org.cache.get(TABLE_ROWS_KEY)
    if known is not None:
        known.pop(object_name, None)
