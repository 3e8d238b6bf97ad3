"""RETURNING: which objects a search returns, their records, limits and order.

SOQL and SOSL Reference, sforce_api_calls_sosl_returning.htm, _limit.htm, _offset.htm:

- "Must be a valid sObject type": an unknown object is SOQL's INVALID_TYPE; an object that
  is not searchable cannot be named. Objects come back in the order RETURNING lists them.
- Without a field list a record is its attributes and Id. A field list, WHERE, ORDER BY are
  SOQL and run through the SOQL engine (:func:`crmarena_sf.emulator.soql.select_records`, each
  part read on its own) on the matching records; without ORDER BY the records keep their
  relevance order.
- LIMIT n per object; OFFSET n (at most 2,000) per object; an overall LIMIT (at most
  2,000, the default) is "evenly distributed among the objects returned": with LIMIT 20,
  19 matching accounts and 35 contacts give 10 of each.
- WITH DATA CATEGORY keeps the articles classified as asked, handed to the SOQL engine as parsed
  (:mod:`crmarena_sf.emulator.sosl.data_category`), before the limits apply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crmarena_sf.emulator import soql
from crmarena_sf.emulator.soql.errors import no_such_column, unsupported_type
from crmarena_sf.emulator.soql.nodes import WithClause
from crmarena_sf.emulator.sosl.data_category import check_data_category
from crmarena_sf.emulator.sosl.errors import SoslSyntaxError, not_searchable
from crmarena_sf.emulator.sosl.fields import default_scope
from crmarena_sf.emulator.sosl.index import IndexState
from crmarena_sf.emulator.sosl.matcher import match_objects
from crmarena_sf.emulator.sosl.statement import MAX_ROWS, Returning, Statement
from crmarena_sf.metadata.model import SObject

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

_PLAIN_FIELD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


@dataclass
class _Target:
    obj: SObject
    spec: Returning


def targets(org: Org, statement: Statement) -> list[_Target]:
    """The objects searched, checked against the schema (RETURNING's, or every default-searchable one)."""
    if not statement.returning:
        if statement.data_category is not None:
            check_data_category(statement.data_category, [], org.schema, returning=False)
        return [_Target(obj, Returning(obj.name, 0)) for obj in default_scope(org.schema)]
    out = []
    for spec in statement.returning:
        obj = org.schema.get(spec.name)
        if obj is None:
            raise _as_sosl(unsupported_type(spec.name, spec.offset))
        if not obj.searchable:
            raise not_searchable(obj.name, spec.offset)
        _check_plain_fields(obj, spec)
        out.append(_Target(obj, spec))
    if statement.data_category is not None:
        check_data_category(statement.data_category, [t.obj for t in out], org.schema, bool(out))
    return out


def records(
    org: Org, statement: Statement, found: list[_Target], state: IndexState, api_version: str
) -> list[dict]:
    """The ``searchRecords`` of a parsed, checked statement."""
    tree = None if statement.term.finds_nothing else statement.term.tree
    overall = MAX_ROWS if statement.limit is None else statement.limit
    searched = [t.obj for t in found if t.obj.name in state.objects and _needed(t.spec, overall) != 0]
    category = statement.data_category
    wanted: dict[str, int | None] = {}
    for target in found:  # how many of the best matches each object's answer can reach (None: all)
        spec, name = target.spec, target.obj.name
        need = None if (spec.where_text or spec.order_text or category) else _needed(spec, overall)
        if name in wanted:
            earlier = wanted[name]
            need = None if earlier is None or need is None else max(earlier, need)
        wanted[name] = need
    matches = (
        match_objects(org, searched, tree, statement.group, wanted) if tree is not None and searched else {}
    )
    per_object = []
    for target in found:
        spec, obj = target.spec, target.obj
        ids = matches.get(obj.name, [])
        if not (spec.where_text or spec.order_text or category):
            ids = ids[: _needed(spec, overall)]
        rows = _rows(org, obj, spec, ids, api_version, category)
        start = spec.offset_rows or 0
        stop = None if spec.limit is None else start + spec.limit
        per_object.append(rows[start:stop])
    return [row for rows, share in zip(per_object, _distribute(per_object, overall)) for row in rows[:share]]


def _needed(spec: Returning, overall: int) -> int:
    """How many ranked matches can reach the answer when nothing filters or reorders them."""
    cap = overall if spec.limit is None else min(overall, spec.limit)
    return (spec.offset_rows or 0) + cap


def _rows(
    org: Org, obj: SObject, spec: Returning, ids: list[str], api_version: str, category: WithClause | None
) -> list[dict]:
    """The records of matches ``ids``, kept in relevance order; ``category`` is WITH DATA CATEGORY, parsed."""
    if spec.fields_text is None and category is None:
        base = f"/services/data/v{api_version}/sobjects/{obj.name}/"
        return [
            {"attributes": {"type": obj.name, "url": base + record_id}, "Id": record_id} for record_id in ids
        ]
    return soql.select_records(
        org,
        obj.name,
        spec.fields_text or "Id",
        where_text=spec.where_text,
        order_by_text=spec.order_text,
        restrict_ids=ids,
        api_version=api_version,
        data_category=category,
    )


def _distribute(per_object: list[list[dict]], overall: int) -> list[int]:
    """How many records each object keeps under the overall limit, shared evenly (leftovers in order)."""
    counts = [len(rows) for rows in per_object]
    shares = [0] * len(counts)
    remaining = overall
    active = [i for i, c in enumerate(counts) if c]
    while remaining > 0 and active:
        share = remaining // len(active)
        if share == 0:
            for i in active[:remaining]:
                shares[i] += 1
            break
        still = []
        for i in active:
            take = min(share, counts[i] - shares[i])
            shares[i] += take
            remaining -= take
            if shares[i] < counts[i]:
                still.append(i)
        active = still
    return shares


def _check_plain_fields(obj: SObject, spec: Returning) -> None:
    """INVALID_FIELD, with its caret, for a plain field name the object lacks (paths go to SOQL)."""
    if not spec.fields_text or spec.fields_offset is None:
        return
    depth = 0
    start = 0
    text = spec.fields_text
    for i, ch in enumerate(text + ","):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            item = text[start:i]
            name = item.strip()
            if _PLAIN_FIELD.fullmatch(name) and obj.field(name) is None:
                offset = spec.fields_offset + start + (len(item) - len(item.lstrip()))
                raise _as_sosl(no_such_column(name, obj.name, offset))
            start = i + 1


def _as_sosl(error) -> SoslSyntaxError:
    """A SOQL engine error (code, message, offset) as a statement error of the search."""
    return SoslSyntaxError(error.error_code, error.message, error.offset)
