"""Bulk API 1.0's three formats: XML, JSON and CSV, read and written as the async API does.

Bulk API Developer Guide (https://developer.salesforce.com/docs/atlas.en-us.api_asynch.meta/api_asynch/):
``JobInfo`` and ``BatchInfo`` (asynch_api_reference_jobinfo.htm, asynch_api_reference_batchinfo.htm)
are XML in the ``http://www.force.com/2009/06/asyncapi/dataload`` namespace, or JSON when the
client sends JSON; batch data and results follow the job's ``contentType``
(asynch_api_batches_get_results.htm): CSV results are ``"Id","Success","Created","Error"``,
JSON results ``[{"success", "created", "id", "errors"}]``, XML ``<results><result>``. Errors
are ``<error><exceptionCode/><exceptionMessage/></error>`` (or the same keys in JSON) with
HTTP 400 (asynch_api_reference_errors.htm). JSON query results carry dates and dateTimes as
milliseconds since the epoch, as a real org sends them.
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
import re
from typing import Any
from xml.sax.saxutils import escape

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.bulk import bulk_csv
from crmarena_sf.emulator.rest.bulk.bulk_ingest import error_text
from crmarena_sf.emulator.rest.transport import xml_body
from crmarena_sf.emulator.rest.transport.json_body import parse_json_body
from crmarena_sf.emulator.rest.transport.messages import Headers, Response
from crmarena_sf.emulator.rest.transport.xml_body import XmlElement
from crmarena_sf.emulator.store.batch import RecordOutcome
from crmarena_sf.emulator.wire import format_datetime
from crmarena_sf.metadata.model import Schema

NAMESPACE = "http://www.force.com/2009/06/asyncapi/dataload"
# A real org answers /services/async with the bare media types, no charset parameter (recorded
# responses in CumulusCI's test cassettes, e.g. cumulusci/tasks/bulkdata/tests/cassettes/
# TestUpsert.test_upsert_complex_fields__bulk.yaml: application/xml, text/csv); salesforce-bulk
# compares the header with the bare type and reads nothing else.
XML_TYPE = "application/xml"
JSON_TYPE = "application/json"
CSV_TYPE = "text/csv"
MAX_DEPTH = 64
"""XML nesting accepted: batch data is four levels deep (sObjects, sObject, a parent reference, its key)."""

NO_RECORDS = "Records not found for this query"
"""What a CSV query result without rows holds instead of a header."""


class BulkError(Exception):
    """A refusal of the async API: ``exceptionCode`` and ``exceptionMessage`` (HTTP 400 unless told)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status


def wants_json(content_type: str | None) -> bool:
    return "json" in (content_type or "").lower()


# ---------------------------------------------------------------------------- XML reading
def read_xml(body: bytes) -> XmlElement:
    """The document's root; InvalidXML for what is not well-formed XML, carries a DTD or nests too deep."""
    try:
        return xml_body.read_xml(body.strip(), MAX_DEPTH)
    except xml_body.UnreadableXml as exc:
        if exc.reason == xml_body.DOCTYPE:
            raise BulkError("InvalidXML", "DOCTYPE is not allowed") from None
        if exc.reason == xml_body.TOO_DEEP:
            raise BulkError("InvalidXML", str(exc)) from None
        raise BulkError("InvalidXML", f"Failed to parse XML: {exc}") from None


def _is_nil(element: XmlElement) -> bool:
    """``xsi:nil="true"``: the field is set to null."""
    return any(k.endswith("nil") and v == "true" for k, v in element.attributes.items())


def read_info(body: bytes, content_type: str | None) -> dict[str, Any]:
    """A JobInfo request body (XML or JSON) as a dict of its elements."""
    if wants_json(content_type):
        try:
            data = parse_json_body(body)
        except SalesforceError:
            raise BulkError("InvalidJob", "Unable to parse Job") from None
        if not isinstance(data, dict):
            raise BulkError("InvalidJob", "Unable to parse Job")
        return data
    return read_xml(body).child_texts()


# ---------------------------------------------------------------------------- batch data
def read_records(body: bytes, content_type: str) -> list[dict[str, Any]]:
    """JSON or XML batch data as records (which may nest parent references by external id)."""
    if content_type == "JSON":
        try:
            data = parse_json_body(body)
        except SalesforceError as exc:
            raise BulkError("InvalidBatch", f"Failed to parse JSON: {exc.message}") from None
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise BulkError("InvalidBatch", "Records must be a JSON array of objects")
        return [{k: v for k, v in r.items() if k != "attributes"} for r in data]
    root = read_xml(body)
    return [_xml_record(node) for node in root.children if node.name == "sObject"]


def _xml_record(node: XmlElement) -> dict[str, Any]:
    record: dict[str, Any] = {}
    for child in node.children:
        if child.name == "fieldsToNull":
            record[child.text.strip()] = None
        elif child.children:
            record[child.name] = _xml_record(child)
        else:
            record[child.name] = None if _is_nil(child) else child.text
    return record


# ---------------------------------------------------------------------------- writing
def xml_response(status: int, root: str, body: str) -> Response:
    text = f'<?xml version="1.0" encoding="UTF-8"?><{root} xmlns="{NAMESPACE}">{body}</{root}>'
    return Response(status, Headers({"Content-Type": XML_TYPE}), text.encode("utf-8"))


def json_body(status: int, payload: Any) -> Response:
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return Response(status, Headers({"Content-Type": JSON_TYPE}), text.encode("utf-8"))


def error_response(error: BulkError, as_json: bool) -> Response:
    if as_json:
        return json_body(error.status, {"exceptionCode": error.code, "exceptionMessage": error.message})
    return xml_response(
        error.status,
        "error",
        f"<exceptionCode>{error.code}</exceptionCode><exceptionMessage>{escape(error.message)}</exceptionMessage>",
    )


def info_response(status: int, root: str, info: dict[str, Any], as_json: bool) -> Response:
    """A JobInfo or BatchInfo in the client's format (element order as the guide lists them)."""
    if as_json:
        return json_body(status, info)
    return xml_response(status, root, "".join(_element(k, v) for k, v in info.items()))


def batch_info_list(infos: list[dict[str, Any]], as_json: bool) -> Response:
    """``GET job/<id>/batch``: every BatchInfo of the job."""
    if as_json:
        return json_body(200, {"batchInfo": infos})
    body = "".join(
        "<batchInfo>" + "".join(_element(k, v) for k, v in i.items()) + "</batchInfo>" for i in infos
    )
    return xml_response(200, "batchInfoList", body)


def _element(name: str, value: Any) -> str:
    if isinstance(value, bool):
        value = "true" if value else "false"
    return f"<{name}>{escape(str(value))}</{name}>"


def stamp(value: dt.datetime, as_json: bool) -> str:
    """``2015-12-15T21:41:45.000Z`` in XML, ``2015-12-15T21:41:45.000+0000`` in JSON (the guide's samples)."""
    text = format_datetime(value)
    return text if as_json else text[: -len("+0000")] + "Z"


def dml_results(outcomes: list[RecordOutcome], content_type: str) -> Response:
    """The results of an insert, update, upsert or delete batch, one per record in request order."""
    if content_type == "JSON":
        return json_body(
            200,
            [
                {
                    "success": o.success,
                    "created": o.created,
                    "id": o.id or None,
                    "errors": [] if o.error is None else [_json_error(o.error)],
                }
                for o in outcomes
            ],
        )
    if content_type == "XML":
        parts = []
        for o in outcomes:
            errors = "" if o.error is None else _xml_error(o.error)
            record_id = (
                f"<id>{o.id}</id>"
                if o.id
                else '<id xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/>'
            )
            parts.append(
                f"<result>{errors}{record_id}<success>{str(o.success).lower()}</success>"
                f"<created>{str(o.created).lower()}</created></result>"
            )
        return xml_response(200, "results", "".join(parts))
    rows = [[o.id, o.success, o.created, "" if o.error is None else error_text(o.error)] for o in outcomes]
    text = bulk_csv.write_rows(["Id", "Success", "Created", "Error"], rows, "COMMA", "LF")
    return Response(200, Headers({"Content-Type": CSV_TYPE}), text.encode("utf-8"))


def _json_error(error: SalesforceError) -> dict[str, Any]:
    return {"fields": error.fields, "message": error.message, "statusCode": error.error_code}


def _xml_error(error: SalesforceError) -> str:
    fields = "".join(f"<fields>{escape(f)}</fields>" for f in error.fields)
    return f"<errors>{fields}<message>{escape(error.message)}</message><statusCode>{error.error_code}</statusCode></errors>"


def result_list(result_ids: list[str], as_json: bool) -> Response:
    """A query batch's result ids."""
    if as_json:
        return json_body(200, result_ids)
    return xml_response(200, "result-list", "".join(f"<result>{r}</result>" for r in result_ids))


def query_result(records: list[dict[str, Any]], content_type: str, schema: Schema) -> Response:
    """One query result set in the job's format."""
    if content_type == "JSON":
        return json_body(200, [_epoch_dates(r, schema) for r in records])
    if content_type == "XML":
        body = "".join(_xml_record_text(r) for r in records)
        text = (
            f'<?xml version="1.0" encoding="UTF-8"?><queryResult xmlns="{NAMESPACE}" '
            f'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">{body}</queryResult>'
        )
        return Response(200, Headers({"Content-Type": XML_TYPE}), text.encode("utf-8"))
    if not records:
        return Response(200, Headers({"Content-Type": CSV_TYPE}), NO_RECORDS.encode())
    flat = [bulk_csv.flatten_record(r) for r in records]
    header: list[str] = []
    for row in flat:
        header.extend(k for k in row if k not in header)
    text = bulk_csv.write_rows(header, [[row.get(k) for k in header] for row in flat], "COMMA", "LF")
    return Response(200, Headers({"Content-Type": CSV_TYPE}), text.encode("utf-8"))


_WIRE_DATETIME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})\+0000$")
_WIRE_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


def _epoch_dates(record: dict[str, Any], schema: Schema) -> dict[str, Any]:
    """A query record with its date and dateTime values as epoch milliseconds (Bulk API 1.0 JSON)."""
    attributes = record.get("attributes") or {}
    obj = schema.get(attributes.get("type") or "")
    out: dict[str, Any] = {}
    for key, value in record.items():
        f = obj.field(key) if obj is not None and key != "attributes" else None
        if isinstance(value, dict) and "attributes" in value:
            out[key] = _epoch_dates(value, schema)
        elif isinstance(value, str) and f is not None and f.type in ("date", "datetime"):
            out[key] = _epoch_millis(value)
        else:
            out[key] = value
    return out


def _epoch_millis(text: str) -> Any:
    match = _WIRE_DATETIME.match(text) or _WIRE_DATE.match(text)
    if match is None:
        return text
    parts = [int(p) for p in match.groups()]
    year, month, day = parts[:3]
    hour, minute, second, millis = (parts[3:] + [0, 0, 0, 0])[:4]
    seconds = calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))
    return seconds * 1000 + millis


def _xml_record_text(record: dict[str, Any], tag: str = "records") -> str:
    attributes = record.get("attributes") or {}
    parts = [f"<type>{escape(str(attributes.get('type', '')))}</type>"]
    for key, value in record.items():
        if key == "attributes":
            continue
        if isinstance(value, dict) and "attributes" in value:
            parts.append(_xml_record_text(value, key))
        elif value is None:
            parts.append(f'<{key} xsi:nil="true"/>')
        elif isinstance(value, dict):
            continue  # child subqueries are not part of Bulk API results
        else:
            parts.append(_element(key, bulk_csv.cell_text(value)))
    return f'<{tag} xsi:type="sObject">{"".join(parts)}</{tag}>'
