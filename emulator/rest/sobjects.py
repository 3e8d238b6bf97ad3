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

from emulator import ids
from emulator.errors import SalesforceError, not_found
from emulator.rest.describe import basic_info
from emulator.rest.messages import Headers, Response, empty_response, json_response
from emulator.rest.routing import Call, Route, method_not_allowed
from emulator.store.coerce import coerce
from emulator.store.ddl import quote
from emulator.store.dml import required_missing
from emulator.wire import to_json
from metadata.model import Field, SObject

UPSERT_RETURNS_200 = 46.0
"""From API 46.0 an upsert that updates answers 200 with a body instead of 204."""

_TEXT_TYPES = {"string", "email", "phone", "url", "textarea", "picklist", "combobox", "encryptedstring"}


# ---------------------------------------------------------------------------- rendering
def render_record(call: Call, obj: SObject, values: dict[str, Any], record_id: str) -> dict[str, Any]:
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


def body_object(call: Call) -> dict[str, Any]:
    """The request body as a JSON object, or JSON_PARSER_ERROR as a real org answers a non-object."""
    data = call.request.json()
    if not isinstance(data, dict):
        kind = "START_ARRAY" if isinstance(data, list) else "VALUE_STRING"
        raise SalesforceError(
            "JSON_PARSER_ERROR",
            f"Cannot deserialize instance of sObject from {kind} value [line:1, column:1]",
        )
    return data


def own_record_id(obj: SObject, text: str) -> str | None:
    """The 18-character Id ``text`` names when it is an Id of ``obj``, else None."""
    canonical = ids.normalize(text)
    if canonical is None or not obj.keyPrefix or not canonical.startswith(obj.keyPrefix):
        return None
    return canonical


def no_such_external_id_field(name: str) -> SalesforceError:
    return SalesforceError(
        "NOT_FOUND", f"Provided external ID field does not exist or is not accessible: {name}", status=404
    )


def _deleted_is_not_found(exc: SalesforceError) -> SalesforceError:
    """A write to a record in the recycle bin answers 404 ENTITY_IS_DELETED on the record's URL."""
    if exc.error_code == "ENTITY_IS_DELETED":
        exc.status = 404
    return exc


# ---------------------------------------------------------------------------- handlers
def object_info(call: Call, name: str) -> Response:
    return basic_info(call, name)


def create(call: Call, name: str) -> Response:
    obj = call.sobject(name)
    record_id = call.org.insert(obj.name, body_object(call))
    return json_response(201, save_result(record_id))


def record(call: Call, name: str, ref: str) -> Response:
    """GET/PATCH/DELETE ``sobjects/X/<Id>``."""
    obj = call.sobject(name)
    method = call.request.method
    if ref.lower() == "id" and method == "POST":
        record_id = call.org.insert(obj.name, body_object(call))
        return json_response(201, save_result(record_id, created=True))
    if method == "POST":
        raise method_not_allowed(method, ROUTES[1])
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


def by_external_id(call: Call, name: str, field: str, value: str) -> Response:
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
    key = external_id_field(obj, field)
    if method == "PATCH":
        return upsert(call, obj, key, value, body_object(call))
    matches = find_by_external_id(call, obj, key, value)
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


# ---------------------------------------------------------------------------- external ids
def external_id_field(obj: SObject, name: str) -> Field:
    """The field an upsert or lookup may key on: an External ID field or an idLookup field (``Id``,
    ``Contact.Email`` ...), as the SOAP API's upsert() describes; else 404 NOT_FOUND."""
    f = obj.field(name)
    if f is None or not (f.externalId or f.idLookup):
        raise no_such_external_id_field(name)
    return f


def matches_ignoring_case(field: Field) -> bool:
    """Custom external ids match case-insensitively only when Unique and not case-sensitive
    (Apex Developer Guide, "Upserting Records"); standard text lookups ignore case like SOQL."""
    if field.type not in _TEXT_TYPES:
        return False
    if field.custom:
        return field.unique and not field.caseSensitive
    return not field.caseSensitive


def upsert_one(call: Call, obj: SObject, key: Field, value: Any, values: dict[str, Any]) -> tuple[str, bool]:
    """Update the one live record whose ``key`` is ``value`` with ``values``, or create one; (Id, created).

    A record without a value for the key is REQUIRED_FIELD_MISSING (keyed on ``Id``, see :func:`_upsert_by_id`).
    Several matches are DUPLICATE_EXTERNAL_ID, as collections and Bulk API upserts report them
    (the single-record resource answers 300 instead and does not come here).
    """
    if key.name == "Id":
        return _upsert_by_id(call, obj, key, value, values)
    if value is None:
        raise required_missing([key.name])
    matches = find_by_external_id(call, obj, key, value)
    if len(matches) > 1:
        raise SalesforceError(
            "DUPLICATE_EXTERNAL_ID",
            f"{key.label}: more than one record found for external id field: [{', '.join(matches)}]",
            [key.name],
        )
    if matches:
        changes = {k: v for k, v in values.items() if k.lower() not in ("id", key.name.lower())}
        call.org.update(obj.name, matches[0], changes)
        return matches[0], False
    return call.org.insert(obj.name, {k: v for k, v in values.items() if k.lower() != "id"}), True


def upsert_many(
    call: Call, obj: SObject, key: Field, rows: list[tuple[Any, dict[str, Any]]]
) -> list[tuple[str, bool] | SalesforceError]:
    """:func:`upsert_one` for many ``(key value, values)`` rows, with the same result per row: the
    matches are found with one query and the new records created with one insert (a collection or
    a Bulk API job of 200 new records costs one write, not 200). Rows that share a key value, and
    upserts keyed on ``Id``, depend on their order and go one by one."""
    if key.name == "Id" or _shares_a_key(key, rows):
        return [_upsert_or_error(call, obj, key, value, values) for value, values in rows]
    results: list[tuple[str, bool] | SalesforceError | None] = [None] * len(rows)
    typed: dict[int, Any] = {}
    for index, (value, _) in enumerate(rows):
        if value is None:
            results[index] = required_missing([key.name])
            continue
        try:
            typed[index] = coerce(key, value)
        except SalesforceError:
            typed[index] = None  # matches nothing; the insert reports the value's own error
    found = find_many_by_external_id(call, obj, key, [v for v in typed.values() if v is not None])
    inserts: list[int] = []
    for index, value in typed.items():
        matches = found.get(external_id_match_key(key, value), []) if value is not None else []
        values = rows[index][1]
        if len(matches) > 1:
            results[index] = SalesforceError(
                "DUPLICATE_EXTERNAL_ID",
                f"{key.label}: more than one record found for external id field: [{', '.join(matches)}]",
                [key.name],
            )
        elif matches:
            changes = {k: v for k, v in values.items() if k.lower() not in ("id", key.name.lower())}
            try:
                call.org.update(obj.name, matches[0], changes)
                results[index] = (matches[0], False)
            except SalesforceError as exc:
                results[index] = exc
        else:
            inserts.append(index)
    if inserts:
        new_rows = [{k: v for k, v in rows[i][1].items() if k.lower() != "id"} for i in inserts]
        try:
            created: list[Any] = call.org.insert_many(obj.name, new_rows)
        except SalesforceError as exc:
            created = [exc] * len(inserts)
        for index, outcome in zip(inserts, created, strict=True):
            results[index] = outcome if isinstance(outcome, SalesforceError) else (outcome, True)
    return results  # type: ignore[return-value]


def _upsert_or_error(call: Call, obj: SObject, key: Field, value: Any, values: dict[str, Any]):
    try:
        return upsert_one(call, obj, key, value, values)
    except SalesforceError as exc:
        return exc


def external_id_match_key(key: Field, value: Any) -> Any:
    """What :func:`find_many_by_external_id` keys its answer by: the value, lower-cased where matching ignores case."""
    return str(value).lower() if matches_ignoring_case(key) else value


def _shares_a_key(key: Field, rows: list[tuple[Any, dict[str, Any]]]) -> bool:
    seen = set()
    for value, _ in rows:
        if value is None:
            continue
        marker = external_id_match_key(key, value) if isinstance(value, str) else repr(value)
        if marker in seen:
            return True
        seen.add(marker)
    return False


def find_many_by_external_id(call: Call, obj: SObject, key: Field, values: list[Any]) -> dict[Any, list[str]]:
    """Live records whose ``key`` is one of ``values``: match key -> Ids (see :func:`find_by_external_id`)."""
    if not values:
        return {}
    column = quote(key.name)
    live = ' AND NOT coalesce("IsDeleted", false)' if obj.field("IsDeleted") is not None else ""
    if matches_ignoring_case(key):
        where, params = f"lower({column}) IN (SELECT lower(unnest(?::VARCHAR[])))", [[str(v) for v in values]]
        select = f"lower({column})"
    else:
        where, params = f"{column} IN (SELECT unnest(?))", [values]
        select = column
    found: dict[Any, list[str]] = {}
    rows = call.org.con.execute(
        f'SELECT {select}, "Id" FROM {call.org.table_sql(obj.name)} WHERE {where}{live} ORDER BY "Id"', params
    ).fetchall()
    for match, record_id in rows:
        found.setdefault(match, []).append(record_id)
    return found


def _upsert_by_id(
    call: Call, obj: SObject, key: Field, value: Any, values: dict[str, Any]
) -> tuple[str, bool]:
    """Upsert keyed on ``Id``: no Id creates (Mobile SDK Developer Guide, "Collection Upsert"); a
    malformed one is MALFORMED_ID and an Id naming no record of the object is NOT_FOUND, as
    ``PATCH sobjects/X/Id/<value>`` answers; nothing is created for either."""
    changes = {k: v for k, v in values.items() if k.lower() != "id"}
    if value is None or value == "":
        return call.org.insert(obj.name, changes), True
    record_id = existing_record_id(call, obj, key, value)
    call.org.update(obj.name, record_id, changes)
    return record_id, False


def existing_record_id(call: Call, obj: SObject, key: Field, value: Any) -> str:
    """The live record ``value`` names as an ``Id``: MALFORMED_ID when it is not an Id at all,
    NOT_FOUND when no record of ``obj`` has it."""
    coerce(key, value)  # MALFORMED_ID ("Account ID: id value of incorrect type: ...") or a type error
    matches = find_by_external_id(call, obj, key, value)
    if not matches:
        raise not_found()
    return matches[0]


def find_by_external_id(call: Call, obj: SObject, field: Field, value: Any) -> list[str]:
    """Ids of live records whose ``field`` equals ``value`` (see :func:`matches_ignoring_case`)."""
    if field.name == "Id":
        record_id = own_record_id(obj, value) if isinstance(value, str) else None
        if record_id is None:
            return []
        typed: Any = record_id
    else:
        try:
            typed = coerce(field, value)
        except SalesforceError:
            return []
    if typed is None:
        return []
    column = quote(field.name)
    live = ' AND NOT coalesce("IsDeleted", false)' if obj.field("IsDeleted") is not None else ""
    if matches_ignoring_case(field):
        where, param = f"lower({column}) = lower(?)", str(typed)
    else:
        where, param = f"{column} = ?", typed
    rows = call.org.con.execute(
        f'SELECT "Id" FROM {quote(obj.name)} WHERE {where}{live} ORDER BY "Id"', [param]
    ).fetchall()
    return [r[0] for r in rows]


def upsert(call: Call, obj: SObject, field: Field, value: str, body: dict[str, Any]) -> Response:
    """Insert or update the record keyed by ``field`` = ``value`` (see the module docstring for statuses)."""
    matches = find_by_external_id(call, obj, field, value)
    if len(matches) > 1:
        return json_response(300, [call.record_url(obj.name, m) for m in matches])
    if not matches:
        if field.name == "Id":
            existing_record_id(call, obj, field, value)  # MALFORMED_ID or NOT_FOUND
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
    Route(r"sobjects/(?P<name>[^/]+)", GET=object_info, POST=create),
    Route(r"sobjects/(?P<name>[^/]+)/(?P<ref>[^/]+)", GET=record, PATCH=record, DELETE=record, POST=record),
    Route(
        r"sobjects/(?P<name>[^/]+)/(?P<field>[^/]+)/(?P<value>.+)",
        GET=by_external_id,
        PATCH=by_external_id,
        DELETE=by_external_id,
    ),
]
