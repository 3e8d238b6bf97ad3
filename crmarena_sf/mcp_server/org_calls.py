"""The calls an MCP agent makes on an org, each one REST API request to the org's router.

Every call builds the request a REST client sends (REST API Developer Guide: ``query``,
``queryAll`` and ``query/<locator>`` in resources_query.htm, ``search`` in resources_search.htm,
``sobjects`` in resources_describeGlobal.htm, ``sobjects/<Object>/describe`` in
resources_sobject_describe.htm, and ``sobjects/<Object>/<Id>`` for a record's GET, PATCH and
DELETE in resources_sobject_retrieve.htm) and hands it to the same
:class:`~crmarena_sf.emulator.rest.transport.router.Router` that answers ``connect()`` and
``crmarena-sf serve``, so a result is the REST API's JSON body, byte for byte, and an error is its
JSON array of ``{"message", "errorCode"}`` (MALFORMED_QUERY, INVALID_FIELD, INVALID_TYPE,
NOT_FOUND, REQUIRED_FIELD_MISSING, MALFORMED_ID ...), as Salesforce's MCP servers relay them.

Two answers have no body on the REST API (``204 No Content`` after an update or a delete); those
calls answer with the save result Salesforce returns for the same write in a body, as its sObject
Collections and SOAP API do: ``{"id": "<Id>", "success": true, "errors": []}``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator.errors import not_found
from crmarena_sf.emulator.rest.transport.messages import Headers, Request, error_response
from crmarena_sf.metadata import API_VERSION

if TYPE_CHECKING:
    from crmarena_sf.emulator.rest.transport.router import Router
    from crmarena_sf.emulator.store.org import Org

DATA_PATH = f"/services/data/v{API_VERSION}"

_NEXT_RECORDS_URL = re.compile(r"^/services/data/v[0-9]+\.[0-9]/(?:query|queryAll)/[^/]+$")
"""A ``nextRecordsUrl`` as a query's answer carries it."""


@dataclass(frozen=True)
class Answer:
    """A call's result: the response body as text, and whether it is an error (HTTP status 400 or more)."""

    text: str
    is_error: bool


class OrgCalls:
    """The REST calls of an MCP agent on one org, through the org's router and one session of its own."""

    def __init__(self, org: Org) -> None:
        from crmarena_sf.emulator.rest.transport.router import Router

        self.router: Router = Router.for_org(org)
        self._headers = {"Authorization": f"Bearer {self.router.issue_session()}"}

    # ------------------------------------------------------------------ reads
    def query(self, soql: str, *, include_deleted: bool = False, batch_size: int | None = None) -> Answer:
        """``GET query?q=`` (``queryAll`` with ``include_deleted``); ``batch_size``: ``Sforce-Query-Options``."""
        headers = None
        if batch_size is not None:
            headers = {"Sforce-Query-Options": f"batchSize={batch_size}"}
        return self._call("GET", "queryAll" if include_deleted else "query", {"q": [soql]}, headers=headers)

    def query_more(self, next_records_url: str) -> Answer:
        """The next page of a query: its ``nextRecordsUrl`` (``/services/data/vXX.X/query/<locator>``) or the locator alone."""
        url = next_records_url.strip()
        if _NEXT_RECORDS_URL.match(url):
            return self._send(Request("GET", url, headers=Headers(self._headers)))
        return self._call("GET", "query", segments=[url])

    def search(self, sosl: str) -> Answer:
        """``GET search?q=``: a SOSL search."""
        return self._call("GET", "search", {"q": [sosl]})

    def list_objects(self) -> Answer:
        """``GET sobjects``: the org's objects (describeGlobal)."""
        return self._call("GET", "sobjects")

    def describe(self, object_name: str) -> Answer:
        """``GET sobjects/<Object>/describe``: an object's fields, relationships and properties."""
        return self._call("GET", "sobjects", segments=[object_name, "describe"])

    def get(self, object_name: str, record_id: str, fields: list[str] | None = None) -> Answer:
        """``GET sobjects/<Object>/<Id>[?fields=...]``: one record (every field unless ``fields`` names some)."""
        query = {"fields": [",".join(fields)]} if fields else {}
        return self._call("GET", "sobjects", query, segments=[object_name, record_id])

    # ------------------------------------------------------------------ writes
    def create(self, object_name: str, values: dict[str, Any]) -> Answer:
        """``POST sobjects/<Object>``: ``{"id", "success", "errors"}``."""
        return self._call("POST", "sobjects", segments=[object_name], body=values)

    def update(self, object_name: str, record_id: str, values: dict[str, Any]) -> Answer:
        """``PATCH sobjects/<Object>/<Id>`` (204 No Content, answered as its save result)."""
        answer = self._call("PATCH", "sobjects", segments=[object_name, record_id], body=values)
        return answer if answer.is_error or answer.text else _saved(record_id)

    def delete(self, object_name: str, record_id: str) -> Answer:
        """``DELETE sobjects/<Object>/<Id>`` (204 No Content, answered as its delete result)."""
        answer = self._call("DELETE", "sobjects", segments=[object_name, record_id])
        return answer if answer.is_error or answer.text else _saved(record_id)

    # ------------------------------------------------------------------ one request
    def _call(
        self,
        method: str,
        resource: str,
        query: dict[str, list[str]] | None = None,
        *,
        segments: list[str] = (),
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        # A name or Id is one path segment: one holding a slash (or empty) names no resource, and
        # must not reach another one (``Account/describe`` as a record Id).
        if any(not segment or "/" in segment for segment in segments):
            return _answer_of(error_response(not_found()))
        path = "/".join([DATA_PATH, resource, *segments])
        request_headers = Headers(self._headers)
        for key, value in (headers or {}).items():
            request_headers[key] = value
        payload = b""
        if body is not None:
            request_headers["Content-Type"] = "application/json"
            payload = json.dumps(body).encode("utf-8")
        return self._send(Request(method, path, query or {}, request_headers, payload))

    def _send(self, request: Request) -> Answer:
        return _answer_of(self.router.handle(request))


def _answer_of(response) -> Answer:
    return Answer(response.body.decode("utf-8"), response.status >= 400)


def _saved(record_id: str) -> Answer:
    return Answer(json.dumps({"id": record_id, "success": True, "errors": []}, separators=(",", ":")), False)
