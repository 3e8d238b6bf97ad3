"""Bulk API 1.0: ``/services/async/XX.X/job`` and its batches, as simple-salesforce's ``sf.bulk`` and
jsforce's ``conn.bulk`` drive it.

Bulk API Developer Guide (https://developer.salesforce.com/docs/atlas.en-us.api_asynch.meta/api_asynch/):
create a job (asynch_api_jobs_create.htm, 201 with its JobInfo, state ``Open``), add batches
(asynch_api_batches_create.htm, 201 with a BatchInfo), close it with ``{"state": "Closed"}``
(asynch_api_jobs_close.htm) or abort it; poll a batch (asynch_api_batches_get_info.htm) and
read its results (asynch_api_batches_get_results.htm) or its request
(asynch_api_batches_get_request.htm). A query batch lists result ids whose result sets hold the
records (asynch_api_bulk_query_results.htm). The emulator runs a batch when it is added, so its
state is already ``Completed`` (or ``Failed`` with a ``stateMessage``) at the first poll.
Sessions come in the ``X-SFDC-Session`` header; a missing or unknown one is 400
``InvalidSessionId``. Records are applied by the store (:mod:`crmarena_sf.emulator.store.batch`), as Bulk API 2.0's are.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.error_boundary import as_salesforce_error
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.bulk import bulk_csv
from crmarena_sf.emulator.rest.bulk.bulk1_chunking import HEADER as CHUNKING_HEADER
from crmarena_sf.emulator.rest.bulk.bulk1_chunking import Chunking, ChunkingError, chunk_queries, requested
from crmarena_sf.emulator.rest.bulk.bulk1_formats import (
    CSV_TYPE,
    JSON_TYPE,
    XML_TYPE,
    BulkError,
    batch_info_list,
    dml_results,
    error_response,
    info_response,
    query_result,
    read_info,
    read_records,
    result_list,
    stamp,
    wants_json,
)
from crmarena_sf.emulator.rest.bulk.bulk_ingest import csv_record
from crmarena_sf.emulator.rest.data import versions
from crmarena_sf.emulator.rest.transport.messages import Headers, Request, Response
from crmarena_sf.emulator.rest.transport.resource import RestCall
from crmarena_sf.emulator.store.batch import OPERATIONS, RecordOutcome, apply_records

if TYPE_CHECKING:
    from crmarena_sf.emulator.rest.transport.router import Router

QUERY_OPERATIONS = ("query", "queryAll")
CONTENT_TYPES = ("CSV", "JSON", "XML")
MAX_RECORDS = 10000
"""Records in one batch (Bulk API and Bulk API 2.0 Limits and Allocations)."""
_numbers = itertools.count(1)


@dataclass
class Batch:
    id: str
    job_id: str
    created: Any
    data: bytes
    state: str = "Completed"
    state_message: str | None = None
    outcomes: list[RecordOutcome] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    result_id: str | None = None
    processed: int = 0

    def info(self, as_json: bool) -> dict[str, Any]:
        body: dict[str, Any] = {"id": self.id, "jobId": self.job_id, "state": self.state}
        if self.state_message:
            body["stateMessage"] = self.state_message
        when = stamp(self.created, as_json)
        failed = sum(1 for o in self.outcomes if not o.success)
        body.update(
            {
                "createdDate": when,
                "systemModstamp": when,
                "numberRecordsProcessed": self.processed,
                "numberRecordsFailed": failed,
                "totalProcessingTime": 0,
                "apiActiveProcessingTime": 0,
                "apexProcessingTime": 0,
            }
        )
        return body


@dataclass
class Bulk1Job:
    id: str
    operation: str
    object: str
    content_type: str
    created: Any
    created_by: str
    api_version: str
    concurrency: str = "Parallel"
    external_id: str | None = None
    state: str = "Open"
    batches: dict[str, Batch] = field(default_factory=dict)
    chunking: Chunking | None = None
    """PK chunking of a query job (the ``Sforce-Enable-PKChunking`` header, :mod:`.bulk1_chunking`)."""

    def info(self, as_json: bool) -> dict[str, Any]:
        when = stamp(self.created, as_json)
        batches = list(self.batches.values())
        completed = sum(1 for b in batches if b.state == "Completed")
        failed = sum(1 for b in batches if b.state == "Failed")
        body: dict[str, Any] = {
            "id": self.id,
            "operation": self.operation,
            "object": self.object,
            "createdById": self.created_by,
            "createdDate": when,
            "systemModstamp": when,
            "state": self.state,
        }
        if self.external_id:
            body["externalIdFieldName"] = self.external_id
        body.update(
            {
                "concurrencyMode": self.concurrency,
                "contentType": self.content_type,
                "numberBatchesQueued": 0,
                "numberBatchesInProgress": 0,
                "numberBatchesCompleted": completed,
                "numberBatchesFailed": failed,
                "numberBatchesTotal": len(batches),
                "numberRecordsProcessed": sum(b.processed for b in batches),
                "numberRetries": 0,
                "apiVersion": float(self.api_version) if as_json else self.api_version,
                "numberRecordsFailed": sum(1 for b in batches for o in b.outcomes if not o.success),
                "totalProcessingTime": 0,
                "apiActiveProcessingTime": 0,
                "apexProcessingTime": 0,
            }
        )
        return body


# ---------------------------------------------------------------------------- entry point
_ROUTES: list[tuple[re.Pattern, dict[str, Any]]] = []


def handle(router: Router, request: Request, version: str, rest: str | None) -> Response:
    """Answer one async API request (``rest``: the path after ``/services/async/XX.X/``); never raises."""
    rest = (rest or "").strip("/")
    as_json = wants_json(request.headers.get("Content-Type"))
    try:
        if not versions.is_supported(version):
            raise BulkError("InvalidVersion", f"Invalid API version: {version}", 404)
        if not router.accepts(request.headers.get("X-SFDC-Session") or router.session_of(request)):
            raise BulkError("InvalidSessionId", "Invalid session id")
        call = RestCall(request=request, org=router.org, router=router, version=version)
        method = "GET" if request.method == "HEAD" else request.method
        for pattern, handlers in _ROUTES:
            match = pattern.match(rest.strip("/"))
            if not match:
                continue
            handler = handlers.get(method)
            if handler is None:
                raise BulkError("InvalidUrl", f"HTTP Method '{request.method}' not allowed", 405)
            with router.org.lock:
                return handler(call, **match.groupdict())
        raise BulkError("InvalidUrl", "unknown resource", 404)
    except BulkError as exc:
        return error_response(exc, as_json)


def _jobs(call: RestCall) -> dict[str, Bulk1Job]:
    return call.router.state.setdefault("bulk1.jobs", {})  # type: ignore[return-value]


def _job(call: RestCall, job_id: str) -> Bulk1Job:
    job = _jobs(call).get(ids.normalize(job_id) or job_id)
    if job is None:
        raise BulkError("InvalidJob", f"Invalid job id: {job_id}")
    return job


def _batch(job: Bulk1Job, batch_id: str) -> Batch:
    batch = job.batches.get(ids.normalize(batch_id) or batch_id)
    if batch is None:
        raise BulkError("InvalidBatch", f"Invalid batch id: {batch_id}")
    return batch


def _answers_json(call: RestCall, job: Bulk1Job | None = None) -> bool:
    return wants_json(call.request.headers.get("Content-Type")) or (
        job is not None and job.content_type == "JSON"
    )


# ---------------------------------------------------------------------------- jobs
def create_job(call: RestCall) -> Response:
    """``POST job``: a JobInfo with ``operation``, ``object``, ``contentType`` (and ``externalIdFieldName``)."""
    as_json = _answers_json(call)
    info = read_info(call.request.body, call.request.headers.get("Content-Type"))
    operation = str(info.get("operation") or "")
    if operation not in OPERATIONS + QUERY_OPERATIONS:
        raise BulkError("InvalidJob", f"Invalid operation: {operation}")
    obj = call.org.schema.get(str(info.get("object") or ""))
    if obj is None:
        raise BulkError("InvalidJob", f"Unable to find object: {info.get('object') or ''}")
    content_type = str(info.get("contentType") or "CSV").upper()
    if content_type not in CONTENT_TYPES:
        raise BulkError("InvalidJob", f"Unsupported content type: {content_type}")
    job = Bulk1Job(
        id=ids.make_id("750", next(_numbers)),
        operation=operation,
        object=obj.name,
        content_type=content_type,
        created=call.org.clock.now(),
        created_by=call.router.user_of(call.request),
        api_version=call.version,
        concurrency="Serial" if str(info.get("concurrencyMode")) in ("Serial", "1") else "Parallel",
    )
    if operation == "upsert":
        name = str(info.get("externalIdFieldName") or "")
        key = obj.field(name)
        if key is None or not (key.externalId or key.idLookup):
            raise BulkError(
                "InvalidJob", f"Field name provided, {name} does not match an External ID for {obj.name}"
            )
        job.external_id = key.name
    if operation in QUERY_OPERATIONS:
        try:
            job.chunking = requested(call.request.headers.get(CHUNKING_HEADER))
        except ChunkingError as exc:
            raise BulkError("InvalidJob", str(exc)) from None
    _jobs(call)[job.id] = job
    return info_response(201, "jobInfo", job.info(as_json), as_json)


def job_info(call: RestCall, job_id: str) -> Response:
    """``GET job/<id>``; ``POST job/<id>`` with ``state`` Closed or Aborted changes it."""
    job = _job(call, job_id)
    as_json = _answers_json(call, job)
    if call.request.method == "POST":
        wanted = str(
            read_info(call.request.body, call.request.headers.get("Content-Type")).get("state") or ""
        )
        if wanted not in ("Closed", "Aborted"):
            raise BulkError("InvalidJobState", f"Invalid state: {wanted}")
        if job.state != "Open":
            raise BulkError("InvalidJobState", f"Job is not open: {job.state}")
        job.state = wanted
    return info_response(200, "jobInfo", job.info(as_json), as_json)


# ---------------------------------------------------------------------------- batches
def batches(call: RestCall, job_id: str) -> Response:
    """``POST job/<id>/batch`` adds (and runs) a batch; ``GET`` lists the job's batches."""
    job = _job(call, job_id)
    as_json = _answers_json(call, job)
    if call.request.method == "GET":
        infos = [b.info(as_json) for b in job.batches.values()]
        return batch_info_list(infos, as_json)
    if job.state != "Open":
        raise BulkError("InvalidJobState", f"Job is not open: {job.state}")
    if not call.request.body.strip():
        # A real org refuses the batch outright and creates none (jsforce/jsforce#545 quotes its
        # answer: "ClientInputError: Unable to find any data to create batch").
        raise BulkError("ClientInputError", "Unable to find any data to create batch")
    batch = Batch(
        id=ids.make_id("751", next(_numbers)),
        job_id=job.id,
        created=call.org.clock.now(),
        data=bytes(call.request.body),
    )
    job.batches[batch.id] = batch
    if job.chunking is not None:
        _run_chunked(call, job, batch)
    else:
        _run(call, job, batch)
    return info_response(201, "batchInfo", batch.info(as_json), as_json)


def _run_chunked(call: RestCall, job: Bulk1Job, batch: Batch) -> None:
    """PK chunking: the added batch ends ``NotProcessed`` and one batch per chunk of Ids runs its query."""
    try:
        queries = chunk_queries(
            call.org, job.object, batch.data.decode("utf-8", "replace").strip(), job.chunking
        )
    except ChunkingError as exc:
        batch.state, batch.state_message = "Failed", f"InvalidBatch : {exc}"
        return
    batch.state = "NotProcessed"
    for text in queries:
        chunk = Batch(
            id=ids.make_id("751", next(_numbers)),
            job_id=job.id,
            created=call.org.clock.now(),
            data=text.encode("utf-8"),
        )
        job.batches[chunk.id] = chunk
        _run(call, job, chunk)


def _run(call: RestCall, job: Bulk1Job, batch: Batch) -> None:
    """Run a batch at once; whatever goes wrong ends it ``Failed`` with Salesforce's wording."""
    try:
        if job.operation in QUERY_OPERATIONS:
            _run_query(call, job, batch)
        else:
            _run_dml(call, job, batch)
    except BulkError as exc:
        batch.state, batch.state_message = "Failed", f"{exc.code} : {exc.message}"
    except Exception as exc:
        error = as_salesforce_error(exc, context=f"running Bulk API batch {batch.id}")
        batch.state, batch.state_message = "Failed", f"{error.error_code} : {error.message}"


def _run_dml(call: RestCall, job: Bulk1Job, batch: Batch) -> None:
    obj = call.org.sobject(job.object)
    records: list[dict[str, Any] | SalesforceError]
    if job.content_type == "CSV":
        try:
            header, rows = bulk_csv.read_rows(batch.data, "COMMA")
        except bulk_csv.MalformedCsv as exc:
            raise BulkError("InvalidBatch", str(exc)) from None
        unknown = next((name for name in header if "." not in name and obj.field(name) is None), None)
        if unknown is not None:
            raise BulkError("InvalidBatch", f"Field name not found : {unknown}")
        records = []
        for row in rows:
            try:
                records.append(csv_record(call.org, obj, header, row))
            except SalesforceError as exc:
                records.append(exc)
    else:
        records = list(read_records(batch.data, job.content_type))
    if len(records) > MAX_RECORDS:
        raise BulkError("InvalidBatch", f"Records in a batch exceeds the maximum of {MAX_RECORDS}")
    with call.org.transaction():
        batch.outcomes = apply_records(call.org, obj, job.operation, job.external_id, records)
    batch.processed = len(batch.outcomes)


def _run_query(call: RestCall, job: Bulk1Job, batch: Batch) -> None:
    from crmarena_sf.emulator import soql

    text = batch.data.decode("utf-8", "replace").strip()
    try:
        page = soql.query(
            call.org,
            text,
            include_deleted=job.operation == "queryAll",
            batch_size=2000,
            api_version=call.version,
        )
        records = list(page["records"])
        while not page.get("done", True) and page.get("nextRecordsUrl"):
            page = soql.query_more(
                call.org, page["nextRecordsUrl"].rsplit("/", 1)[-1], api_version=call.version
            )
            records.extend(page["records"])
    except SalesforceError as exc:
        raise BulkError("InvalidBatch", f"Failed to process query: {exc.error_code}: {exc.message}") from None
    batch.records = records
    batch.result_id = ids.make_id("752", next(_numbers))
    batch.processed = len(records)


def batch_info(call: RestCall, job_id: str, batch_id: str) -> Response:
    job = _job(call, job_id)
    as_json = _answers_json(call, job)
    return info_response(200, "batchInfo", _batch(job, batch_id).info(as_json), as_json)


def batch_results(call: RestCall, job_id: str, batch_id: str) -> Response:
    """``GET .../result``: per-record results, or a query batch's result ids."""
    job = _job(call, job_id)
    batch = _batch(job, batch_id)
    if batch.state != "Completed" and not batch.outcomes:
        raise BulkError("InvalidBatch", f"Batch not completed: {batch.state_message or batch.state}")
    if job.operation in QUERY_OPERATIONS:
        return result_list([batch.result_id] if batch.result_id else [], job.content_type == "JSON")
    return dml_results(batch.outcomes, job.content_type)


def query_results(call: RestCall, job_id: str, batch_id: str, result_id: str) -> Response:
    """``GET .../result/<result id>``: the records of a query batch."""
    job = _job(call, job_id)
    batch = _batch(job, batch_id)
    if batch.result_id is None or (ids.normalize(result_id) or result_id) != batch.result_id:
        raise BulkError("InvalidBatch", f"Invalid result id: {result_id}")
    return query_result(batch.records, job.content_type, call.org.schema)


def batch_request(call: RestCall, job_id: str, batch_id: str) -> Response:
    """``GET .../request``: the batch's data as it was sent."""
    job = _job(call, job_id)
    batch = _batch(job, batch_id)
    kind = {"CSV": CSV_TYPE, "JSON": JSON_TYPE, "XML": XML_TYPE}[job.content_type]
    return Response(200, Headers({"Content-Type": kind}), batch.data)


def _route(pattern: str, **handlers: Any) -> tuple[re.Pattern, dict[str, Any]]:
    return re.compile(f"^{pattern}$"), {k.upper(): v for k, v in handlers.items()}


_ROUTES.extend(
    [
        _route(r"job", POST=create_job),
        _route(r"job/(?P<job_id>[^/]+)", GET=job_info, POST=job_info),
        _route(r"job/(?P<job_id>[^/]+)/batch", GET=batches, POST=batches),
        _route(r"job/(?P<job_id>[^/]+)/batch/(?P<batch_id>[^/]+)", GET=batch_info),
        _route(r"job/(?P<job_id>[^/]+)/batch/(?P<batch_id>[^/]+)/result", GET=batch_results),
        _route(
            r"job/(?P<job_id>[^/]+)/batch/(?P<batch_id>[^/]+)/result/(?P<result_id>[^/]+)", GET=query_results
        ),
        _route(r"job/(?P<job_id>[^/]+)/batch/(?P<batch_id>[^/]+)/request", GET=batch_request),
    ]
)
