"""Bulk API 2.0: ``jobs/ingest`` and ``jobs/query``, as simple-salesforce's ``sf.bulk2`` drives them.

Bulk API 2.0 Developer Guide (create_job.htm, upload_job_data.htm, close_job.htm,
get_job_info.htm, get_job_successful_results.htm, query_create_job.htm,
query_get_job_results.htm). Ingest: create (state ``Open``) -> ``PUT .../batches`` with CSV
(201) -> ``PATCH {"state": "UploadComplete"}`` -> the job runs (here at once) and reaches
``JobComplete`` -> ``successfulResults`` / ``failedResults`` / ``unprocessedrecords``.
Query: create (``UploadComplete``; the query runs at once) -> poll -> ``results`` pages with
``Sforce-NumberOfRecords`` and ``Sforce-Locator`` (``null`` on the last page).
"""

from __future__ import annotations

import base64
import binascii
import itertools
from dataclasses import dataclass, field
from typing import Any

from crmarena_sf.emulator import ids, soql
from crmarena_sf.emulator.error_boundary import as_salesforce_error
from crmarena_sf.emulator.errors import SalesforceError, not_found
from crmarena_sf.emulator.rest.bulk import bulk_csv
from crmarena_sf.emulator.rest.bulk.bulk_ingest import IngestOutcome, run_ingest
from crmarena_sf.emulator.rest.transport.messages import Headers, Response, empty_response, json_response
from crmarena_sf.emulator.rest.transport.params import capped_number
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route
from crmarena_sf.emulator.store.coerce import json_token
from crmarena_sf.emulator.wire import format_datetime

INGEST_OPERATIONS = ("insert", "update", "upsert", "delete", "hardDelete")
QUERY_OPERATIONS = ("query", "queryAll")
FINAL_STATES = ("JobComplete", "Failed", "Aborted")
_job_numbers = itertools.count(1)


@dataclass
class Bulk2Job:
    """One Bulk API 2.0 job and what it produced."""

    id: str
    kind: str
    """``ingest`` or ``query``."""
    operation: str
    object: str
    api_version: str
    created: Any
    created_by: str
    column_delimiter: str = "COMMA"
    line_ending: str = "LF"
    state: str = "Open"
    external_id: str | None = None
    query: str | None = None
    data: bytes | None = None
    header: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    outcome: IngestOutcome | None = None
    error_message: str | None = None

    def info(self, detailed: bool = False) -> dict[str, Any]:
        """The job-info document (``detailed`` adds the counters GET reports)."""
        stamp = format_datetime(self.created)
        body: dict[str, Any] = {
            "id": self.id,
            "operation": self.operation,
            "object": self.object,
            "createdById": self.created_by,
            "createdDate": stamp,
            "systemModstamp": stamp,
            "state": self.state,
        }
        if self.external_id:
            body["externalIdFieldName"] = self.external_id
        body.update(
            {
                "concurrencyMode": "Parallel",
                "contentType": "CSV",
                "apiVersion": float(self.api_version),
            }
        )
        if self.kind == "ingest" and self.state == "Open":
            body["contentUrl"] = f"services/data/v{self.api_version}/jobs/ingest/{self.id}/batches"
        body.update({"lineEnding": self.line_ending, "columnDelimiter": self.column_delimiter})
        if detailed:
            body["jobType"] = "V2Ingest" if self.kind == "ingest" else "V2Query"
            if self.kind == "ingest":
                outcome = self.outcome or IngestOutcome()
                body["numberRecordsProcessed"] = len(outcome.successes) + len(outcome.failures)
                body["numberRecordsFailed"] = len(outcome.failures)
            else:
                body["numberRecordsProcessed"] = len(self.rows)
            body.update(
                {
                    "retries": 0,
                    "totalProcessingTime": 0,
                    "apiActiveProcessingTime": 0,
                    "apexProcessingTime": 0,
                }
            )
            if self.error_message:
                body["errorMessage"] = self.error_message
        return body


def _jobs(call: RestCall) -> dict[str, Bulk2Job]:
    return call.router.state.setdefault("bulk2.jobs", {})  # type: ignore[return-value]


def _job(call: RestCall, job_id: str, kind: str) -> Bulk2Job:
    canonical = ids.normalize(job_id) or job_id
    job = _jobs(call).get(canonical)
    if job is None or job.kind != kind:
        raise not_found()
    return job


def _new_job(call: RestCall, kind: str, body: dict[str, Any]) -> Bulk2Job:
    operation = body.get("operation")
    allowed = INGEST_OPERATIONS if kind == "ingest" else QUERY_OPERATIONS
    if operation not in allowed:
        raise SalesforceError(
            "API_ERROR", f"Invalid value: '{operation or ''}' supplied for property: 'operation'"
        )
    delimiter = body.get("columnDelimiter") or "COMMA"
    if delimiter not in bulk_csv.DELIMITERS:
        raise SalesforceError(
            "API_ERROR", f"Invalid value: '{delimiter}' supplied for property: 'columnDelimiter'"
        )
    line_ending = body.get("lineEnding") or "LF"
    if line_ending not in bulk_csv.LINE_ENDINGS:
        raise SalesforceError(
            "API_ERROR", f"Invalid value: '{line_ending}' supplied for property: 'lineEnding'"
        )
    content_type = body.get("contentType") or "CSV"
    if content_type != "CSV":
        raise SalesforceError(
            "API_ERROR", f"Invalid value: '{content_type}' supplied for property: 'contentType'"
        )
    job_id = ids.make_id("750", next(_job_numbers))
    return Bulk2Job(
        id=job_id,
        kind=kind,
        operation=operation,
        object=str(body.get("object") or ""),
        api_version=call.version,
        created=call.org.clock.now(),
        created_by=call.org.user_id,
        column_delimiter=delimiter,
        line_ending=line_ending,
    )


_STRING_OPTIONS = (
    "object",
    "operation",
    "columnDelimiter",
    "lineEnding",
    "contentType",
    "externalIdFieldName",
    "query",
    "state",
)
"""Job properties that are strings (create_job.htm, query_create_job.htm, close_job.htm)."""


def _body(call: RestCall) -> dict[str, Any]:
    """The job request body; a property of the wrong JSON type refuses it whole (nothing is created)."""
    data = call.request.json()
    if not isinstance(data, dict):
        raise SalesforceError("JSON_PARSER_ERROR", "Cannot deserialize instance of job from non-object value")
    for name in _STRING_OPTIONS:
        value = data.get(name)
        if value is not None and not isinstance(value, str):
            raise SalesforceError(
                "JSON_PARSER_ERROR",
                f"Cannot deserialize instance of String from {json_token(value)} value: {name}",
            )
    return data


# ---------------------------------------------------------------------------- ingest
def create_ingest(call: RestCall) -> Response:
    body = _body(call)
    obj = call.org.schema.get(str(body.get("object") or ""))
    if obj is None:
        raise SalesforceError("INVALIDJOB", f"InvalidJob : Unable to find object: {body.get('object') or ''}")
    job = _new_job(call, "ingest", body)
    job.object = obj.name
    if job.operation == "upsert":
        name = str(body.get("externalIdFieldName") or "")
        key = obj.field(name)
        if key is None or not (key.externalId or key.idLookup):
            raise SalesforceError(
                "INVALIDJOB",
                f"InvalidJob : Field name provided, {name} does not match an External ID for {obj.name}",
            )
        job.external_id = key.name
    _jobs(call)[job.id] = job
    call.router.state["bulk2.ingest_jobs"] = int(call.router.state.get("bulk2.ingest_jobs", 0)) + 1
    return json_response(200, job.info())


def upload(call: RestCall, job_id: str) -> Response:
    """``PUT jobs/ingest/<id>/batches``: the job's CSV data (once)."""
    job = _job(call, job_id, "ingest")
    if job.data is not None or job.state != "Open":
        raise SalesforceError(
            "BULK_API_ERROR",
            f"Found multipe contents for job: <{job.id[:15]}>, please 'Close' / 'Abort' / 'Delete' the current "
            "Job then create a new Job and make sure you only do 'PUT' once on a given Job.",
        )
    job.data = call.request.body
    return empty_response(201)


def change_state(call: RestCall, job_id: str, kind: str) -> Response:
    """``PATCH jobs/<kind>/<id>`` with ``{"state": "UploadComplete" | "Aborted"}``."""
    job = _job(call, job_id, kind)
    wanted = _body(call).get("state")
    if wanted == "Aborted" and job.state not in FINAL_STATES:
        job.state = "Aborted"
    elif wanted == "UploadComplete" and kind == "ingest" and job.state == "Open":
        job.state = "UploadComplete"
        _process_ingest(call, job)
    else:
        raise SalesforceError("INVALIDJOBSTATE", f"Invalid job state transition from {job.state} to {wanted}")
    info = job.info()
    info["state"] = wanted
    return json_response(200, info)


def _process_ingest(call: RestCall, job: Bulk2Job) -> None:
    """Run the job's rows; whatever goes wrong, the job ends ``Failed`` (never stuck in UploadComplete)
    and a failure that stops the run midway keeps none of its rows."""
    obj = call.org.schema.get(job.object)
    try:
        job.header, rows = bulk_csv.read_rows(job.data or b"", job.column_delimiter)
    except bulk_csv.MalformedCsv as exc:
        _fail(job, f"InvalidBatch : {exc}")
        return
    unknown = next((name for name in job.header if "." not in name and obj.field(name) is None), None)
    if unknown is not None:
        # A column the object lacks fails the whole job before any row runs.
        _fail(job, f"InvalidBatch : Field name not found : {unknown}")
        return
    try:
        with call.org.transaction():
            outcome = run_ingest(call, obj, job.operation, job.external_id, job.header, rows)
    except Exception as exc:
        error = as_salesforce_error(exc, context=f"running Bulk API 2.0 job {job.id}")
        _fail(job, f"{error.error_code} : {error.message}")
        return
    job.outcome = outcome
    job.state = "JobComplete"


def _fail(job: Bulk2Job, message: str) -> None:
    job.state = "Failed"
    job.error_message = message


def ingest_results(call: RestCall, job_id: str, which: str) -> Response:
    """``successfulResults``, ``failedResults`` or ``unprocessedrecords`` as CSV."""
    job = _job(call, job_id, "ingest")
    outcome = job.outcome or IngestOutcome()
    which = which.lower()
    if which == "successfulresults":
        header = ["sf__Id", "sf__Created", *job.header]
        rows = [[rid, created, *row] for rid, created, row in outcome.successes]
    elif which == "failedresults":
        header = ["sf__Id", "sf__Error", *job.header]
        rows = [[rid, error, *row] for rid, error, row in outcome.failures]
    else:
        if job.outcome is None and job.data is not None and not job.header:
            # Data that never parsed comes back as it was uploaded.
            return Response(200, Headers({"Content-Type": "text/csv"}), bytes(job.data))
        header = list(job.header)
        rows = [] if job.outcome is not None else _parsed_rows(job)
    text = bulk_csv.write_rows(header, rows, job.column_delimiter, job.line_ending)
    return Response(200, Headers({"Content-Type": "text/csv"}), text.encode("utf-8"))


def _parsed_rows(job: Bulk2Job) -> list[list[str]]:
    try:
        return bulk_csv.read_rows(job.data or b"", job.column_delimiter)[1]
    except bulk_csv.MalformedCsv:
        return []


# ---------------------------------------------------------------------------- query
def create_query(call: RestCall) -> Response:
    body = _body(call)
    job = _new_job(call, "query", body)
    job.query = str(body.get("query") or "")
    job.object = bulk_csv.object_of_query(job.query)
    page = soql.query(
        call.org,
        job.query,
        include_deleted=job.operation == "queryAll",
        batch_size=2000,
        api_version=call.version,
    )
    records = list(page["records"])
    while not page.get("done", True) and page.get("nextRecordsUrl"):
        page = soql.query_more(call.org, page["nextRecordsUrl"].rsplit("/", 1)[-1], api_version=call.version)
        records.extend(page["records"])
    flat = [bulk_csv.flatten_record(r) for r in records]
    header: list[str] = []
    for row in flat:
        header.extend(k for k in row if k not in header)
    job.header = header or bulk_csv.select_list(job.query)
    job.rows = [[row.get(k) for k in job.header] for row in flat]
    job.state = "UploadComplete"
    info = job.info()
    job.state = "JobComplete"
    _jobs(call)[job.id] = job
    call.router.state["bulk2.query_jobs"] = int(call.router.state.get("bulk2.query_jobs", 0)) + 1
    return json_response(200, info)


def query_results(call: RestCall, job_id: str) -> Response:
    """``GET jobs/query/<id>/results[?locator=&maxRecords=]``: one page of CSV."""
    job = _job(call, job_id, "query")
    start = _locator_offset(call.request.param("locator"))
    # A maxRecords that is not a positive ASCII number is ignored; a huge one means every row.
    max_records = capped_number(call.request.param("maxRecords") or "", max(len(job.rows), 1))
    size = max_records if max_records else len(job.rows)
    page = job.rows[start : start + size]
    end = start + len(page)
    locator = base64.b64encode(str(end).encode()).decode().rstrip("=") if end < len(job.rows) else "null"
    text = bulk_csv.write_rows(job.header, page, job.column_delimiter, job.line_ending)
    headers = Headers(
        {"Content-Type": "text/csv", "Sforce-Locator": locator, "Sforce-NumberOfRecords": str(len(page))}
    )
    return Response(200, headers, text.encode("utf-8"))


def _locator_offset(locator: str | None) -> int:
    """A locator is the base64 of the next row's offset (real ones look the same: ``MTAwMDA`` = 10000)."""
    if not locator or locator == "null":
        return 0
    try:
        text = base64.b64decode(locator + "=" * (-len(locator) % 4)).decode()
        return int(text)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise SalesforceError("INVALIDLOCATOR", f"Invalid locator: {locator}") from None


# ---------------------------------------------------------------------------- shared
def get_job(call: RestCall, job_id: str, kind: str) -> Response:
    return json_response(200, _job(call, job_id, kind).info(detailed=True))


def delete_job(call: RestCall, job_id: str, kind: str) -> Response:
    job = _job(call, job_id, kind)
    if job.state not in FINAL_STATES and job.state != "UploadComplete":
        job.state = "Aborted"
    del _jobs(call)[job.id]
    return empty_response(204)


def list_jobs(call: RestCall, kind: str) -> Response:
    records = [j.info(detailed=True) for j in _jobs(call).values() if j.kind == kind]
    return json_response(200, {"done": True, "records": records, "nextRecordsUrl": None})


ROUTES = [
    Route(r"jobs/ingest", POST=create_ingest, GET=lambda call: list_jobs(call, "ingest")),
    Route(
        r"jobs/ingest/(?P<job_id>[^/]+)",
        GET=lambda call, job_id: get_job(call, job_id, "ingest"),
        PATCH=lambda call, job_id: change_state(call, job_id, "ingest"),
        DELETE=lambda call, job_id: delete_job(call, job_id, "ingest"),
    ),
    Route(r"jobs/ingest/(?P<job_id>[^/]+)/batches", PUT=upload),
    Route(
        r"jobs/ingest/(?P<job_id>[^/]+)/(?P<which>successfulResults|failedResults|unprocessedrecords)",
        GET=ingest_results,
    ),
    Route(r"jobs/query", POST=create_query, GET=lambda call: list_jobs(call, "query")),
    Route(
        r"jobs/query/(?P<job_id>[^/]+)",
        GET=lambda call, job_id: get_job(call, job_id, "query"),
        PATCH=lambda call, job_id: change_state(call, job_id, "query"),
        DELETE=lambda call, job_id: delete_job(call, job_id, "query"),
    ),
    Route(r"jobs/query/(?P<job_id>[^/]+)/results", GET=query_results),
]
