"""sObject Tree: ``POST composite/tree/<Object>`` creates parent records with nested children.

REST API Developer Guide, resources_composite_sobject_tree.htm and
responses_composite_sobject_tree.htm: children sit under their parent in the child
relationship's name (``"Contacts": {"records": [...]}``); records are created level by level
(roots, then second-level records of each type ...). Success: 201 ``{"hasErrors": false,
"results": [{"referenceId", "id"}]}`` in request order. Any error fails the whole request
(nothing is kept): 400 ``{"hasErrors": true, "results": [{"referenceId", "errors": [...]}]}``
listing only the records that failed. At most 200 records per request.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.data.collections import MAX_RECORDS, too_many_records
from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route
from crmarena_sf.metadata.model import SObject


@dataclass
class _Node:
    obj: SObject
    reference_id: Any
    values: dict[str, Any]
    level: int
    parent: _Node | None = None
    parent_field: str | None = None
    record_id: str | None = None
    error: SalesforceError | None = None
    children: list[_Node] = field(default_factory=list)


class _Failed(Exception):
    pass


def _parse(
    call: RestCall,
    obj: SObject,
    raw: Any,
    level: int,
    parent: _Node | None,
    parent_field: str | None,
    out: list[_Node],
) -> None:
    if not isinstance(raw, dict):
        raise SalesforceError(
            "JSON_PARSER_ERROR", "Cannot deserialize instance of sObject from non-object value"
        )
    attributes = raw.get("attributes") if isinstance(raw.get("attributes"), dict) else {}
    node = _Node(obj, attributes.get("referenceId"), {}, level, parent, parent_field)
    named = attributes.get("type")
    if named and (call.org.schema.get(named) is None or call.org.schema.get(named).name != obj.name):
        node.error = SalesforceError("INVALID_TYPE", f"sObject type '{named}' is not supported.")
    out.append(node)
    for key, value in raw.items():
        if key == "attributes":
            continue
        relationship = obj.child_relationship(key) if isinstance(value, dict) else None
        if relationship is not None and isinstance(value.get("records"), list):
            child_obj = call.org.schema.get(relationship.childSObject)
            for child in value["records"]:
                _parse(call, child_obj, child, level + 1, node, relationship.field, out)
        else:
            node.values[key] = value


def create_tree(call: RestCall, name: str) -> Response:
    """``POST composite/tree/<Object>``."""
    root = call.sobject(name)
    data = call.request.json()
    if not isinstance(data, dict) or not isinstance(data.get("records"), list):
        raise SalesforceError(
            "JSON_PARSER_ERROR", "Cannot deserialize instance of records from missing value"
        )
    nodes: list[_Node] = []
    for raw in data["records"]:
        _parse(call, root, raw, 1, None, None, nodes)
    if len(nodes) > MAX_RECORDS:
        raise too_many_records()
    try:
        with call.org.transaction():
            _insert_levels(call, nodes)
            if any(n.error for n in nodes):
                raise _Failed
    except _Failed:
        failed = [
            {"referenceId": n.reference_id, "errors": [n.error.to_save_error()]} for n in nodes if n.error
        ]
        return json_response(400, {"hasErrors": True, "results": failed})
    return json_response(
        201,
        {"hasErrors": False, "results": [{"referenceId": n.reference_id, "id": n.record_id} for n in nodes]},
    )


def _insert_levels(call: RestCall, nodes: list[_Node]) -> None:
    """Create roots first, then each deeper level, one batch per object type (as Salesforce does)."""
    for level in sorted({n.level for n in nodes}):
        groups: dict[str, list[_Node]] = {}
        for node in nodes:
            if node.level == level and node.error is None:
                if node.parent is not None and node.parent.record_id is None:
                    continue
                groups.setdefault(node.obj.name, []).append(node)
        for object_name, batch in groups.items():
            rows = []
            for node in batch:
                values = dict(node.values)
                if node.parent is not None and node.parent_field:
                    values[node.parent_field] = node.parent.record_id
                rows.append(values)
            for node, result in zip(batch, call.org.insert_many(object_name, rows), strict=True):
                if isinstance(result, SalesforceError):
                    node.error = result
                else:
                    node.record_id = result


ROUTES = [Route(r"composite/tree/(?P<name>[^/]+)", POST=create_tree)]
