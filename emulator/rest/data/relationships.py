"""Relationship traversal: ``sobjects/<Object>/<Id>/<relationship>`` reads a record's parent or children.

REST API Developer Guide, "sObject Relationships"
(https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_sobject_relationships.htm):
a parent relationship (``Contact/<Id>/Account``) answers the parent record, 404 when the
reference is empty; a child relationship (``Account/<Id>/Contacts``) answers the children as a
query result ``{"totalSize", "done", "records"}``. ``?fields=A,B`` narrows the fields; without
it every field comes back. A name that is no relationship of the object is 404 NOT_FOUND.
"""

from __future__ import annotations

from crmarena_sf.emulator import soql
from crmarena_sf.emulator.errors import not_found
from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall
from crmarena_sf.metadata.model import SObject


def _field_list(call: RestCall, obj: SObject) -> str:
    wanted = [f.strip() for f in (call.request.param("fields") or "").split(",") if f.strip()]
    return ", ".join(wanted) if wanted else ", ".join(f.name for f in obj.fields)


def traverse(call: RestCall, obj: SObject, record_id: str, name: str) -> Response:
    """GET a record's parent or children by relationship name (``record_id`` is a canonical Id of ``obj``)."""
    call.org.get(obj.name, record_id, ["Id"])  # 404 when the record does not exist
    parent = obj.parent_relationship(name)
    if parent is not None:
        target_id = call.org.get(obj.name, record_id, [parent.name])[parent.name]
        target = call.org.schema.object_of_id(target_id) if target_id else None
        if target is None:
            raise not_found()
        records = soql.select_records(
            call.org, target.name, _field_list(call, target), f"Id = '{target_id}'", api_version=call.version
        )
        if not records:
            raise not_found()
        return json_response(200, records[0])
    child = obj.child_relationship(name)
    target = call.org.schema.get(child.childSObject) if child is not None else None
    if child is None or target is None or target.field(child.field) is None:
        raise not_found()
    records = soql.select_records(
        call.org,
        target.name,
        _field_list(call, target),
        f"{child.field} = '{record_id}'",
        api_version=call.version,
    )
    return json_response(200, {"totalSize": len(records), "done": True, "records": records})
