"""Records written as JSON by DuckDB itself, for queries whose every value is already a JSON value.

A REST query answer is JSON text; building a Python dict per record and then encoding it
costs more than DuckDB spends finding the rows. When a records query needs no value
converted in Python (no FORMAT(), time or base64 field, TYPEOF or child subquery), its SQL
instead selects each record as one JSON text, ``to_json({'attributes': {...}, 'Name': ...})``,
in the key order and with the values the Python builders of :mod:`crmarena_sf.emulator.soql.shape` give:
attributes first, parents as nested records or null, addresses as objects or null. A batch is
then those texts joined, and a client gets them without any per-record Python work.

DuckDB's JSON functions cost a fixed ~0.3 ms a query, more than building a few records in
Python, so :func:`worth_writing_json` keeps the Python builders for queries that return few
rows: a small object, a small LIMIT, or a filter on an Id or a lookup.
"""

from __future__ import annotations

from collections.abc import Callable

from crmarena_sf.emulator.soql.nodes import conjuncts
from crmarena_sf.emulator.soql.resolve import JoinNode
from sqlglot import exp

AddressParts = dict[str, int]


class AddressSource:
    """An address or location field's value: its components (columns), null when all are null."""

    def __init__(self, indexes: AddressParts) -> None:
        self.indexes = indexes

    def __call__(self, row: tuple) -> dict | None:
        parts = {k: row[i] for k, i in self.indexes.items()}
        return parts if any(v is not None for v in parts.values()) else None


def _pairs(pairs: list[tuple[str, exp.Expression]]) -> exp.Expression | None:
    """A DuckDB struct ``{'k': v, ...}``; None when two keys differ only in case (DuckDB refuses those)."""
    seen = {k.lower() for k, _ in pairs}
    if len(seen) != len(pairs):
        return None
    return exp.Struct(
        expressions=[exp.PropertyEQ(this=exp.Literal.string(k), expression=v) for k, v in pairs]
    )


def _type_and_url(node: JoinNode | None, type_name: str, record_id: exp.Expression, url_prefix: str):
    """The record's ``attributes``: its type (by key prefix for a polymorphic parent) and its url."""
    if node is None or not node.polymorphic:
        return exp.Literal.string(type_name), exp.DPipe(
            this=exp.Literal.string(f"{url_prefix}{type_name}/"), expression=record_id.copy(), safe=True
        )
    prefix = exp.Substring(this=record_id.copy(), start=exp.Literal.number(1), length=exp.Literal.number(3))
    ifs = [
        exp.If(
            this=exp.EQ(this=prefix.copy(), expression=exp.Literal.string(obj.keyPrefix)),
            true=exp.Literal.string(obj.name),
        )
        for obj, _ in node.targets
        if obj.keyPrefix
    ]
    type_sql = exp.Case(ifs=ifs, default=exp.Literal.string(node.obj.name))
    url = exp.DPipe(
        this=exp.DPipe(
            this=exp.DPipe(this=exp.Literal.string(url_prefix), expression=type_sql.copy(), safe=True),
            expression=exp.Literal.string("/"),
            safe=True,
        ),
        expression=record_id.copy(),
        safe=True,
    )
    return type_sql, url


def record_struct(
    tree: list,
    columns: list[exp.Expression],
    type_name: str,
    id_index: int,
    url_prefix: str,
    node: JoinNode | None = None,
) -> exp.Expression | None:
    """The struct DuckDB turns into one record's JSON; None when some value needs Python (see the module docstring).

    ``tree`` holds ``(key, source)`` entries (a column index, an :class:`AddressSource`) and
    parent records (objects with ``key``, ``node``, ``id_index`` and ``entries``).
    """
    record_id = columns[id_index]
    type_sql, url = _type_and_url(node, type_name, record_id, url_prefix)
    attributes = _pairs([("type", type_sql), ("url", url)])
    pairs: list[tuple[str, exp.Expression]] = [("attributes", attributes)]
    for entry in tree:
        if isinstance(entry, tuple):
            key, source = entry
            if isinstance(source, int):
                pairs.append((key, columns[source].copy()))
            elif isinstance(source, AddressSource):
                parts = _pairs([(k, columns[i].copy()) for k, i in source.indexes.items()])
                if parts is None:
                    return None
                every_null = exp.and_(
                    *(exp.Is(this=columns[i].copy(), expression=exp.Null()) for i in source.indexes.values())
                )
                pairs.append((key, exp.Case(ifs=[exp.If(this=every_null, true=exp.Null())], default=parts)))
            else:
                return None
        else:
            parent = record_struct(
                entry.entries, columns, entry.node.obj.name, entry.id_index, url_prefix, entry.node
            )
            if parent is None:
                return None
            missing = exp.Is(this=columns[entry.id_index].copy(), expression=exp.Null())
            pairs.append((entry.key, exp.Case(ifs=[exp.If(this=missing, true=exp.Null())], default=parent)))
    return _pairs(pairs)


JSON_AS_IS_TYPES = frozenset(
    "id reference string textarea picklist multipicklist combobox email phone url encryptedstring "
    "boolean int long date datetime".split()
)
"""Salesforce types whose :func:`~crmarena_sf.emulator.soql.shape.wire_value` DuckDB writes as JSON exactly as
Python's encoder does (text, integers, booleans; dates already formatted). Numbers with decimals
are left to Python, whose float formatting DuckDB's need not match."""


def aggregate_struct(values: list[tuple[str, str]]) -> exp.Expression | None:
    """The struct of one AggregateResult (``attributes {type}`` and each value's rendered SQL), or None."""
    attributes = _pairs([("type", exp.Literal.string("AggregateResult"))])
    return _pairs([("attributes", attributes), *((key, exp.Var(this=sql)) for key, sql in values)])


def record_json(struct: exp.Expression) -> exp.Expression:
    """``to_json(struct)`` as text."""
    return exp.Cast(
        this=exp.Anonymous(this="to_json", expressions=[struct]),
        to=exp.DataType.build(exp.DataType.Type.VARCHAR),
    )


MANY_ROWS = 200
"""From about this many records DuckDB writing the JSON beats building and encoding them in Python."""


def worth_writing_json(bound, table_rows: Callable[[], int | None]) -> bool:
    """True when the query likely returns enough records for DuckDB to write them faster than Python.

    ``table_rows()`` estimates the rows of the queried object's table; it is asked last, only
    when the query itself does not already say it returns few records.
    """
    if bound.count_only or bound.aggregate:
        return False  # no records to write (the flag only matters to records plans)
    if bound.limit is not None and bound.limit < MANY_ROWS:
        return False
    for node in conjuncts(bound.where):
        if isinstance(node, (exp.EQ, exp.In)):
            resolved = node.this.meta.get("resolved") if node.this is not None else None
            if resolved is not None and resolved.field.type in ("id", "reference"):
                return False
    rows = table_rows()
    return rows is None or rows >= MANY_ROWS
