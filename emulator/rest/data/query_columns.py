"""``GET query?q=SOQL&columns=true``: the columns of a query instead of its rows.

The REST API's query resource answers ``columns=true`` with ``{"columnMetadata": [...],
"entityName", "groupBy", "idSelected", "keyPrefix"}`` (the Developer Console's Query Editor and
the sf CLI's ``sf data query`` read it; REST API Developer Guide, "Query",
https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_query.htm).
Each column says its name, display name and type; a parent field is its relationship's column
with the field in ``joinColumns``; a child subquery is an ``aggregate`` column whose
``joinColumns`` are the subquery's; an aggregate expression is ``aggregate`` with its SOQL text
(``COUNT(Id)``) as ``displayName`` and its alias or ``exprN`` as ``columnName``.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall
from crmarena_sf.emulator.soql.bound import BoundQuery, ChildItem, ExprItem, FieldItem, TypeOfItem
from crmarena_sf.emulator.soql.errors import SoqlError
from crmarena_sf.emulator.soql.parser import SelectItem, describe_select
from crmarena_sf.emulator.soql.plans import bound_query
from crmarena_sf.metadata.model import Field

_APEX_TYPES = {
    "id": "Id",
    "reference": "Id",
    "boolean": "Boolean",
    "int": "Integer",
    "double": "Double",
    "currency": "Double",
    "percent": "Double",
    "date": "Date",
    "datetime": "Datetime",
    "time": "Time",
    "base64": "Blob",
    "address": "Address",
    "location": "Location",
}
_NUMBER_TYPES = {"int", "double", "currency", "percent"}
_TEXT_TYPES = {"string", "textarea", "picklist", "multipicklist", "combobox", "email", "phone", "url"}


def columns_response(call: RestCall, text: str, run_query) -> Response:
    """The ``columns=true`` answer for ``text``; a query that does not bind fails as the query itself would."""
    try:
        bound = bound_query(call.org.schema, text)
    except SoqlError:
        return run_query()  # raises the query's own error, worded and placed as /query words it
    return json_response(
        200,
        {
            "columnMetadata": _columns(bound, describe_select(text).items),
            "entityName": bound.obj.name,
            "groupBy": bool(bound.group),
            "idSelected": any(
                isinstance(i, FieldItem) and not i.names and i.resolved.field.name == "Id"
                for i in bound.items
            ),
            "keyPrefix": bound.obj.keyPrefix,
        },
    )


def _columns(bound: BoundQuery, written: tuple[SelectItem, ...]) -> list[dict[str, Any]]:
    """The columns of ``bound``'s items; ``written`` are the items as the query wrote them (FIELDS() has
    several items for one written, so then none is known)."""
    if len(written) != len(bound.items):
        written = (SelectItem("", 0, 0),) * len(bound.items)
    out = []
    for item, as_written in zip(bound.items, written, strict=True):
        text = as_written.text
        if isinstance(item, FieldItem):
            column = _field_column(item.resolved.field)
            for name in reversed(item.names):
                column = _column(name, joins=[column])
            out.append(column)
        elif isinstance(item, ChildItem):
            inner = as_written.subquery.items if as_written.subquery is not None else ()
            out.append(_column(item.key, aggregate=True, joins=_columns(item.query, inner)))
        elif isinstance(item, ExprItem):
            aggregate = not _is_plain_field(text)
            column = _field_column(item.field) if item.field is not None and not aggregate else None
            if column is None:
                column = _column(
                    item.key, display=_without_alias(text, item.key) or item.key, aggregate=aggregate
                )
                counted = column["displayName"].upper().startswith("COUNT")
                column["apexType"] = (
                    "Integer"
                    if counted
                    else _APEX_TYPES.get(item.field.type, "String")
                    if item.field
                    else None
                )
                column["numberType"] = counted or (
                    item.field is not None and item.field.type in _NUMBER_TYPES
                )
            column["columnName"] = item.key
            out.append(column)
        elif isinstance(item, TypeOfItem):
            out.append(_column(item.key))
    return out


def _column(name: str, *, display: str | None = None, aggregate: bool = False, joins=None) -> dict[str, Any]:
    return {
        "aggregate": aggregate,
        "apexType": None,
        "booleanType": False,
        "columnName": name,
        "custom": name.endswith("__r") or name.endswith("__c"),
        "displayName": display or name,
        "foreignKeyName": None,
        "insertable": False,
        "joinColumns": joins or [],
        "numberType": False,
        "textType": False,
        "updatable": False,
    }


def _field_column(field: Field) -> dict[str, Any]:
    column = _column(field.name)
    column.update(
        {
            "apexType": _APEX_TYPES.get(field.type, "String"),
            "booleanType": field.type == "boolean",
            "custom": field.custom,
            "insertable": bool(field.createable),
            "numberType": field.type in _NUMBER_TYPES,
            "textType": field.type in _TEXT_TYPES,
            "updatable": bool(field.updateable),
        }
    )
    return column


# ---------------------------------------------------------------------------- items as written
def _is_plain_field(text: str) -> bool:
    return bool(text) and "(" not in text


def _without_alias(text: str, key: str) -> str:
    parts = text.rsplit(None, 1)
    if len(parts) == 2 and parts[1].lower() == key.lower() and parts[0].endswith(")"):
        return parts[0].strip()
    return text.strip()
