"""Rows to the REST body's records, built the way Salesforce writes them.

REST API Developer Guide, "Query" (emulator-peers.md §B.1): every record starts with
``attributes {type, url}``; keys follow the SELECT order in canonical API casing; a parent
is a nested record with its own attributes, or null; a child subquery is
``{totalSize, done, records}``, or null when there are no children; an aggregate row has
``attributes {type: AggregateResult}`` only. Values use the REST JSON formats
(:mod:`emulator.wire`). A shape is compiled once per query plan into small closures, so
per-row work is only the values of that row.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from emulator.soql.dates import zone
from emulator.wire import format_datetime, format_time, to_json

Builder = Callable[[tuple, dict], None]
"""Adds one key of a record from a result row."""


def converter(field_type: str | None) -> Callable[[Any], Any] | None:
    """The function turning a stored value of ``field_type`` into its JSON value (None: as is)."""
    if field_type == "datetime":
        return lambda v: None if v is None else format_datetime(v)
    if field_type == "date":
        return lambda v: None if v is None else v.isoformat()
    if field_type in ("double", "currency", "percent"):
        return lambda v: None if v is None else float(v)
    if field_type == "time":
        return lambda v: None if v is None else format_time(v)
    if field_type == "base64":
        return to_json
    return None


def value_builder(key: str, index: int, convert: Callable[[Any], Any] | None) -> Builder:
    if convert is None:

        def build(row: tuple, out: dict) -> None:
            out[key] = row[index]

    else:

        def build(row: tuple, out: dict) -> None:
            out[key] = convert(row[index])

    return build


_ADDRESS_KEYS = (
    "city",
    "country",
    "geocodeAccuracy",
    "latitude",
    "longitude",
    "postalCode",
    "state",
    "street",
)


def address_builder(key: str, indexes: dict[str, int]) -> Builder:
    """An address/location compound field from its components (null when all are null)."""
    items = [(k, indexes.get(k)) for k in _ADDRESS_KEYS if k in indexes]

    def build(row: tuple, out: dict) -> None:
        parts = {k: (float(row[i]) if isinstance(row[i], Decimal) else row[i]) for k, i in items}
        out[key] = parts if any(v is not None for v in parts.values()) else None

    return build


def record_builder(
    type_of: Callable[[str], str], id_index: int, url_prefix: str, entries: list[Builder]
) -> Callable[[tuple], dict | None]:
    """A record (attributes first) from a row; None when the record's Id is null (an absent parent)."""

    def build(row: tuple) -> dict | None:
        record_id = row[id_index]
        if record_id is None:
            return None
        type_name = type_of(record_id)
        out: dict = {"attributes": {"type": type_name, "url": f"{url_prefix}{type_name}/{record_id}"}}
        for entry in entries:
            entry(row, out)
        return out

    return build


def parent_builder(key: str, build_record: Callable[[tuple], dict | None]) -> Builder:
    def build(row: tuple, out: dict) -> None:
        out[key] = build_record(row)

    return build


def aggregate_builder(columns: list[tuple[str, int]]) -> Callable[[tuple], dict]:
    """An AggregateResult row: ``attributes {type}`` and each column, exprN for unnamed ones."""

    def build(row: tuple) -> dict:
        out: dict = {"attributes": {"type": "AggregateResult"}}
        for key, index in columns:
            out[key] = to_json(row[index])
        return out

    return build


def child_result(records: list[dict]) -> dict | None:
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
