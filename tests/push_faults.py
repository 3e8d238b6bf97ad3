"""A real org's failures, played over the emulator at the HTTP level with ``responses``.

:class:`FaultyOrg` answers every Salesforce host like ``crmarena_sf.mock_salesforce`` (the
emulator's router behind ``responses``), except where a rule answers first. Rules reproduce what
only a real org does: a refused login, an expired password, the API switched off, the day's API
requests running out midway, full data storage, and rows a Bulk API 2.0 job or a collection
refuses (``failedResults``, SaveResults with errors), with Salesforce's own codes and messages
(REST API Developer Guide, "Status Codes and Error Responses"; Bulk API 2.0 Developer Guide,
"Get Job Failed Record Results").
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from typing import Any

import responses
from crmarena_sf.emulator.rest.transport.adapter import answer as routed
from crmarena_sf.emulator.rest.transport.router import Router

from crmarena_sf.connection.orgs import resolve_org

INSTANCE = "https://faulty.my.salesforce.com"
HOSTS = re.compile(r"^https://([A-Za-z0-9-]+\.)*salesforce\.com(/|$)")
KEY = "CRMArena_Key__c"

REQUEST_LIMIT = (403, [{"message": "TotalRequests Limit exceeded.", "errorCode": "REQUEST_LIMIT_EXCEEDED"}])
API_DISABLED = (403, [{"message": "API is disabled for this User", "errorCode": "API_CURRENTLY_DISABLED"}])
EXPIRED_PASSWORD = (
    500,
    [
        {
            "message": "The users password has expired, you must call SetPassword before attempting any other "
            "API operations",
            "errorCode": "INVALID_OPERATION_WITH_EXPIRED_PASSWORD",
        }
    ],
)
STORAGE_FULL = ("STORAGE_LIMIT_EXCEEDED", "storage limit exceeded")

Rule = Callable[["FaultyOrg", Any], tuple[int, dict, bytes] | None]


class FaultyOrg:
    """The emulated org ``org`` behind ``responses``, with :attr:`rules` answering before it."""

    def __init__(self, org: Any = "standard") -> None:
        self.org = resolve_org(org)
        self.router = Router(self.org, known_users_only=True)
        self.session_id = self.router.issue_session()
        self.rules: list[Rule] = []
        self.calls: list[tuple[str, str]] = []
        self._mock: responses.RequestsMock | None = None

    def __enter__(self) -> FaultyOrg:
        self._mock = responses.RequestsMock(assert_all_requests_are_fired=False)
        for method in ("GET", "POST", "PATCH", "PUT", "DELETE", "HEAD"):
            self._mock.add_callback(method, HOSTS, callback=self._answer, content_type=None)
        self._mock.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._mock.stop()
        self._mock.reset()

    def env(self) -> dict[str, str]:
        return {"SALESFORCE_INSTANCE_URL": INSTANCE, "SALESFORCE_SESSION_ID": self.session_id}

    def forward(self, prepared: Any) -> tuple[int, dict, bytes]:
        reply = routed(self.router, prepared, INSTANCE)
        return reply.status, dict(reply.headers), reply.body

    def _answer(self, prepared: Any) -> tuple[int, dict, bytes]:
        self.calls.append((prepared.method, prepared.path_url))
        for rule in list(self.rules):
            reply = rule(self, prepared)
            if reply is not None:
                return reply
        return self.forward(prepared)


def error_reply(status: int, body: Any) -> tuple[int, dict, bytes]:
    return status, {"Content-Type": "application/json;charset=UTF-8"}, json.dumps(body).encode()


# ---------------------------------------------------------------------------- rules
def every_data_call(status_and_body: tuple[int, Any]) -> Rule:
    """Every data-API call answers with this error (the API off, a password expired)."""

    def rule(org: FaultyOrg, prepared: Any):
        if "/services/data/" in prepared.path_url:
            return error_reply(*status_and_body)
        return None

    return rule


def after_writes(count: int, fault: tuple[int, Any] | BaseException) -> Rule:
    """From the ``count``-th write (collections or Bulk upload) on, every data call fails: with an
    error answer, or (an exception) as a dropped connection or a killed process would end it."""
    seen = {"writes": 0, "tripped": False}

    def fail():
        if isinstance(fault, BaseException):
            raise fault
        return error_reply(*fault)

    def rule(org: FaultyOrg, prepared: Any):
        path = prepared.path_url
        if seen["tripped"] and "/services/data/" in path:
            return fail()
        if prepared.method in ("PATCH", "PUT") and ("composite/sobjects/" in path or "/batches" in path):
            seen["writes"] += 1
            if seen["writes"] >= count:
                seen["tripped"] = True
                return fail()
        return None

    return rule


def rewrite_json(path_pattern: str, change: Callable[[Any], Any]) -> Rule:
    """GETs whose path matches ``path_pattern`` are answered by the org, then ``change``d."""
    pattern = re.compile(path_pattern)

    def rule(org: FaultyOrg, prepared: Any):
        if prepared.method != "GET" or not pattern.search(prepared.path_url.split("?")[0]):
            return None
        status, headers, body = org.forward(prepared)
        return status, headers, json.dumps(change(json.loads(body))).encode()

    return rule


def collection_rows_refused(object_name: str, refuse: Callable[[dict], tuple[str, str] | None]) -> Rule:
    """A collection upsert of ``object_name`` saves the other records and reports these as failed."""

    def rule(org: FaultyOrg, prepared: Any):
        if prepared.method != "PATCH" or f"composite/sobjects/{object_name}/" not in prepared.path_url:
            return None
        body = json.loads(prepared.body)
        errors = [refuse(r) for r in body["records"]]
        if not any(errors):
            return None
        kept = [r for r, e in zip(body["records"], errors, strict=True) if not e]
        results = iter(_forward_json(org, prepared, {**body, "records": kept}) if kept else [])
        out = [
            {"success": False, "errors": [{"statusCode": e[0], "message": e[1], "fields": []}]}
            if e
            else next(results)
            for e in errors
        ]
        return 200, {"Content-Type": "application/json;charset=UTF-8"}, json.dumps(out).encode()

    return rule


def bulk_rows_refused(object_name: str, refuse: Callable[[dict], tuple[str, str] | None]) -> Rule:
    """A Bulk API 2.0 job on ``object_name`` processes the other rows and lists these in failedResults."""
    jobs: dict[str, str] = {}
    refused: dict[str, list[tuple[dict, tuple[str, str]]]] = {}

    def rule(org: FaultyOrg, prepared: Any):
        path = prepared.path_url
        if prepared.method == "POST" and path.endswith("/jobs/ingest"):
            status, headers, body = org.forward(prepared)
            info = json.loads(body)
            jobs[info["id"]] = info["object"]
            return status, headers, body
        match = re.search(r"/jobs/ingest/([^/]+)/(batches|failedResults)", path)
        if not match or jobs.get(match.group(1)) != object_name:
            return None
        job = match.group(1)
        if match.group(2) == "batches":
            text = prepared.body.decode() if isinstance(prepared.body, bytes) else prepared.body
            rows = list(csv.DictReader(io.StringIO(text)))
            header = list(rows[0]) if rows else []
            kept, refused[job] = [], []
            for row in rows:
                error = refuse(row)
                (refused[job].append((row, error)) if error else kept.append(row))
            prepared.body = _csv(header, kept).encode()
            return org.forward(prepared)
        status, headers, body = org.forward(prepared)
        lines = list(csv.reader(io.StringIO(body.decode())))
        columns = lines[0]
        extra = [
            ["", f"{code}:{message}:--", *[row.get(c, "") for c in columns[2:]]]
            for row, (code, message) in refused.get(job, [])
        ]
        return status, headers, _csv(columns, [dict(zip(columns, r)) for r in lines[1:] + extra]).encode()

    return rule


def _forward_json(org: FaultyOrg, prepared: Any, body: Any) -> Any:
    prepared.body = json.dumps(body).encode()
    prepared.headers["Content-Length"] = str(len(prepared.body))
    return json.loads(org.forward(prepared)[2])


def _csv(header: list[str], rows: list[dict]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=header, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()
