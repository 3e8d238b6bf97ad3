"""Page layouts: ``sobjects/<Object>/describe/layouts[/<recordTypeId>]`` and ``.../describe/compactLayouts``.

REST API Developer Guide, "sObject Describe Layouts" and "Compact Layouts"
(https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_sobject_layouts.htm,
resources_compact_layouts.htm), shapes from the SOAP API's DescribeLayoutResult and
DescribeCompactLayoutsResult. An emulated org has the layouts a new org has: one page layout
per object listing its editable and read-only fields in a two-column section, its child
relationships as related lists, and the "System Default" compact layout (the record's name).
``describe/layouts`` answers ``{"layouts", "recordTypeMappings", "recordTypeSelectorRequired"}``;
``describe/layouts/<recordTypeId>`` the one layout of that record type.

"sObject Named Layouts" (resources_sobject_named_layouts.htm): ``describe/namedLayouts/<name>``
answers an alternate layout the describe lists in ``namedLayoutInfos`` (User's ``UserAlt``), of
the same shape as the object's page layout; any other name is 404 NOT_FOUND. "sObject
ApprovalLayouts" (resources_sobject_approvallayouts.htm): ``describe/approvalLayouts`` lists the
layouts of the object's approval processes, ``{"approvalLayouts": []}`` in an org without any
(approval processes are not emulated), and ``describe/approvalLayouts/<process>`` of an unknown
process is 404 NOT_FOUND.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.errors import not_found
from crmarena_sf.emulator.rest.data.describe import cached_json
from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route
from crmarena_sf.metadata.model import Field, SObject

MASTER_RECORD_TYPE = "012000000000000AAA"
"""The Id of every object's master record type."""
_HIDDEN = {"Id", "IsDeleted", "SystemModstamp", "LastViewedDate", "LastReferencedDate", "MasterRecordId"}


def _layout_fields(obj: SObject) -> list[Field]:
    return [
        f
        for f in obj.fields
        if f.name not in _HIDDEN and not f.compoundFieldName and not f.model_dump().get("deprecatedAndHidden")
    ]


def _item(field: Field, tab_order: int) -> dict[str, Any]:
    return {
        "editableForNew": bool(field.createable),
        "editableForUpdate": bool(field.updateable),
        "label": field.label,
        "layoutComponents": [
            {
                "details": field.model_dump(),
                "displayLines": 1,
                "tabOrder": tab_order,
                "type": "Field",
                "value": field.name,
            }
        ],
        "placeholder": False,
        "required": field.required_on_create,
    }


def _section(obj: SObject, layout_id: str, fields: list[Field], editable: bool) -> dict[str, Any]:
    rows = []
    for start in range(0, len(fields), 2):
        pair = fields[start : start + 2]
        items = [_item(f, start + i + 1) for i, f in enumerate(pair)]
        rows.append({"layoutItems": items, "numItems": len(items)})
    return {
        "collapsed": False,
        "columns": 2,
        "heading": f"{obj.label} {'Edit' if editable else 'Information'}",
        "layoutRows": rows,
        "layoutSectionId": ids.make_id("01B", 1),
        "parentLayoutId": layout_id,
        "rows": len(rows),
        "tabOrder": "TopToBottom",
        "useCollapsibleSection": False,
        "useHeading": True,
    }


def _related_lists(call: RestCall, obj: SObject) -> list[dict[str, Any]]:
    lists = []
    for rel in obj.childRelationships:
        child = call.org.schema.get(rel.childSObject)
        if child is None or not rel.relationshipName or child.name_field is None:
            continue
        name_field = child.name_field
        lists.append(
            {
                "accessLevelRequiredForCreate": None,
                "buttons": None,
                "columns": [
                    {
                        "field": f"{child.name}.{name_field.name}",
                        "fieldApiName": name_field.name,
                        "format": None,
                        "label": name_field.label,
                        "lookupId": "Id",
                        "name": name_field.name,
                        "sortable": True,
                    }
                ],
                "custom": child.custom,
                "field": rel.field,
                "label": child.labelPlural,
                "limitRows": 5,
                "name": rel.relationshipName,
                "sobject": child.name,
                "sort": [],
            }
        )
    return lists


def _layout(call: RestCall, obj: SObject) -> dict[str, Any]:
    layout_id = ids.make_id("00h", 1)
    fields = _layout_fields(obj)
    editable = [f for f in fields if f.createable or f.updateable]
    return {
        "buttonLayoutSection": {"detailButtons": []},
        "detailLayoutSections": [_section(obj, layout_id, fields, False)],
        "editLayoutSections": [_section(obj, layout_id, editable, True)],
        "feedView": None,
        "highlightsPanelLayoutSection": None,
        "id": layout_id,
        "multirowEditLayoutSections": [],
        "offlineLinks": [],
        "quickActionList": {"quickActionListItems": []},
        "relatedContent": None,
        "relatedLists": _related_lists(call, obj),
        "saveOptions": [],
    }


def _record_types(obj: SObject) -> list[tuple[str, str, str, bool, bool]]:
    """(Id, developer name, label, master, default) of each record type, the master one included."""
    found = [
        (rt.recordTypeId, rt.developerName, rt.name, rt.master, rt.defaultRecordTypeMapping)
        for rt in obj.recordTypeInfos
        if rt.available
    ]
    if not any(master for _, _, _, master, _ in found):
        found.append((MASTER_RECORD_TYPE, "Master", "Master", True, not found))
    return found


def describe_layouts(call: RestCall, name: str) -> Response:
    """``GET sobjects/<Object>/describe/layouts``."""
    obj = call.sobject(name)

    def build() -> dict[str, Any]:
        layout = _layout(call, obj)
        mappings = [
            {
                "available": True,
                "defaultRecordTypeMapping": default,
                "developerName": developer,
                "layoutId": layout["id"],
                "master": master,
                "name": label,
                "picklistsForRecordType": [],
                "recordTypeId": rt_id,
                "urls": {"layout": f"{call.data_path}/sobjects/{obj.name}/describe/layouts/{rt_id}"},
            }
            for rt_id, developer, label, master, default in _record_types(obj)
        ]
        return {"layouts": [layout], "recordTypeMappings": mappings, "recordTypeSelectorRequired": [False]}

    return cached_json(call, ("layouts", obj.name), build)


def record_type_layout(call: RestCall, name: str, record_type: str) -> Response:
    """``GET sobjects/<Object>/describe/layouts/<recordTypeId>``: that record type's layout."""
    obj = call.sobject(name)
    wanted = ids.normalize(record_type)
    if wanted not in {rt_id for rt_id, *_ in _record_types(obj)}:
        raise not_found()
    return cached_json(call, ("layout", obj.name), lambda: _layout(call, obj))


def _compact_layout(obj: SObject) -> dict[str, Any]:
    fields = [f for f in (obj.name_field,) if f is not None]
    return {
        "actions": [],
        "fieldItems": [_item(f, i + 1) for i, f in enumerate(fields)],
        "id": None,
        "imageItems": [],
        "label": "System Default",
        "name": "SYSTEM",
        "objectType": obj.name,
    }


def compact_layouts(call: RestCall, name: str) -> Response:
    """``GET sobjects/<Object>/describe/compactLayouts``."""
    obj = call.sobject(name)

    def build() -> dict[str, Any]:
        mappings = [
            {
                "available": True,
                "compactLayoutId": None,
                "compactLayoutName": "SYSTEM",
                "recordTypeId": rt_id,
                "recordTypeName": developer,
                "urls": {
                    "compactLayout": f"{call.data_path}/sobjects/{obj.name}/describe/compactLayouts/{rt_id}"
                },
            }
            for rt_id, developer, *_ in _record_types(obj)
        ]
        return {
            "compactLayouts": [_compact_layout(obj)],
            "defaultCompactLayoutId": None,
            "recordTypeCompactLayoutMappings": mappings,
        }

    return cached_json(call, ("compactLayouts", obj.name), build)


def compact_layout(call: RestCall, name: str, which: str) -> Response:
    """``GET sobjects/<Object>/describe/compactLayouts/primary`` (or ``/<recordTypeId>``)."""
    obj = call.sobject(name)
    if which.lower() != "primary" and ids.normalize(which) not in {rt_id for rt_id, *_ in _record_types(obj)}:
        raise not_found()
    return cached_json(call, ("compactLayout", obj.name), lambda: _compact_layout(obj))


def named_layout(call: RestCall, name: str, layout: str) -> Response:
    """``GET sobjects/<Object>/describe/namedLayouts/<name>``: an alternate layout the describe names."""
    obj = call.sobject(name)
    named = {info.get("name", "").lower() for info in (obj.model_extra or {}).get("namedLayoutInfos") or []}
    if layout.lower() not in named:
        raise not_found()
    return cached_json(call, ("namedLayout", obj.name, layout.lower()), lambda: _layout(call, obj))


def approval_layouts(call: RestCall, name: str) -> Response:
    """``GET sobjects/<Object>/describe/approvalLayouts``: none, as no approval process exists."""
    call.sobject(name)
    return json_response(200, {"approvalLayouts": []})


def approval_layout(call: RestCall, name: str, process: str) -> Response:
    """``GET sobjects/<Object>/describe/approvalLayouts/<process>``: an approval process the org lacks."""
    call.sobject(name)
    raise not_found()


ROUTES = [
    Route(r"sobjects/(?P<name>[^/]+)/describe/layouts", GET=describe_layouts),
    Route(r"sobjects/(?P<name>[^/]+)/describe/layouts/(?P<record_type>[^/]+)", GET=record_type_layout),
    Route(r"sobjects/(?P<name>[^/]+)/describe/compactLayouts", GET=compact_layouts),
    Route(r"sobjects/(?P<name>[^/]+)/describe/compactLayouts/(?P<which>[^/]+)", GET=compact_layout),
    Route(
        r"sobjects/(?P<name>[^/]+)/describe/namedLayouts/(?P<layout>[^/]+)", GET=named_layout, read_only=True
    ),
    Route(r"sobjects/(?P<name>[^/]+)/describe/approvalLayouts", GET=approval_layouts, read_only=True),
    Route(
        r"sobjects/(?P<name>[^/]+)/describe/approvalLayouts/(?P<process>[^/]+)",
        GET=approval_layout,
        read_only=True,
    ),
]
