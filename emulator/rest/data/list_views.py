"""List views: ``sobjects/<Object>/listviews``, ``.../listviews/<id>[/describe|/results]`` and ``.../listviews/recent``.

REST API Developer Guide, "List Views for an Object" (resources_listviews.htm): ``{"done",
"listviews": [{"describeUrl", "developerName", "id", "label", "resultsUrl", "soqlCompatible",
"url"}], "nextRecordsUrl", "size"}``; "List View Describe" (resources_listviewdescribe.htm): the
columns, ``orderBy``, the SOQL ``query``, ``scope``, ``sobjectType`` and ``whereCondition``
(SOAP API's DescribeSoqlListView); "List View Results" (resources_listviewresults.htm): the rows
(SOAP API's ExecuteListViewResult: ``columns``, ``developerName``, ``done``, ``id``, ``label``,
``records`` of ``{"columns": [{"fieldNameOrPath", "value"}]}``, ``size``), ``limit`` (1-2000,
default 25) and ``offset`` paging them; "Recent List Views" (resources_recentlistviews.htm): the
list views of the object used lately, most recent first.

A new org has, for each object with a standard tab, the list views the guide's examples show for
Account: All, My (scope ``mine``), New This Week and New Last Week (``CreatedDate`` of this or
last week). Their queries are real SOQL, run by the emulator's engine, so the results are the
org's rows; values are written as the list view shows them, as strings. A list view is "used"
when its results or describe are read, which is what ``recent`` lists (per org, in memory).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from crmarena_sf.emulator import ids, soql
from crmarena_sf.emulator.errors import not_found
from crmarena_sf.emulator.rest.data.tabs import STANDARD_TABS
from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.params import capped_number
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route
from crmarena_sf.metadata.model import SObject

LIST_VIEW_PREFIX = "00B"
DEFAULT_LIMIT = 25
MAX_LIMIT = 2000
HIDDEN_COLUMNS = ("Id", "CreatedDate", "LastModifiedDate", "SystemModstamp")
"""Columns every list view query selects without showing them."""

VISIBLE_COLUMNS = {
    "Account": ("Name", "Site", "BillingState", "Phone", "Type", "Owner.Alias"),
    "Contact": ("Name", "Account.Name", "Phone", "Email", "Owner.Alias"),
    "Lead": ("Name", "Company", "State", "Email", "Status", "Owner.Alias"),
    "Opportunity": ("Name", "Account.Name", "Amount", "CloseDate", "StageName", "Owner.Alias"),
    "Case": ("CaseNumber", "Contact.Name", "Subject", "Status", "Priority", "Owner.Alias"),
}
"""Shown columns of each object's standard list views (any other object: its name field and owner)."""


@dataclass(frozen=True)
class ListView:
    """One standard list view of an object."""

    id: str
    object_name: str
    developer_name: str
    label: str
    scope: str
    where: tuple[str, str] | None
    """(field, date literal) of a ``CreatedDate = THIS_WEEK`` filter, or None."""


def _views_of(obj: SObject, number: int) -> list[ListView]:
    plural = obj.labelPlural
    kinds: list[tuple[str, str, str, tuple[str, str] | None]] = [
        (f"All{plural.replace(' ', '')}", f"All {plural}", "everything", None)
    ]
    if obj.field("OwnerId") is not None:
        kinds.append((f"My{plural.replace(' ', '')}", f"My {plural}", "mine", None))
    if obj.field("CreatedDate") is not None:
        kinds.append(("NewThisWeek", "New This Week", "everything", ("CreatedDate", "THIS_WEEK")))
        kinds.append(("NewLastWeek", "New Last Week", "everything", ("CreatedDate", "LAST_WEEK")))
    return [
        ListView(ids.make_id(LIST_VIEW_PREFIX, number * 10 + i + 1), obj.name, developer, label, scope, where)
        for i, (developer, label, scope, where) in enumerate(kinds)
    ]


def org_list_views(org, object_name: str) -> list[ListView]:
    """The standard list views of ``object_name`` in ``org`` (none for an object without a tab)."""
    for number, (name, *_rest) in enumerate(STANDARD_TABS):
        if name.lower() == object_name.lower():
            obj = org.schema.get(name)
            return _views_of(obj, number) if obj is not None else []
    return []


def find_list_view(org, view_id: str) -> ListView | None:
    """The list view with Id ``view_id`` (15 or 18 characters) in ``org``, or None."""
    wanted = ids.normalize(view_id)
    if not wanted or not wanted.startswith(LIST_VIEW_PREFIX):
        return None
    for name, *_rest in STANDARD_TABS:
        for view in org_list_views(org, name):
            if view.id == wanted:
                return view
    return None


# ------------------------------------------------------------------ columns and query
def _field_of(org, obj: SObject, path: str):
    """The describe field a column path ends on (``Owner.Alias`` -> User.Alias), or None."""
    *relationships, last = path.split(".")
    current = obj
    for relationship in relationships:
        ref = next(
            (f for f in current.fields if (f.relationshipName or "").lower() == relationship.lower()), None
        )
        if ref is None or not ref.referenceTo:
            return None
        current = org.schema.get(ref.referenceTo[0])
        if current is None:
            return None
    return current.field(last)


def _column_paths(org, obj: SObject) -> list[str]:
    name_field = obj.name_field.name if obj.name_field is not None else "Id"
    wanted = VISIBLE_COLUMNS.get(obj.name, (name_field, "Owner.Alias"))
    return [path for path in wanted if _field_of(org, obj, path) is not None]


def _columns(org, view: ListView) -> list[dict[str, Any]]:
    obj = org.schema.get(view.object_name)
    sort_path = _column_paths(org, obj)[0]
    out = []
    for path in [*_column_paths(org, obj), *HIDDEN_COLUMNS]:
        field = _field_of(org, obj, path)
        numeric = field.type in ("int", "double", "currency", "percent", "date", "datetime")
        sorted_here = path == sort_path
        out.append(
            {
                "ascendingLabel": "9-0" if numeric else "Z-A",
                "descendingLabel": "0-9" if numeric else "A-Z",
                "fieldNameOrPath": path,
                "hidden": path in HIDDEN_COLUMNS,
                "label": field.label,
                "searchable": field.type in ("string", "email", "phone", "textarea", "url"),
                "selectListItem": f"toLabel({path})" if field.type == "picklist" else path,
                "sortDirection": "ascending" if sorted_here else None,
                "sortIndex": 0 if sorted_here else None,
                "sortable": bool(field.sortable),
                "type": field.type,
            }
        )
    return out


def _order_by(org, view: ListView) -> list[dict[str, str]]:
    first = _column_paths(org, org.schema.get(view.object_name))[0]
    return [
        {"fieldNameOrPath": first, "nullsPosition": "first", "sortDirection": "ascending"},
        {"fieldNameOrPath": "Id", "nullsPosition": "first", "sortDirection": "ascending"},
    ]


def list_view_query(org, view: ListView) -> str:
    """The SOQL the list view runs (its describe's ``query``)."""
    select = ", ".join(column["selectListItem"] for column in _columns(org, view))
    text = f"SELECT {select} FROM {view.object_name}"
    if view.scope == "mine":
        text += " USING SCOPE mine"
    if view.where is not None:
        text += f" WHERE {view.where[0]} = {view.where[1]}"
    order = ", ".join(
        f"{o['fieldNameOrPath']} {'ASC' if o['sortDirection'] == 'ascending' else 'DESC'} NULLS FIRST"
        for o in _order_by(org, view)
    )
    return f"{text} ORDER BY {order}"


# ------------------------------------------------------------------ documents
def _summary(call: RestCall, view: ListView) -> dict[str, Any]:
    url = f"{call.data_path}/sobjects/{view.object_name}/listviews/{view.id}"
    return {
        "describeUrl": f"{url}/describe",
        "developerName": view.developer_name,
        "id": view.id,
        "label": view.label,
        "resultsUrl": f"{url}/results",
        "soqlCompatible": True,
        "url": url,
    }


def _listing(call: RestCall, views: list[ListView]) -> Response:
    return json_response(
        200,
        {
            "done": True,
            "listviews": [_summary(call, view) for view in views],
            "nextRecordsUrl": None,
            "size": len(views),
        },
    )


def _view(call: RestCall, name: str, view_id: str) -> ListView:
    obj = call.sobject(name)
    view = find_list_view(call.org, view_id)
    if view is None or view.object_name != obj.name:
        raise not_found()
    return view


def list_views(call: RestCall, name: str) -> Response:
    """``GET sobjects/<Object>/listviews``."""
    obj = call.sobject(name)
    return _listing(call, org_list_views(call.org, obj.name))


def one_list_view(call: RestCall, name: str, view_id: str) -> Response:
    """``GET sobjects/<Object>/listviews/<id>``: the list view's basic information."""
    return json_response(200, _summary(call, _view(call, name, view_id)))


def describe_list_view(call: RestCall, name: str, view_id: str) -> Response:
    """``GET sobjects/<Object>/listviews/<id>/describe``."""
    view = _view(call, name, view_id)
    _used(call.org, view)
    where = None
    if view.where is not None:
        where = {"field": view.where[0], "operator": "equals", "values": [view.where[1]]}
    return json_response(
        200,
        {
            "columns": _columns(call.org, view),
            "id": view.id,
            "orderBy": _order_by(call.org, view),
            "query": list_view_query(call.org, view),
            "relatedEntityId": None,
            "scope": view.scope,
            "scopeEntityId": None,
            "sobjectType": view.object_name,
            "whereCondition": where,
        },
    )


def _paging(call: RestCall) -> tuple[int, int]:
    """``limit`` (1-2000, default 25) and ``offset`` (default 0); a value that is not a number in range is
    ignored, as Bulk API 2.0's ``maxRecords`` is (no error code is documented for either)."""
    limit = capped_number(call.request.param("limit") or "", MAX_LIMIT) or DEFAULT_LIMIT
    offset = capped_number(call.request.param("offset") or "", MAX_LIMIT) or 0
    return limit, offset


def _cell(record: dict[str, Any], path: str) -> str | None:
    value: Any = record
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def list_view_results(call: RestCall, name: str, view_id: str) -> Response:
    """``GET sobjects/<Object>/listviews/<id>/results[?limit=&offset=]``: the rows the list view shows."""
    view = _view(call, name, view_id)
    limit, offset = _paging(call)
    _used(call.org, view)
    columns = _columns(call.org, view)
    body = soql.query(
        call.org, list_view_query(call.org, view), batch_size=MAX_LIMIT, api_version=call.version
    )
    records = body["records"]
    while not body.get("done", True) and len(records) < offset + limit:
        body = soql.query_more(call.org, body["nextRecordsUrl"].rsplit("/", 1)[-1], api_version=call.version)
        records.extend(body["records"])
    page = records[offset : offset + limit]
    rows = [
        {
            "columns": [
                {"fieldNameOrPath": c["fieldNameOrPath"], "value": _cell(r, c["fieldNameOrPath"])}
                for c in columns
            ]
        }
        for r in page
    ]
    return json_response(
        200,
        {
            "columns": columns,
            "developerName": view.developer_name,
            "done": offset + len(page) >= len(records) and body.get("done", True),
            "id": view.id,
            "label": view.label,
            "records": rows,
            "size": len(rows),
        },
    )


# ------------------------------------------------------------------ recently used
_RECENT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_RECENT_LOCK = threading.Lock()
MAX_RECENT = 50


def _used(org, view: ListView) -> None:
    with _RECENT_LOCK:
        used = _RECENT.setdefault(org, OrderedDict())
        used.pop(view.id, None)
        used[view.id] = view
        while len(used) > MAX_RECENT:
            used.popitem(last=False)


def recent_list_views(call: RestCall, name: str) -> Response:
    """``GET sobjects/<Object>/listviews/recent``: the object's list views used lately, most recent first."""
    obj = call.sobject(name)
    with _RECENT_LOCK:
        used = list(reversed(_RECENT.get(call.org, OrderedDict()).values()))
    return _listing(call, [view for view in used if view.object_name == obj.name])


ROUTES = [
    Route(r"sobjects/(?P<name>[^/]+)/listviews", GET=list_views, read_only=True),
    Route(r"sobjects/(?P<name>[^/]+)/listviews/recent", GET=recent_list_views, read_only=True),
    Route(r"sobjects/(?P<name>[^/]+)/listviews/(?P<view_id>[^/]+)", GET=one_list_view, read_only=True),
    Route(
        r"sobjects/(?P<name>[^/]+)/listviews/(?P<view_id>[^/]+)/describe",
        GET=describe_list_view,
        read_only=True,
    ),
    Route(
        r"sobjects/(?P<name>[^/]+)/listviews/(?P<view_id>[^/]+)/results",
        GET=list_view_results,
        read_only=True,
    ),
]
