"""Running a plan on the org and paging its answer the way the REST API does.

REST API Developer Guide, "Query" and "Query Options Header" (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_query.htm):
a query answers ``{totalSize, done, records[, nextRecordsUrl]}`` with at most 2,000
records per batch (``batchSize`` 200..2,000, Salesforce may return fewer); the rest is
read through ``nextRecordsUrl`` (``/services/data/vXX.X/query/<locator>-<position>``)
while the client pages. Aggregate queries cannot be paged (``Aggregate query does not
support queryMore()``). ``SELECT COUNT()`` answers the count in totalSize and no records.

A query's rows are fetched once (totalSize needs them all) and kept as tuples with the
locator; only the batch being returned is shaped, and child subqueries run for that
batch's parents only.

A parent's child list longer than one part comes back as ``{totalSize: n, done: false,
nextRecordsUrl: "/services/data/vXX.X/query/<locator>-<k>", records: [first k]}`` and the rest
is read through that URL like any query locator ("Understanding Query Results",
sforce_api_calls_soql_relationships_query_results.htm: subquery results, like query results,
may need queryMore()). A part holds the SOAP API's default batch of 500 rows, or the smaller
batch size asked for, less the parent's own row: Salesforce does not document the size, and
this is what real orgs were seen to answer (the evidence: docs/modelled-behaviour.md).
"""

from __future__ import annotations

import itertools
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.soql.json_records import MANY_ROWS
from crmarena_sf.emulator.soql.seek import bind_id_list, id_list_placeholders
from crmarena_sf.emulator.soql.shape import bulk_allocation, child_result
from crmarena_sf.emulator.soql.translate import QueryPlan
from crmarena_sf.emulator.wire import encode_json

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

MAX_BATCH = 2000
MIN_BATCH = 200
MAX_AGGREGATE_ROWS = 2000
CHILD_PART = 500
"""Rows of a child list's part, its parent's row included (see the module docstring)."""
LOCATORS_KEY = "soql.locators"
MAX_LOCATORS = 256
"""Open query locators kept per org; the oldest is forgotten first."""

_locator_numbers = itertools.count(1)
_locator_lock = threading.Lock()


@dataclass
class PagedRows:
    """The rows of a query still being paged."""

    plan: QueryPlan
    rows: list[tuple]
    batch_size: int
    api_version: str
    json_rows: bool = False
    """The rows are ``(Id, record JSON)`` pairs DuckDB wrote."""
    shaped: bool = False
    """The rows are records already shaped (the rest of a parent's child list)."""


def batch_size_of(requested: int | None) -> int:
    """The batch size used for a requested one (Salesforce keeps it within 200..2,000)."""
    if requested is None:
        return MAX_BATCH
    return max(MIN_BATCH, min(MAX_BATCH, int(requested)))


MAX_BOUND_IDS = 100
"""Id lists up to this long run as parameters of a statement parsed once per length
(:func:`~crmarena_sf.emulator.soql.seek.id_list_placeholders`: a search's best matches, a small
batch of parents); longer ones are written into the statement's text."""
MAX_ID_LIST_STATEMENTS = 8
"""Lengths of Id list a plan keeps a parsed statement for (a search's LIMIT repeats; batch sizes vary)."""


def _id_list_statement(con, plan: QueryPlan, sql: str, count: int) -> object | None:
    """The parsed statement of ``sql`` (no other parameter) with ``count`` Id markers; None: write the Ids in."""
    if not 0 < count <= MAX_BOUND_IDS:
        return None
    key = (sql, count)
    found = plan.statements.get(key)
    if found is None:
        marked = id_list_placeholders(sql, count)
        if marked is None:
            return None
        found = con.extract_statements(marked)[0]
        if sum(isinstance(k, tuple) for k in plan.statements) < MAX_ID_LIST_STATEMENTS:
            plan.statements[key] = found
    return found


def fetch(org: Org, plan: QueryPlan, params: list[Any] | None = None) -> list[tuple]:
    """All rows of ``plan``'s columns (a DuckDB failure reaches the error boundary as an engine bug)."""
    with org.lock:
        return run(org, plan, plan.sql, params)


def run(org: Org, plan: QueryPlan, sql: str, params: list[Any] | None) -> list[tuple]:
    """The rows of ``sql`` (the plan's :attr:`~QueryPlan.sql` or :attr:`~QueryPlan.json_sql`), on the
    cursor of the thread holding the org's lock (or reading beside it).

    DuckDB parses a statement's text before it plans it, which costs a small query about a
    quarter of its time; a plan runs the statement DuckDB parsed on its first run (a parsed
    statement is not tied to a cursor, and each run binds and plans it anew on the catalog as it
    is then). Only SQL holding a run-time Id list is parsed again, its text being new each time.
    """
    con = org.con
    if plan.id_list and params:
        record_ids, rest = list(params[0]), params[1:]
        statement = None if rest else _id_list_statement(con, plan, sql, len(record_ids))
        if statement is None:
            return con.execute(bind_id_list(sql, record_ids), rest or None).fetchall()
        return con.execute(statement, record_ids).fetchall()
    statement = plan.statements.get(sql)
    if statement is None:
        statement = plan.statements[sql] = con.extract_statements(sql)[0]
    return con.execute(statement, params).fetchall()


def fetch_records(org: Org, plan: QueryPlan, params: list[Any] | None = None) -> tuple[list[tuple], bool]:
    """The rows of a records or aggregate plan, and whether they are ``(Id, record JSON)`` pairs DuckDB
    wrote (an aggregate row's Id is null).

    DuckDB writes the JSON when the plan can and the query is expected to return many rows:
    first as the plan's static guess says, then as its last run showed (DuckDB's JSON functions
    cost a fixed time that only many records repay, see :mod:`crmarena_sf.emulator.soql.json_records`).
    """
    as_json = plan.json_source is not None and plan.expect_many
    with org.lock:
        rows = run(org, plan, plan.json_sql if as_json else plan.sql, params)  # type: ignore[arg-type]
    if plan.json_source is not None:
        plan.expect_many = len(rows) >= MANY_ROWS
    return rows, as_json


def first_batch(org: Org, plan: QueryPlan, batch_size: int, api_version: str) -> dict:
    """The REST body of a query: the first batch, and a locator when more rows remain."""
    return _as_dict(*first_batch_parts(org, plan, batch_size, api_version))


def first_batch_json(org: Org, plan: QueryPlan, batch_size: int, api_version: str) -> bytes:
    """The same body as :func:`first_batch`, as the JSON bytes a REST client receives."""
    return _as_json(*first_batch_parts(org, plan, batch_size, api_version))


def first_batch_parts(org: Org, plan: QueryPlan, batch_size: int, api_version: str) -> tuple[dict, list]:
    """The body's head (totalSize, done, nextRecordsUrl) and its records (dicts, or JSON texts)."""
    if plan.kind == "count":
        rows = fetch(org, plan)
        return {"totalSize": int(rows[0][0]) if rows else 0, "done": True}, []
    if plan.kind == "aggregate":
        rows, as_json = fetch_records(org, plan)
        if len(rows) > MAX_AGGREGATE_ROWS:
            raise SalesforceError(
                "MALFORMED_QUERY",
                "Aggregate query does not support queryMore(), use LIMIT to restrict the results to a single batch",
            )
        if as_json:
            return {"totalSize": len(rows), "done": True}, [row[1] for row in rows]
        with bulk_allocation():
            records = [plan.build(r) for r in rows]
        return {"totalSize": len(rows), "done": True}, records
    rows, as_json = fetch_records(org, plan)
    cursor = PagedRows(plan, rows, batch_size, api_version, as_json)
    return page_parts(org, cursor, 0, None)


def page(org: Org, cursor: PagedRows, position: int, locator: str | None) -> dict:
    """The batch of ``cursor`` starting at ``position``, as a body of dicts."""
    return _as_dict(*page_parts(org, cursor, position, locator))


def page_parts(org: Org, cursor: PagedRows, position: int, locator: str | None) -> tuple[dict, list]:
    """The batch of ``cursor`` starting at ``position``: the body's head and its records.

    Child-subquery rows count toward the batch size (Salesforce Developer Limits, "SOQL and
    SOSL Limits for Search Queries": the 2,000 results per request "include results from child
    objects"): a batch holds the parents whose own rows and children's rows fit, and always
    at least one parent. Records DuckDB wrote as JSON stay JSON texts here.
    """
    rows = cursor.rows
    plan = cursor.plan
    end = min(len(rows), position + cursor.batch_size)
    if cursor.json_rows:
        records: list = [row[1] for row in rows[position:end]]
    elif cursor.shaped:
        records = rows[position:end]
    else:
        records = shape_records(org, plan, rows[position:end], False, cursor.batch_size)
    if plan.children:
        kept = rows_within(records, cursor.batch_size)
        records = records[:kept]
        end = position + kept
        open_locators(org, records, cursor.batch_size, cursor.api_version)
    head: dict = {"totalSize": len(rows), "done": end >= len(rows)}
    if end < len(rows):
        if locator is None:
            locator = remember(org, cursor)
        head["nextRecordsUrl"] = f"/services/data/v{cursor.api_version}/query/{locator}-{end}"
    return head, records


def _as_dict(head: dict, records: list) -> dict:
    if records and isinstance(records[0], str):
        records = json.loads("[" + ",".join(records) + "]")
    head["records"] = records
    return head


def _as_json(head: dict, records: list) -> bytes:
    """``{head..., "records": [...]}`` as UTF-8 JSON, record texts DuckDB wrote spliced in as they are."""
    if records and isinstance(records[0], str):
        items = ",".join(records)
    else:
        items = encode_json(records)[1:-1]
    return f'{encode_json(head)[:-1]},"records":[{items}]}}'.encode()


def shape_records(
    org: Org, plan: QueryPlan, rows: list[tuple], json_rows: bool = False, batch_size: int = MAX_BATCH
) -> list[dict]:
    """REST records for ``rows``, with their child subqueries run for these parents.

    Each level of child subqueries is one query for all the records of the level above, however
    deep they nest. A child list longer than a part is cut (:func:`child_part`); call
    :func:`open_locators` on the records sent.
    """
    if json_rows:
        return json.loads("[" + ",".join(row[1] for row in rows) + "]")
    with bulk_allocation():
        records = [plan.build(row) for row in rows]
    if plan.children and records:
        parent_ids = [row[0] for row in rows]
        for child in plan.children:
            child_rows = fetch(org, child.plan, [parent_ids])
            child_records = shape_records(org, child.plan, child_rows, False, batch_size)
            by_parent: dict[str, list[dict]] = {}
            key = child.plan.parent_key_index
            for row, child_record in zip(child_rows, child_records):
                by_parent.setdefault(row[key], []).append(child_record)
            for parent_id, record in zip(parent_ids, records):
                record[child.key] = child_part(child.plan, by_parent.get(parent_id), batch_size)
    return records


class ChildPart(dict):
    """A child list's first part, ``{totalSize, done: false, nextRecordsUrl, records}``.

    Its locator is opened only once the part is sent (:func:`open_locators`): a batch shapes
    more parents than it keeps, and a locator per dropped parent would push out the kept ones'.
    """

    __slots__ = ("plan", "rest")


def child_part(plan: QueryPlan, records: list[dict] | None, batch_size: int) -> dict | None:
    """A parent's child list: whole when it fits one part, else its first part (and the rest kept)."""
    part = min(CHILD_PART, batch_size) - 1
    if records is None or len(records) <= part:
        return child_result(records)
    value = ChildPart(totalSize=len(records), done=False, nextRecordsUrl=None, records=records[:part])
    value.plan, value.rest = plan, records
    return value


def open_locators(org: Org, records: list[dict], batch_size: int, api_version: str) -> None:
    """Give every child list part among ``records`` (at any depth) the locator of its rest."""
    for record in records:
        for value in record.values():
            if not (isinstance(value, dict) and "totalSize" in value and "records" in value):
                continue
            if isinstance(value, ChildPart) and value["nextRecordsUrl"] is None:
                cursor = PagedRows(value.plan, value.rest, batch_size, api_version, shaped=True)
                position = len(value["records"])
                value["nextRecordsUrl"] = (
                    f"/services/data/v{api_version}/query/{remember(org, cursor)}-{position}"
                )
            open_locators(org, value["records"], batch_size, api_version)


def rows_within(records: list[dict], budget: int) -> int:
    """How many of ``records`` fit in a batch of ``budget`` rows, each counting itself and its child rows."""
    used = 0
    for count, record in enumerate(records):
        used += 1 + _child_rows(record)
        if used > budget:
            return max(count, 1)
    return len(records)


def _child_rows(record: dict) -> int:
    """The rows a record's child subqueries returned, at every level."""
    total = 0
    for value in record.values():
        if isinstance(value, dict) and "records" in value and "totalSize" in value:
            total += sum(1 + _child_rows(child) for child in value["records"])
    return total


# ---------------------------------------------------------------------------- locators
def remember(org: Org, cursor: PagedRows) -> str:
    """A new query locator for ``cursor`` (an Id with the query locator prefix 01g)."""
    with _locator_lock:
        locator = ids.make_id("01g", next(_locator_numbers))
    with _locator_lock:  # not org.lock: queries may run beside each other (Org.reading)
        store: OrderedDict = org.cache.setdefault(LOCATORS_KEY, OrderedDict())
        store[locator] = cursor
        while len(store) > MAX_LOCATORS:
            store.popitem(last=False)
    return locator


def invalid_locator() -> SalesforceError:
    return SalesforceError("INVALID_QUERY_LOCATOR", "invalid query locator", status=400)


def next_batch(org: Org, locator: str, api_version: str) -> dict:
    """The batch a ``nextRecordsUrl`` locator (``<id>-<position>``) points at."""
    cursor, position, head = _locate(org, locator, api_version)
    return page(org, cursor, position, head)


def _locate(org: Org, locator: str, api_version: str) -> tuple[PagedRows, int, str]:
    """The cursor, position and locator Id of a ``nextRecordsUrl`` locator; INVALID_QUERY_LOCATOR otherwise."""
    if not isinstance(locator, str):
        raise invalid_locator()
    head, sep, tail = locator.strip().rpartition("-")
    if not sep or not tail.isdigit():
        raise invalid_locator()
    store = org.cache.get(LOCATORS_KEY)
    cursor = store.get(head) if store is not None else None
    position = int(tail)
    if cursor is None or position > len(cursor.rows):
        raise invalid_locator()
    with _locator_lock:
        if head in store:  # another query may have pushed it out meanwhile: it still pages
            store.move_to_end(head)
    cursor.api_version = api_version
    return cursor, position, head


def next_batch_json(org: Org, locator: str, api_version: str) -> bytes:
    """:func:`next_batch` as the JSON bytes a REST client receives."""
    cursor, position, head = _locate(org, locator, api_version)
    return _as_json(*page_parts(org, cursor, position, head))
