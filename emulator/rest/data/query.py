"""SOQL and SOSL over REST: ``query``, ``queryAll``, ``query/<locator>``, ``search``.

REST API Developer Guide, resources_query.htm, resources_queryall.htm, resources_search.htm
and headers_queryoptions.htm: ``GET query?q=SOQL`` answers ``{totalSize, done, records
[, nextRecordsUrl]}``; ``queryAll`` also returns deleted rows; the locator in
``nextRecordsUrl`` pages on; ``Sforce-Query-Options: batchSize=N`` sets the page size.
The engines (``emulator.soql``, ``emulator.sosl``) build the bodies; this module only maps
URLs and headers to them.
"""

from __future__ import annotations

import re

from crmarena_sf.emulator import soql, sosl
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.transport.messages import Headers, Response, json_response
from crmarena_sf.emulator.rest.transport.params import capped_number
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route

DEFAULT_BATCH_SIZE = 2000
_BATCH_SIZE = re.compile(r"batchSize\s*=\s*([0-9]+)", re.IGNORECASE)


def json_bytes_response(status: int, body: bytes) -> Response:
    """A JSON response whose body the engine already wrote (records DuckDB wrote as JSON are not re-encoded)."""
    return Response(status, Headers({"Content-Type": "application/json;charset=UTF-8"}), body)


def batch_size(call: RestCall) -> int:
    """The page size the client asked for with ``Sforce-Query-Options: batchSize=N`` (default 2000)."""
    header = call.request.headers.get("Sforce-Query-Options") or ""
    match = _BATCH_SIZE.search(header)
    return capped_number(match.group(1), DEFAULT_BATCH_SIZE) if match else DEFAULT_BATCH_SIZE


def _query_text(call: RestCall) -> str:
    q = call.request.param("q")
    if q is None or not q.strip():
        raise SalesforceError("MALFORMED_QUERY", "A query string has to be specified")
    return q


def run_query(call: RestCall, include_deleted: bool) -> Response:
    body = soql.query_json(
        call.org,
        _query_text(call),
        include_deleted=include_deleted,
        batch_size=batch_size(call),
        api_version=call.version,
    )
    return json_bytes_response(200, body)


def query(call: RestCall) -> Response:
    """``GET query?q=`` (``&columns=true``: the query's columns, see :mod:`crmarena_sf.emulator.rest.data.query_columns`;
    ``?explain=``: its plans, see :mod:`crmarena_sf.emulator.rest.data.explain`)."""
    explained = call.request.param("explain")
    if explained is not None and call.request.param("q") is None:
        from crmarena_sf.emulator.rest.data.explain import explain

        return explain(call, explained)
    if (call.request.param("columns") or "").lower() == "true":
        from crmarena_sf.emulator.rest.data.query_columns import columns_response

        return columns_response(call, _query_text(call), lambda: run_query(call, include_deleted=False))
    return run_query(call, include_deleted=False)


def query_all(call: RestCall) -> Response:
    """``GET queryAll?q=``: deleted and archived rows too."""
    return run_query(call, include_deleted=True)


def query_more(call: RestCall, locator: str) -> Response:
    """``GET query/<locator>`` (or ``queryAll/<locator>``): the next page of a query."""
    return json_bytes_response(200, soql.query_more_json(call.org, locator, api_version=call.version))


def search(call: RestCall) -> Response:
    """``GET search?q=FIND ...``."""
    q = call.request.param("q")
    return json_response(200, sosl.search(call.org, q or "", api_version=call.version))


ROUTES = [
    Route(r"query", GET=query, read_only=True),
    Route(r"queryAll", GET=query_all, read_only=True),
    Route(r"(?:query|queryAll)/(?P<locator>[^/]+)", GET=query_more, read_only=True),
    Route(r"search", GET=search),
]
