"""Query plans: ``GET query?explain=<SOQL, list view Id or report Id>``.

REST API Developer Guide, "Query" (resources_query.htm, the ``explain`` parameter) and "Get
Feedback on Query Performance" (dome_query_explain.htm): instead of running the query, the answer
is ``{"plans": [...]}``, the plans Salesforce considered, best first, each with ``cardinality``
(the rows its leading operation returns), ``fields`` (the indexed fields it uses),
``leadingOperationType`` (``Index``, ``TableScan`` ...), ``notes`` (``{"description", "fields",
"tableEnumOrId"}``: why a filter was not used), ``relativeCost`` (the cost against the query
optimizer's selectivity threshold; above 1 the query is not selective), ``sobjectCardinality``
(the object's rows) and ``sobjectType``. A list view's or report's Id explains its query and adds
``sourceQuery``; an Id the org has no list view or report of is ``INVALID_ID``.

The plans are the emulator's own: the query is compiled as a run would compile it, and an
equality or IN on a field Salesforce indexes (the Id, lookups, Name, external ids and other
idLookup fields: SOQL and SOSL Reference, "Working with Very Large SOQL Queries") is an ``Index``
plan, the lookup :mod:`crmarena_sf.emulator.soql.seek` makes on a large table; a ``TableScan``
plan is always there. Cardinalities are counted in the org. The selectivity threshold is the one
that reference gives for a standard index: 30% of the first million rows and 15% of the rows
after, at most one million; a scan reads every row, so its cost is the object's rows over it.
A filter on a field without an index gets the note "Not considering filter for optimization
because unindexed".
"""

from __future__ import annotations

import re
from typing import Any

import sqlglot
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.data.list_views import find_list_view, list_view_query
from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall
from crmarena_sf.emulator.soql.errors import SoqlError, to_salesforce_error
from crmarena_sf.emulator.soql.nodes import conjuncts
from crmarena_sf.emulator.soql.plans import bound_query, plan_for
from crmarena_sf.emulator.soql.seek import seek_condition
from crmarena_sf.emulator.store.indexes import index_keys
from sqlglot import exp

_ID = re.compile(r"^[a-zA-Z0-9]{15}(?:[a-zA-Z0-9]{3})?$")
UNINDEXED = "Not considering filter for optimization because unindexed"


def selectivity_threshold(rows: int) -> float:
    """Rows a standard index may return and still be selective (at least one, so costs stay finite)."""
    threshold = 0.3 * min(rows, 1_000_000) + 0.15 * max(rows - 1_000_000, 0)
    return max(min(threshold, 1_000_000), 1.0)


def explain(call: RestCall, value: str) -> Response:
    """The plans of ``value``: a SOQL query, or the Id of a list view or report whose query it is."""
    source = None
    text = value
    if _ID.match(value.strip()):
        view = find_list_view(call.org, value.strip())
        if view is None:
            raise SalesforceError("INVALID_ID", f"invalid id: {value.strip()}", status=400)
        text = list_view_query(call.org, view)
        source = text
    body: dict[str, Any] = {"plans": _plans(call, text)}
    if source is not None:
        body["sourceQuery"] = source
    return json_response(200, body)


def _plans(call: RestCall, text: str) -> list[dict[str, Any]]:
    org = call.org
    try:
        obj = bound_query(org.schema, text).obj
        plan = plan_for(org, text, False, call.version)
    except SoqlError as exc:
        if exc.offset is not None and not text[: exc.offset].strip():
            raise SalesforceError(exc.error_code, exc.message, status=400) from None
        raise to_salesforce_error(exc, text) from None
    statement = sqlglot.parse_one(plan.sql, dialect="duckdb")
    scan = _reading(statement, obj.name)
    total = org.count(obj.name)
    threshold = selectivity_threshold(total)
    indexed = frozenset((obj.name, key) for key in index_keys(obj))
    plans = []
    if scan is not None:
        select, table = scan
        alias = table.alias_or_name
        where = select.args.get("where")
        condition = where.this if where is not None else None
        seek = seek_condition(condition, alias, obj.name, indexed)
        if seek is not None:
            rows = _count(org, exp.select("count(*)").from_(table.copy()).where(seek.copy()))
            plans.append(
                _plan(obj.name, rows, _columns_of(seek, alias), "Index", rows / threshold, total, [])
            )
        # a large table's lookup is fenced in a subquery of its own: the other filters sit outside it
        filters = [part for w in statement.find_all(exp.Where) for part in conjuncts(w.this)]
        notes = _unindexed_notes(filters, alias, obj.name, indexed)
    else:
        notes = []
    matching = _count(org, _counted(statement))
    plans.append(_plan(obj.name, matching, [], "TableScan", total / threshold, total, notes))
    return sorted(plans, key=lambda p: p["relativeCost"])


def _plan(name: str, rows: int, fields: list[str], kind: str, cost: float, total: int, notes: list) -> dict:
    return {
        "cardinality": rows,
        "fields": fields,
        "leadingOperationType": kind,
        "notes": notes,
        "relativeCost": round(cost, 6),
        "sobjectCardinality": total,
        "sobjectType": name,
    }


def _reading(statement: exp.Expression, table_name: str) -> tuple[exp.Select, exp.Table] | None:
    """The innermost SELECT reading the object's table (the fence of an indexed lookup, else the query)."""
    found = None
    for select in statement.find_all(exp.Select):
        source = select.args.get("from_") or select.args.get("from")
        table = source.this if source is not None else None
        if isinstance(table, exp.Table) and table.name == table_name:
            found = (select, table)
    return found


def _columns_of(condition: exp.Expression, alias: str) -> list[str]:
    return sorted({c.name for c in condition.find_all(exp.Column) if c.table == alias})


def _unindexed_notes(filters: list, alias: str, name: str, indexed: frozenset) -> list[dict[str, Any]]:
    keys = {key for _table, key in indexed}
    unindexed = set()
    for part in filters:
        for column in part.find_all(exp.Column):
            name_ = column.name
            if column.table == alias and name_ != "IsDeleted" and not {name_, f"lower({name_})"} & keys:
                unindexed.add(name_)
    if not unindexed:
        return []
    return [{"description": UNINDEXED, "fields": sorted(unindexed), "tableEnumOrId": name}]


def _counted(statement: exp.Expression) -> exp.Expression:
    """``SELECT count(*)`` of the rows the statement's filters keep (before grouping or limits)."""
    if not isinstance(statement, exp.Select):
        return exp.select("count(*)").from_(exp.Subquery(this=statement.copy(), alias="q"))
    counted = statement.copy()
    for part in ("group", "having", "order", "limit", "offset"):
        counted.set(part, None)
    counted.set("expressions", [exp.Count(this=exp.Star())])
    return counted


def _count(org, statement: exp.Expression) -> int:
    sql = statement.sql(dialect="duckdb")
    with org.lock:
        return int(org.con.execute(sql).fetchone()[0])
