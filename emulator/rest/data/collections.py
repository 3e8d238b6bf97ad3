"""sObject Collections: ``composite/sobjects`` (create, retrieve, update, delete, upsert up to 200 records).

REST API Developer Guide, resources_composite_sobjects_collections_*.htm: the answer is
HTTP 200 with one SaveResult per record, in request order: ``{"id", "success": true,
"errors": []}`` or ``{"success": false, "errors": [{"statusCode", "message", "fields"}]}``.
With ``allOrNone`` one failure rolls back the request and every other record reports
``ALL_OR_NONE_OPERATION_ROLLED_BACK``. More than 200 records: 400 ``EXCEEDED_ID_LIMIT``.
An upsert answers UpsertResults (SOAP API Developer Guide, "UpsertResult": ``created`` is one of
their keys, failed or not): a record that failed itself says ``created: false``, a record rolled
back by another's failure keeps the ``created`` its write had, as a real org answers (jsforce's
integration tests against a scratch org read ``created: true`` there).
"""

from __future__ import annotations

import contextlib
from typing import Any

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.error_boundary import as_salesforce_error
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.data.sobjects import render_record
from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route
from crmarena_sf.emulator.store.coerce import coerce, json_token
from crmarena_sf.emulator.store.dml import delete_many
from crmarena_sf.emulator.store.external_ids import (
    duplicate_keys_in_request,
    duplicate_value,
    external_id_field,
    upsert_many,
    upsert_one,
)

MAX_RECORDS = 200


def too_many_records() -> SalesforceError:
    return SalesforceError(
        "EXCEEDED_ID_LIMIT", "record limit reached. cannot submit more than 200 records into this call"
    )


def rolled_back() -> SalesforceError:
    return SalesforceError(
        "ALL_OR_NONE_OPERATION_ROLLED_BACK",
        "Record rolled back because not all records were valid and the request was using AllOrNone header",
    )


def no_type() -> SalesforceError:
    return SalesforceError("INVALID_TYPE", "Must send a concrete entity type.")


def _failure(error: SalesforceError) -> dict[str, Any]:
    return {"success": False, "errors": [error.to_save_error()]}


def _success(record_id: str, created: bool | None = None) -> dict[str, Any]:
    result: dict[str, Any] = {"id": record_id, "success": True, "errors": []}
    if created is not None:
        result["created"] = created
    return result


class _Rollback(Exception):
    pass


def _records_body(call: RestCall) -> tuple[list[Any], bool]:
    data = call.request.json()
    if not isinstance(data, dict) or not isinstance(data.get("records"), list):
        raise SalesforceError(
            "JSON_PARSER_ERROR", "Cannot deserialize instance of records from missing value"
        )
    if len(data["records"]) > MAX_RECORDS:
        raise too_many_records()
    return data["records"], _truthy(data.get("allOrNone"))


def _truthy(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.lower() == "true")


def _run(call: RestCall, count: int, all_or_none: bool, one) -> list[dict[str, Any]]:
    """Apply ``one(index) -> result`` to every record; with allOrNone, roll back on the first failure."""
    results: list[dict[str, Any]] = []
    try:
        with call.org.transaction() if all_or_none else contextlib.nullcontext():
            for index in range(count):
                try:
                    results.append(one(index))
                except Exception as exc:
                    # A record's write is one transaction of its own: report it failed, keep the others' results.
                    results.append(
                        _failure(as_salesforce_error(exc, context=f"on record {index} of a collection"))
                    )
            if all_or_none and any(not r["success"] for r in results):
                raise _Rollback
    except _Rollback:
        results = [r if not r["success"] else _rolled_back_result(r) for r in results]
    return results


def _rolled_back_result(result: dict[str, Any]) -> dict[str, Any]:
    """A write undone by another record's failure: ALL_OR_NONE_OPERATION_ROLLED_BACK, an upsert's
    ``created`` kept."""
    failed = _failure(rolled_back())
    if "created" in result:
        failed["created"] = result["created"]
    return failed


def _upsert_result(result: dict[str, Any]) -> dict[str, Any]:
    """An UpsertResult always says ``created``: false for a record that failed on its own."""
    return result if "created" in result else {**result, "created": False}


def _record_type(call: RestCall, record: Any):
    if not isinstance(record, dict):
        raise SalesforceError(
            "JSON_PARSER_ERROR", "Cannot deserialize instance of sObject from non-object value"
        )
    attributes = record.get("attributes")
    name = attributes.get("type") if isinstance(attributes, dict) else None
    if not name:
        raise no_type()
    if not isinstance(name, str):
        raise SalesforceError(
            "JSON_PARSER_ERROR", f"Cannot deserialize instance of String from {json_token(name)} value"
        )
    obj = call.org.schema.get(name)
    if obj is None:
        raise SalesforceError("INVALID_TYPE", f"sObject type '{name}' is not supported.")
    return obj


def _fields(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "attributes"}


def create(call: RestCall) -> Response:
    """``POST composite/sobjects``: create up to 200 records of any types."""
    records, all_or_none = _records_body(call)

    def one(index: int) -> dict[str, Any]:
        record = records[index]
        obj = _record_type(call, record)
        if record.get("Id") or record.get("id"):
            raise SalesforceError("INVALID_FIELD", "cannot specify Id in an insert call", ["Id"])
        return _success(call.org.insert(obj.name, _fields(record)))

    return json_response(200, _run(call, len(records), all_or_none, one))


def update(call: RestCall) -> Response:
    """``PATCH composite/sobjects``: update up to 200 records, each naming its Id."""
    records, all_or_none = _records_body(call)

    def one(index: int) -> dict[str, Any]:
        record = records[index]
        obj = _record_type(call, record)
        record_id = record.get("Id") or record.get("id")
        if not record_id:
            raise SalesforceError("MISSING_ARGUMENT", "Id not specified in an update call", [])
        canonical = coerce(obj.field("Id"), record_id)  # MALFORMED_ID for what is not an Id
        values = {k: v for k, v in _fields(record).items() if k.lower() != "id"}
        call.org.update(obj.name, canonical, values)
        return _success(canonical)

    return json_response(200, _run(call, len(records), all_or_none, one))


def delete(call: RestCall) -> Response:
    """``DELETE composite/sobjects?ids=a,b[&allOrNone=true]``."""
    record_ids = [i for i in (call.request.param("ids") or "").split(",") if i]
    if len(record_ids) > MAX_RECORDS:
        raise too_many_records()
    all_or_none = _truthy(call.request.param("allOrNone"))

    def one(index: int) -> dict[str, Any]:
        record_id = record_ids[index]
        canonical = ids.normalize(record_id)
        obj = call.org.schema.object_of_id(canonical) if canonical else None
        if obj is None:
            raise SalesforceError("MALFORMED_ID", f"malformed id {record_id}", [])
        call.org.delete(obj.name, canonical)
        return _success(canonical)

    results = (
        _run(call, len(record_ids), all_or_none, one) if all_or_none else _delete_together(call, record_ids)
    )
    for record_id, result in zip(record_ids, results, strict=True):
        if not result["success"]:
            result["id"] = record_id
    return json_response(200, results)


def _delete_together(call: RestCall, record_ids: list[str]) -> list[dict[str, Any]]:
    """Without allOrNone, the records of each object are deleted together (:func:`delete_many`); same answers."""
    results: list[dict[str, Any] | None] = [None] * len(record_ids)
    by_object: dict[str, list[int]] = {}
    for index, record_id in enumerate(record_ids):
        canonical = ids.normalize(record_id)
        obj = call.org.schema.object_of_id(canonical) if canonical else None
        if obj is None:
            results[index] = _failure(SalesforceError("MALFORMED_ID", f"malformed id {record_id}", []))
        else:
            by_object.setdefault(obj.name, []).append(index)
    for name, indexes in by_object.items():
        outcomes = delete_many(call.org, name, [record_ids[i] for i in indexes])
        for index, error in zip(indexes, outcomes, strict=True):
            results[index] = _failure(error) if error else _success(ids.normalize(record_ids[index]))
    return results  # type: ignore[return-value]


def retrieve(call: RestCall, name: str) -> Response:
    """``GET composite/sobjects/<Object>?ids=&fields=``: the records, ``null`` where none exists."""
    record_ids = [i for i in (call.request.param("ids") or "").split(",") if i]
    fields = [f for f in (call.request.param("fields") or "").split(",") if f]
    return _retrieved(call, name, record_ids, fields)


def retrieve_many(call: RestCall, name: str) -> Response:
    """``POST composite/sobjects/<Object>`` with ``{"ids": [...], "fields": [...]}``: the same answer
    as GET, for more Ids than a URL holds (resources_composite_sobjects_collections_retrieve.htm)."""
    data = call.request.json()
    if not isinstance(data, dict) or not isinstance(data.get("ids"), list):
        raise SalesforceError("JSON_PARSER_ERROR", "Cannot deserialize instance of ids from missing value")
    fields = data.get("fields") if isinstance(data.get("fields"), list) else []
    record_ids = [str(i) for i in data["ids"] if i]
    return _retrieved(call, name, record_ids, [str(f) for f in fields if f])


def _retrieved(call: RestCall, name: str, record_ids: list[str], fields: list[str]) -> Response:
    obj = call.sobject(name)
    if len(record_ids) > 2000:
        raise too_many_records()
    out: list[Any] = []
    for record_id in record_ids:
        try:
            values = call.org.get(obj.name, record_id, fields or None)
        except SalesforceError as exc:
            if exc.error_code == "INVALID_FIELD":
                raise
            out.append(None)
            continue
        out.append(render_record(call, obj, values, ids.normalize(record_id) or record_id))
    return json_response(200, out)


def upsert(call: RestCall, name: str, field: str) -> Response:
    """``PATCH composite/sobjects/<Object>/<ExternalIdField>``: upsert up to 200 records of one type."""
    obj = call.sobject(name)
    key = external_id_field(obj, field)
    records, all_or_none = _records_body(call)
    keys = [_key_value(record, key.name) for record in records]
    repeated = duplicate_keys_in_request(key, keys)

    def one(index: int) -> dict[str, Any]:
        record = records[index]
        record_obj = _record_type(call, record)
        if record_obj.name != obj.name:
            raise SalesforceError("INVALID_TYPE", f"sObject type '{record_obj.name}' is not supported.")
        if index in repeated:
            raise duplicate_value(key, keys[index])
        record_id, created = upsert_one(call.org, obj, key, keys[index], _fields(record))
        return _success(record_id, created=created)

    if all_or_none:
        results = _run(call, len(records), all_or_none, one)
    else:
        results = _upsert_together(call, obj, key, records, keys, repeated)
    return json_response(200, [_upsert_result(r) for r in results])


def _upsert_together(
    call: RestCall, obj, key, records: list, keys: list, repeated: set[int]
) -> list[dict[str, Any]]:
    """Without allOrNone, the records are upserted together (:func:`upsert_many`: one lookup, one
    insert), with the answers one by one would give."""
    results: list[dict[str, Any] | None] = [None] * len(records)
    together: list[int] = []
    for index, record in enumerate(records):
        try:
            record_obj = _record_type(call, record)
            if record_obj.name != obj.name:
                raise SalesforceError("INVALID_TYPE", f"sObject type '{record_obj.name}' is not supported.")
            if index in repeated:
                raise duplicate_value(key, keys[index])
            together.append(index)
        except SalesforceError as exc:
            results[index] = _failure(exc)
    rows = [(keys[i], _fields(records[i])) for i in together]
    try:
        outcomes = upsert_many(call.org, obj, key, rows) if rows else []
    except Exception as exc:
        error = as_salesforce_error(exc, context="upserting a collection")
        outcomes = [error] * len(rows)
    for index, outcome in zip(together, outcomes, strict=True):
        if isinstance(outcome, SalesforceError):
            results[index] = _failure(outcome)
        else:
            results[index] = _success(outcome[0], created=outcome[1])
    return results  # type: ignore[return-value]


def _key_value(record: Any, name: str) -> Any:
    if not isinstance(record, dict):
        return None
    return next((v for k, v in record.items() if k.lower() == name.lower()), None)


ROUTES = [
    Route(r"composite/sobjects", POST=create, PATCH=update, DELETE=delete),
    Route(r"composite/sobjects/(?P<name>[^/]+)", GET=retrieve, POST=retrieve_many),
    Route(r"composite/sobjects/(?P<name>[^/]+)/(?P<field>[^/]+)", PATCH=upsert),
]
