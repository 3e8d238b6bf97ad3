"""Data replication: ``sobjects/<Object>/updated`` and ``sobjects/<Object>/deleted``.

REST API Developer Guide, "sObject Get Updated" and "sObject Get Deleted"
(https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_getupdated.htm,
resources_getdeleted.htm), and the SOAP API's getUpdated()/getDeleted(): ``?start=&end=`` are
ISO 8601 instants whose seconds are ignored; a record counts by its ``SystemModstamp`` (else
``LastModifiedDate``). ``updated`` answers ``{"ids", "latestDateCovered"}``, ``deleted``
``{"deletedRecords": [{"id", "deletedDate"}], "earliestDateAvailable", "latestDateCovered"}``.
A start after the end, or more than 30 days before now (the org's clock), is
INVALID_REPLICATION_DATE.
"""

from __future__ import annotations

import datetime as dt

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route
from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.emulator.wire import format_datetime, parse_datetime
from crmarena_sf.metadata.model import SObject

WINDOW_DAYS = 30
"""How far back replication reaches ("Results are returned for no more than 30 days previous")."""


def _minute(value: dt.datetime) -> dt.datetime:
    return value.replace(second=0, microsecond=0)


def _instant(call: RestCall, name: str) -> dt.datetime:
    text = call.request.param(name)
    if text is None:
        raise SalesforceError("MISSING_ARGUMENT", f"{name} not specified")
    value = parse_datetime(text.replace(" ", "+"))  # an unencoded '+' arrives as a space
    if value is None:
        raise SalesforceError("INVALID_REPLICATION_DATE", f"invalid {name} date: {text}")
    return _minute(value)


def _window(call: RestCall) -> tuple[dt.datetime, dt.datetime, dt.datetime, dt.datetime]:
    """(start, end, latest date covered, earliest date available) of a replication request."""
    start, end = _instant(call, "start"), _instant(call, "end")
    now = _minute(call.org.clock.now())
    if start > end:
        raise SalesforceError("INVALID_REPLICATION_DATE", "startDate must chronologically precede endDate")
    earliest = now - dt.timedelta(days=WINDOW_DAYS)
    if start < earliest:
        raise SalesforceError("INVALID_REPLICATION_DATE", "startDate cannot be more than 30 days ago")
    # Never later than now: a next call starting there sees again what changed since (no gaps).
    return start, end, min(end, now), earliest


def _stamp_column(obj: SObject) -> str | None:
    for name in ("SystemModstamp", "LastModifiedDate"):
        if obj.field(name) is not None:
            return quote(name)
    return None


def _replicable(call: RestCall, name: str) -> SObject:
    obj = call.sobject(name)
    if not obj.model_dump().get("replicateable", True):
        raise SalesforceError("INVALID_TYPE", f"sObject type '{obj.name}' is not supported.")
    return obj


def updated(call: RestCall, name: str) -> Response:
    """``GET sobjects/<Object>/updated?start=&end=``: Ids of records added or changed in the window."""
    obj = _replicable(call, name)
    start, end, covered, _ = _window(call)
    stamp = _stamp_column(obj)
    found: list[str] = []
    if stamp is not None:
        live = ' AND NOT coalesce("IsDeleted", false)' if obj.field("IsDeleted") is not None else ""
        found = [
            r[0]
            for r in call.org.con.execute(
                f'SELECT "Id" FROM {call.org.table_sql(obj.name)} WHERE {stamp} >= ? AND {stamp} < ?{live} '
                f'ORDER BY {stamp}, "Id"',
                [start, end],
            ).fetchall()
        ]
    return json_response(200, {"ids": found, "latestDateCovered": format_datetime(covered)})


def deleted(call: RestCall, name: str) -> Response:
    """``GET sobjects/<Object>/deleted?start=&end=``: records moved to the recycle bin in the window."""
    obj = _replicable(call, name)
    start, end, covered, earliest = _window(call)
    stamp = _stamp_column(obj)
    records = []
    if stamp is not None and obj.field("IsDeleted") is not None:
        rows = call.org.con.execute(
            f'SELECT "Id", {stamp} FROM {call.org.table_sql(obj.name)} WHERE coalesce("IsDeleted", false) '
            f'AND {stamp} >= ? AND {stamp} < ? ORDER BY {stamp}, "Id"',
            [start, end],
        ).fetchall()
        records = [{"id": r[0], "deletedDate": format_datetime(r[1])} for r in rows]
    return json_response(
        200,
        {
            "deletedRecords": records,
            "earliestDateAvailable": format_datetime(earliest),
            "latestDateCovered": format_datetime(covered),
        },
    )


ROUTES = [
    Route(r"sobjects/(?P<name>[^/]+)/updated", GET=updated),
    Route(r"sobjects/(?P<name>[^/]+)/deleted", GET=deleted),
]
