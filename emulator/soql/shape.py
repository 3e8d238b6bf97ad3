"""Rows to the REST body's records, built the way Salesforce writes them.

REST API Developer Guide, "Query" (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_query.htm): every record starts with
``attributes {type, url}``; keys follow the SELECT order in canonical API casing; a parent
is a nested record with its own attributes, or null; a child subquery is
``{totalSize, done, records}``, or null when there are no children; an aggregate row has
``attributes {type: AggregateResult}`` only. Values use the REST JSON formats
(:mod:`crmarena_sf.emulator.wire`), mostly formatted by DuckDB in the query itself. A shape is compiled
once per query plan into one function per record kind, so per-row work is only building
that row's dicts.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import gc
from collections.abc import Callable, Iterator
from types import CodeType
from typing import Any

from crmarena_sf.emulator.soql.dates import zone
from crmarena_sf.emulator.wire import format_time, to_json
from sqlglot import exp

ValueOf = Callable[[tuple], Any]
"""Computes one value of a record from a result row (a parent record, an address, a formatted value)."""
Entry = tuple[str, int | ValueOf]
"""One key of a record and where its value comes from: a column already holding the JSON value, or a function."""

_DATETIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%g+0000"


def wire_value(value: exp.Expression, field_type: str | None) -> exp.Expression:
    """``value`` as SQL that yields its REST JSON form, formatted by DuckDB rather than per row in Python.

    dateTime -> ``2024-04-01T08:00:00.000+0000``, date -> ``2024-04-01``, double/currency/percent
    -> a float; other types are already what JSON needs (strings, integers, booleans).
    """
    if field_type == "datetime":
        return exp.Anonymous(this="strftime", expressions=[value, exp.Literal.string(_DATETIME_FORMAT)])
    if field_type == "date":
        return exp.Cast(this=value, to=exp.DataType.build(exp.DataType.Type.VARCHAR))
    if field_type in ("double", "currency", "percent"):
        return exp.Cast(this=value, to=exp.DataType.build(exp.DataType.Type.DOUBLE))
    return value


def converter(field_type: str | None) -> Callable[[Any], Any] | None:
    """The function turning a :func:`wire_value` of ``field_type`` into its JSON value (None: as is)."""
    if field_type == "time":
        return lambda v: None if v is None else format_time(v)
    if field_type == "base64":
        return to_json
    return None


def converted(index: int, convert: Callable[[Any], Any] | None) -> int | ValueOf:
    """The source of a value: the column itself, or the column through ``convert``."""
    if convert is None:
        return index
    return lambda row: convert(row[index])


def address_value(indexes: dict[str, int]) -> ValueOf:
    """An address/location compound field from its components (null when all are null)."""
    from crmarena_sf.emulator.soql.json_records import AddressSource

    return AddressSource(indexes)


def no_value(row: tuple) -> None:
    """The value of a key filled in later (a child relationship, once its subquery ran)."""
    return None


def record_builder(
    type_of: Callable[[str], str] | str, id_index: int, url_prefix: str, entries: list[Entry]
) -> Callable[[tuple], dict | None]:
    """A function making a record (attributes first, then ``entries`` in order) from a row.

    It returns None when the row's Id column is null (an absent parent). ``type_of`` is the
    object's name, or a function of the Id for polymorphic parents. The function is
    generated as one dict display, the fastest way CPython builds a dict: its source holds
    only column numbers and fixed names; keys, functions and the url prefix are bound in its
    namespace, never written into the source.
    """
    namespace: dict[str, Any] = {"_type_of": type_of}
    if isinstance(type_of, str):
        namespace["_type"] = type_of
        namespace["_url"] = f"{url_prefix}{type_of}/"
        head = "{'attributes': {'type': _type, 'url': _url + rid}"
    else:
        namespace["_url"] = url_prefix
        head = "{'attributes': {'type': (t := _type_of(rid)), 'url': _url + t + '/' + rid}"
    before = f"    rid = row[{int(id_index)}]\n    if rid is None:\n        return None\n    return "
    return _generated(head, entries, before, namespace)


def aggregate_builder(entries: list[Entry]) -> Callable[[tuple], dict]:
    """An AggregateResult row: ``attributes {type}`` (no url) and each column, exprN for unnamed ones."""
    return _generated("{'attributes': {'type': 'AggregateResult'}", entries, "    return ", {})


def _generated(head: str, entries: list[Entry], before: str, namespace: dict[str, Any]) -> Callable:
    """``def build(row)`` returning one dict display: ``head`` then every entry (see :func:`record_builder`)."""
    parts = [head]
    for number, (key, source) in enumerate(entries):
        namespace[f"_k{number}"] = key
        if isinstance(source, int):
            parts.append(f"_k{number}: row[{int(source)}]")
        else:
            namespace[f"_f{number}"] = source
            parts.append(f"_k{number}: _f{number}(row)")
    source_code = f"def build(row):\n{before}{', '.join(parts)}}}\n"
    exec(_compiled(source_code), namespace)  # noqa: S102 -- generated from column numbers and fixed names only
    return namespace["build"]


@functools.lru_cache(maxsize=1024)
def _compiled(source_code: str) -> CodeType:
    """The code of a builder's source: queries of one shape share it (compiling costs more than the rest)."""
    return compile(source_code, "<string>", "exec")  # the name exec() of the text gave it


@contextlib.contextmanager
def bulk_allocation() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many records.

    Records are acyclic dicts; building thousands of them triggers collections that scan
    every live container and cost twice the building itself. The previous state is
    restored (a collector some other code disabled stays disabled).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def child_result(records: list[dict] | None) -> dict | None:
    """A child relationship's value: ``{totalSize, done, records}``, or null without children."""
    if not records:
        return None
    return {"totalSize": len(records), "done": True, "records": records}


# ---------------------------------------------------------------------------- FORMAT()
def formatter(field_type: str | None, timezone: str) -> Callable[[Any], Any]:
    """FORMAT(field): the value as the en_US locale displays it (dateTimes in the user's time zone)."""

    def fmt(value: Any) -> Any:
        if value is None:
            return None
        if field_type == "datetime" and isinstance(value, dt.datetime):
            local = value.replace(tzinfo=dt.UTC).astimezone(zone(timezone))
            hour = local.hour % 12 or 12
            return f"{local.month}/{local.day}/{local.year}, {hour}:{local.minute:02d} {'AM' if local.hour < 12 else 'PM'}"
        if field_type == "date" and isinstance(value, dt.date):
            return f"{value.month}/{value.day}/{value.year}"
        if field_type == "currency":
            return f"${float(value):,.2f}"
        if field_type == "percent":
            return f"{float(value):,.2f}%"
        if field_type in ("double", "int", "long"):
            number = float(value)
            return f"{int(number):,}" if number.is_integer() else f"{number:,}"
        return to_json(value)

    return fmt
