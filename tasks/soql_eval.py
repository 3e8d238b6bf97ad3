"""Execution-based comparison of a predicted SOQL/SOSL query with a gold one (the text-to-SOQL track's reward).

Like BIRD and Spider, queries are compared by what they return on the same org, not by text.
``compare(sf, predicted, gold)`` runs both through the same simple-salesforce client and
says whether they match and, if not, why. The rules:

- **Columns**: field order and names do not matter (aliases, ``expr0``, ``Account.Name`` vs
  ``Name`` through a different path): each gold column must be matched by a distinct
  predicted column holding the same values row for row; extra or missing columns do not match.
- **Rows**: as a multiset; their order matters only when the gold query has a top-level
  ``ORDER BY``.
- **Parents**: a relationship path's value (``Account.ShippingState``) is a column of its own;
  a null parent is a null value.
- **Child subqueries**: a parent's child records are compared as a set of rows (order and
  column names inside ignored, duplicates kept).
- **Counts**: ``SELECT COUNT() ...`` answers with totalSize; ``SELECT COUNT(Id) ...`` with one
  row holding the number: either form matches the other.
- **Values**: numbers compare by value (``2`` = ``2.0``); everything else exactly (strings
  are case-sensitive, datetimes as the API writes them).
- **SOSL**: searchRecords compared as a multiset of rows, each with its object type;
  relevance order never matters.
- **Errors**: a predicted query that fails does not match, and the reason is its Salesforce
  error (``MALFORMED_QUERY: ...``); a gold query that fails raises (it is a broken task).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

__all__ = ["Comparison", "compare", "has_top_level_order_by"]


@dataclass(frozen=True)
class Comparison:
    match: bool
    reason: str
    """Why not (empty when they match); a failed prediction's Salesforce error."""

    def __bool__(self) -> bool:
        return self.match


class _Result:
    """A query's outcome reduced to what the rules compare."""

    def __init__(self, rows: list[dict], total: int, count_only: bool, ordered: bool) -> None:
        self.rows, self.total, self.count_only, self.ordered = rows, total, count_only, ordered


def compare(sf: Any, predicted: str | None, gold: str) -> Comparison:
    """Whether ``predicted`` returns what ``gold`` returns on the org behind ``sf``."""
    from simple_salesforce.exceptions import SalesforceError

    if not predicted or not str(predicted).strip():
        return Comparison(False, "no query was given")
    expected = _run(sf, gold)
    try:
        got = _run(sf, str(predicted))
    except SalesforceError as exc:
        from crmarena_sf.tasks.observation import error_text

        return Comparison(False, error_text(exc))
    return _match(got, expected, ordered=has_top_level_order_by(gold))


def has_top_level_order_by(query: str) -> bool:
    """Whether the outer query (not a subquery, not a quoted string) has ORDER BY."""
    depth, quoted, outer = 0, False, []
    i = 0
    while i < len(query):
        ch = query[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == "'":
                quoted = False
        elif ch == "'":
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0:
            outer.append(ch)
        i += 1
    return "ORDER BY" in " ".join("".join(outer).upper().split())


def _run(sf: Any, query: str) -> _Result:
    text = query.strip()
    if text[:4].upper() == "FIND":
        records = (sf.search(text) or {}).get("searchRecords", [])
        rows = [{"__type": (r.get("attributes") or {}).get("type"), **_flatten(r)} for r in records]
        return _Result(rows, len(rows), False, False)
    page = sf.query(text)  # page by page: query_all would recount totalSize from the records
    total, records = page["totalSize"], list(page["records"])
    while not page["done"]:
        page = sf.query_more(page["nextRecordsUrl"], identifier_is_url=True)
        records.extend(page["records"])
    return _Result([_flatten(r) for r in records], total, not records and total > 0, False)


def _flatten(record: dict, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in record.items():
        if key == "attributes":
            continue
        if isinstance(value, dict) and "records" in value and "totalSize" in value:
            children = Counter(tuple(sorted(map(_key, _flatten(c).values()))) for c in value["records"])
            out[prefix + key] = ("children", tuple(sorted(children.items())))
        elif isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out


def _key(value: Any) -> Any:
    """A value as the rules compare it (numbers by value), hashable and sortable across types."""
    if isinstance(value, bool) or value is None:
        return ("b", repr(value))
    if isinstance(value, int | float):
        if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
            return ("n", repr(value))
        return ("n", f"{float(value):.9g}")
    if isinstance(value, tuple):
        return ("c", repr(value))
    return ("s", str(value))


def _match(got: _Result, expected: _Result, ordered: bool) -> Comparison:
    if expected.count_only or got.count_only:
        return _match_counts(got, expected)
    if len(got.rows) != len(expected.rows):
        return Comparison(False, f"{len(got.rows)} row(s) returned, {len(expected.rows)} expected")
    if not expected.rows:
        return Comparison(True, "")
    gold_columns = _columns(expected.rows, ordered)
    got_columns = _columns(got.rows, ordered)
    if len(got_columns) != len(gold_columns):
        return Comparison(False, f"{len(got_columns)} column(s) returned, {len(gold_columns)} expected")
    # Unordered: the same multiset of rows (column names ignored), then columns must pair up (below).
    if not ordered and not _same_unordered(got, expected):
        return Comparison(False, "the rows hold other values")
    if Counter(got_columns.values()) != Counter(gold_columns.values()):
        what = (
            "the rows are in another order" if ordered and _same_unordered(got, expected) else "other values"
        )
        return Comparison(False, f"the columns do not pair up with the expected ones ({what})")
    return Comparison(True, "")


def _match_counts(got: _Result, expected: _Result) -> Comparison:
    def count_of(result: _Result) -> int | None:
        if result.count_only:
            return result.total
        if len(result.rows) == 1 and len(result.rows[0]) == 1:
            value = next(iter(result.rows[0].values()))
            if isinstance(value, int | float) and not isinstance(value, bool):
                return int(value) if float(value).is_integer() else None
        return None

    a, b = count_of(got), count_of(expected)
    if a is None:
        return Comparison(False, "a count was expected, not records")
    return Comparison(a == b, "" if a == b else f"count {a}, expected {b}")


def _row_key(row: dict) -> tuple:
    return tuple(sorted(map(_key, row.values())))


def _columns(rows: list[dict], ordered: bool) -> dict[str, tuple]:
    """Column -> its values down the rows (rows put in a canonical order unless ``ordered``)."""
    if not ordered:
        rows = sorted(rows, key=_row_key)
    names: list[str] = []
    for row in rows:
        names.extend(k for k in row if k not in names)
    return {name: tuple(_key(row.get(name)) for row in rows) for name in names}


def _same_unordered(got: _Result, expected: _Result) -> bool:
    return Counter(_row_key(r) for r in got.rows) == Counter(_row_key(r) for r in expected.rows)
