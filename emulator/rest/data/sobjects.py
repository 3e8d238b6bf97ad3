"""Records: ``sobjects/<Object>[/<Id> | /<ExternalIdField>/<value>]``.

REST API Developer Guide, "sObject Rows" and "sObject Rows by External ID"
(resources_sobject_retrieve.htm, resources_sobject_upsert.htm, dome_upsert.htm):

- ``POST sobjects/X`` creates: 201 ``{"id", "success": true, "errors": []}``;
- ``GET sobjects/X/<Id>[?fields=A,B]``: 200 the record with ``attributes``, fields in describe order;
- ``PATCH sobjects/X/<Id>``: 204; ``DELETE``: 204 (to the recycle bin);
- ``PATCH sobjects/X/<Field>/<value>`` upserts: no match 201 (``created: true``), one match 200
  (``created: false``; 204 before API 46.0), several 300 with the matching records' URLs
  (``?updateOnly=true``: no match is 404 instead of a create);
  a field that is not an external id: 404 ``Provided external ID field does not exist or is not
  accessible: <Field>``; ``POST sobjects/X/Id`` creates (API 37.0+);
- ``GET``/``DELETE sobjects/X/<Field>/<value>`` act on the one record with that value.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.emulator.errors import SalesforceError, not_found
from crmarena_sf.emulator.rest.data.describe import basic_info
from crmarena_sf.emulator.rest.transport.messages import Headers, Response, empty_response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route, method_not_allowed
from crmarena_sf.emulator.store.external_ids import (
    existing_record_id,
    external_id_field,
    find_by_external_id,
    no_such_external_id_field,
    own_record_id,
)
from crmarena_sf.emulator.wire import to_json
from crmarena_sf.metadata.model import Field, SObject

SUBRESOURCES = frozenset(
    "describe listviews quickactions defaultvalues layouts compactlayouts approvallayouts updated deleted "
    "relevantitems eventschema suggestedcontroller platformaction richtextimageurl userpassword".split()
)
"""Names under ``sobjects/<Object>/`` that are resources of their own, not external id fields: one the
emulator does not serve is 404 NOT_FOUND, as an unknown resource is (REST API Developer Guide, "sObject
Basic Information" lists them)."""

UPSERT_RETURNS_200 = 46.0
"""From API 46.0 an upsert that updates answers 200 with a body instead of 204."""


# ---------------------------------------------------------------------------- rendering
def render_record(call: RestCall, obj: SObject, values: dict[str, Any], record_id: str) -> dict[str, Any]:
    """A record as REST returns it: ``attributes`` first, then the fields in the order given."""
    url = call.record_url(obj.name, record_id)
    blobs = _blob_fields(obj)
    out: dict[str, Any] = {"attributes": {"type": obj.name, "url": url}}
    for name, value in values.items():
        if value is None or type(value) in (str, bool, int):
            out[name] = value
        elif name in blobs:
            # Blobs are not inlined: the record points at the blob's own resource.
            out[name] = f"{url}/{name}"
        elif isinstance(value, dict):
            out[name] = {key: to_json(v) for key, v in value.items()}
        else:
            out[name] = to_json(value)
    return out


def _blob_fields(obj: SObject) -> frozenset[str]:
    return frozenset(f.name for f in obj.fields if f.type == "base64")


def save_result(record_id: str, created: bool | None = None) -> dict[str, Any]:
    """``{"id", "success": true, "errors": []}`` (plus ``created`` for an upsert)."""
    body: dict[str, Any] = {"id": record_id, "success": True, "errors": []}
    if created is not None:
        body["created"] = created
    return body


def body_object(call: RestCall) -> dict[str, Any]:
    """The request body as a JSON object, or JSON_PARSER_ERROR as a real org answers a non-object."""
    data = call.request.json()
    if not isinstance(data, dict):
        kind = "START_ARRAY" if isinstance(data, list) else "VALUE_STRING"
        raise SalesforceError(
            "JSON_PARSER_ERROR",
            f"Cannot deserialize instance of sObject from {kind} value [line:1, column:1]",
        )
    return data


def _deleted_is_not_found(exc: SalesforceError) -> SalesforceError:
    """A write to a record in the recycle bin answers 404 ENTITY_IS_DELETED on the record's URL."""
    if exc.error_code == "ENTITY_IS_DELETED":
        exc.status = 404
    return exc


# ---------------------------------------------------------------------------- handlers
def object_info(call: RestCall, name: str) -> Response:
    return basic_info(call, name)


def create(call: RestCall, name: str) -> Response:
    obj = call.sobject(name)
    record_id = call.org.insert(obj.name, body_object(call))
    return json_response(201, save_result(record_id))


def record(call: RestCall, name: str, ref: str) -> Response:
    """GET/PATCH/DELETE ``sobjects/X/<Id>``."""
    obj = call.sobject(name)
    method = call.request.method
    if ref.lower() == "id" and method == "POST":
        record_id = call.org.insert(obj.name, body_object(call))
        return json_response(201, save_result(record_id, created=True))
    if method == "POST":
        raise method_not_allowed(method, ROUTES[1])
    if ref.lower() in SUBRESOURCES and obj.field(ref) is None:
        raise not_found()
    record_id = own_record_id(obj, ref)
    if record_id is None:
        raise no_such_external_id_field(ref)
    if method in ("GET", "HEAD"):
        fields_param = call.request.param("fields")
        fields = [f.strip() for f in fields_param.split(",") if f.strip()] if fields_param else None
        values = call.org.get(obj.name, record_id, fields)
        return json_response(200, render_record(call, obj, values, record_id))
    if method == "PATCH":
        try:
            call.org.update(obj.name, record_id, body_object(call))
        except SalesforceError as exc:
            raise _deleted_is_not_found(exc) from None
        return empty_response(204)
    try:
        call.org.delete(obj.name, record_id)
    except SalesforceError as exc:
        raise _deleted_is_not_found(exc) from None
    return empty_response(204)


def by_external_id(call: RestCall, name: str, field: str, value: str) -> Response:
    """``sobjects/X/<Field>/<value>``: upsert (PATCH), get, delete; or a blob ``sobjects/X/<Id>/<Body>``."""
    obj = call.sobject(name)
    method = call.request.method
    blob = _blob_field(obj, field, value)
    if blob is not None:
        if method not in ("GET", "HEAD"):
            raise method_not_allowed(method, Route("", GET=by_external_id))
        record_id, blob_field = blob
        data = call.org.get(obj.name, record_id, [blob_field.name])[blob_field.name]
        return Response(200, Headers({"Content-Type": "application/octetstream"}), bytes(data or b""))
    parent_id = own_record_id(obj, field) if obj.field(field) is None else None
    if parent_id is not None and "/" not in value:
        if method not in ("GET", "HEAD"):
            raise method_not_allowed(method, Route("", GET=by_external_id))
        from crmarena_sf.emulator.rest.data.relationships import traverse

        return traverse(call, obj, parent_id, value)
    if obj.field(field) is None and (field.lower() in SUBRESOURCES or parent_id is not None):
        raise not_found()  # an unknown resource under the object or under one of its records
    key = external_id_field(obj, field)
    if method == "PATCH":
        return upsert(call, obj, key, value, body_object(call))
    matches = find_by_external_id(call.org, obj, key, value)
    if not matches:
        raise not_found()
    if len(matches) > 1:
        return json_response(300, [call.record_url(obj.name, m) for m in matches])
    if method == "DELETE":
        call.org.delete(obj.name, matches[0])
        return empty_response(204)
    values = call.org.get(obj.name, matches[0])
    return json_response(200, render_record(call, obj, values, matches[0]))


def _blob_field(obj: SObject, first: str, second: str) -> tuple[str, Field] | None:
    record_id = own_record_id(obj, first)
    f = obj.field(second) if "/" not in second else None
    if record_id is None or f is None or f.type != "base64":
        return None
    return record_id, f


def upsert(call: RestCall, obj: SObject, field: Field, value: str, body: dict[str, Any]) -> Response:
    """Insert or update the record keyed by ``field`` = ``value`` (see the module docstring for statuses)."""
    matches = find_by_external_id(call.org, obj, field, value)
    if len(matches) > 1:
        return json_response(300, [call.record_url(obj.name, m) for m in matches])
    if not matches:
        if field.name == "Id":
            existing_record_id(call.org, obj, field, value)  # MALFORMED_ID or NOT_FOUND
        if (call.request.param("updateOnly") or "").lower() == "true":
            raise not_found()
        values = {k: v for k, v in body.items() if obj.field(k) is None or obj.field(k).name != field.name}
        values[field.name] = value
        record_id = call.org.insert(obj.name, values)
        return json_response(201, save_result(record_id, created=True))
    changes = {k: v for k, v in body.items() if obj.field(k) is None or obj.field(k).name != field.name}
    call.org.update(obj.name, matches[0], changes)
    if call.api_version_number < UPSERT_RETURNS_200:
        return empty_response(204)
    return json_response(200, save_result(matches[0], created=False))


ROUTES = [
    Route(r"sobjects/(?P<name>[^/]+)", GET=object_info, POST=create, read_only=True),
    Route(
        r"sobjects/(?P<name>[^/]+)/(?P<ref>[^/]+)",
        GET=record,
        PATCH=record,
        DELETE=record,
        POST=record,
        read_only=True,
    ),
    Route(
        r"sobjects/(?P<name>[^/]+)/(?P<field>[^/]+)/(?P<value>.+)",
        read_only=True,
        GET=by_external_id,
        PATCH=by_external_id,
        DELETE=by_external_id,
    ),
]
