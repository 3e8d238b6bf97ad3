"""The rows of ActivityHistory and OpenActivity: the org's tasks and events, read where a subquery names them.

Object Reference, "ActivityHistory" and "OpenActivity": ActivityHistory holds a record's closed
tasks and its events that have ended; OpenActivity its open tasks and its events to come. Both are
read-only views of Task and Event, so their table in the org stays empty and a query reads them
here instead: :func:`activity_source` is the derived table that stands in for the object's table.
An activity's ``AccountId`` is the account it concerns: the ``WhatId`` itself when that is an
account, else the account of the related record (a contact named by ``WhoId``, or the
opportunity, case, contract, order, asset or quote of ``WhatId``), which is how an account's list
includes its contacts' activities. Events are past or coming by the org's day (the compile
context's ``today``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from crmarena_sf.metadata.model import Schema
from sqlglot import exp, parse_one

ACTIVITY_OBJECTS = ("ActivityHistory", "OpenActivity")
_ACCOUNT_OF = ("Opportunity", "Case", "Contract", "Order", "Asset", "Quote")
"""Objects a WhatId can name whose AccountId is the activity's account."""

_TASK = {
    "IsTask": "true",
    "ActivityDateTime": "NULL",
    "IsAllDayEvent": "false",
    "DurationInMinutes": "NULL",
    "StartDateTime": "NULL",
    "EndDateTime": "NULL",
    "Location": "NULL",
    "ActivityType": "'Task'",
    "ActivitySubtype": '{a}."TaskSubtype"',
}
_EVENT = {
    "IsTask": "false",
    "Status": "NULL",
    "Priority": "NULL",
    "IsHighPriority": "false",
    "IsClosed": "{past}",
    "ActivityType": "'Event'",
    "CallDurationInSeconds": "NULL",
    "CallType": "NULL",
    "CallDisposition": "NULL",
    "ActivitySubtype": '{a}."EventSubtype"',
}


def activity_source(
    name: str, schema: Schema, today: dt.date, table: Callable[[str], str]
) -> exp.Expression | None:
    """The derived table holding ``name``'s rows (None for any other object); ``table(object)`` is the
    SQL naming an object's table for the org being queried (a fork's, or the parent's it reads)."""
    if name not in ACTIVITY_OBJECTS or schema.get("Task") is None or schema.get("Event") is None:
        return None
    columns = [f.name for f in schema.get(name).stored_fields]
    day = f"DATE '{today.isoformat()}'"
    event_past = f'(coalesce(CAST(e."EndDateTime" AS DATE), e."ActivityDate") < {day})'
    history = name == "ActivityHistory"
    task_rows = _select("t", table("Task"), columns, _TASK, schema, table)
    event_rows = _select("e", table("Event"), columns, _EVENT, schema, table).replace("{past}", event_past)
    task_filter = 't."IsClosed"' if history else 'NOT coalesce(t."IsClosed", false)'
    event_filter = event_past if history else f"NOT {event_past}"
    sql = f"{task_rows} WHERE {task_filter} UNION ALL {event_rows} WHERE {event_filter}"
    return parse_one(sql, dialect="duckdb")


def _select(
    alias: str, source: str, columns: list[str], special: dict[str, str], schema: Schema, table: Callable
) -> str:
    own = schema.get("Task" if alias == "t" else "Event")
    parts = []
    for column in columns:
        if column == "AccountId":
            expression = _account_of(alias, schema, table)
        elif column in special:
            expression = special[column].replace("{a}", alias)
        elif own.field(column) is not None:
            expression = f'{alias}."{column}"'
        else:
            expression = "NULL"
        parts.append(f'{expression} AS "{column}"')
    return f"SELECT {', '.join(parts)} FROM {source} {alias}"


def _account_of(alias: str, schema: Schema, table: Callable) -> str:
    """The activity's account: its WhatId when an account's, else the related record's AccountId."""
    choices = [f'CASE WHEN {alias}."WhatId" LIKE \'001%\' THEN {alias}."WhatId" END']
    for name in ("Contact", *_ACCOUNT_OF):
        obj = schema.get(name)
        if obj is None or obj.field("AccountId") is None:
            continue
        key = "WhoId" if name == "Contact" else "WhatId"
        choices.append(f'(SELECT x."AccountId" FROM {table(name)} x WHERE x."Id" = {alias}."{key}")')
    return f"coalesce({', '.join(choices)})"
