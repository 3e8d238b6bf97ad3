"""``POST composite/batch``: up to 25 independent subrequests in one call.

REST API Developer Guide, "Composite Batch"
(https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_composite_batch.htm):
``{"batchRequests": [{"method", "url": "v62.0/sobjects/...", "richInput"}], "haltOnError"}``
answers HTTP 200 ``{"hasErrors", "results": [{"statusCode", "result"}]}`` in request order.
Subrequests do not see each other's results and are not rolled back together; with
``haltOnError`` the ones after a failure are not run and answer 412 ``BATCH_PROCESSING_HALTED``.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from crmarena_sf.emulator.error_boundary import as_salesforce_error
from crmarena_sf.emulator.errors import SalesforceError, not_found
from crmarena_sf.emulator.rest.data import versions
from crmarena_sf.emulator.rest.data.composite_request import MAX_SUBREQUESTS, too_many_subrequests
from crmarena_sf.emulator.rest.transport.messages import (
    Headers,
    Request,
    Response,
    error_response,
    json_response,
)
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route

HALTED = {"errorCode": "BATCH_PROCESSING_HALTED", "message": "Batch processing halted per request"}


def _run(call: RestCall, sub: Any) -> Response:
    if not isinstance(sub, dict):
        raise SalesforceError(
            "JSON_PARSER_ERROR", "Cannot deserialize instance of batchRequest from non-object value"
        )
    method = str(sub.get("method") or "").upper()
    parts = urlsplit(str(sub.get("url") or ""))
    path = unquote(parts.path).lstrip("/")
    if path.lower().startswith("services/data/"):
        path = path[len("services/data/") :]
    version, _, rest = path.partition("/")
    if not version.lower().startswith("v") or method not in ("GET", "POST", "PATCH", "PUT", "DELETE", "HEAD"):
        raise not_found()
    version = version[1:]
    rest = rest.strip("/")
    if not versions.is_supported(version) or rest.lower().startswith("composite"):
        raise not_found()
    body = sub.get("richInput")
    request = Request(
        method=method,
        path=f"/services/data/v{version}/{rest}",
        query=parse_qs(parts.query, keep_blank_values=True),
        headers=Headers({"Content-Type": "application/json"}),
        body=b"" if body is None else json.dumps(body).encode("utf-8"),
        instance_url=call.request.instance_url,
    )
    return call.router.dispatch(request, version, rest)


def composite_batch(call: RestCall) -> Response:
    """``POST composite/batch``."""
    data = call.request.json()
    subrequests = data.get("batchRequests") if isinstance(data, dict) else None
    if not isinstance(subrequests, list):
        raise SalesforceError(
            "JSON_PARSER_ERROR", "Cannot deserialize instance of batchRequests from missing value"
        )
    if len(subrequests) > MAX_SUBREQUESTS:
        raise too_many_subrequests(len(subrequests))
    halt = data.get("haltOnError") is True or str(data.get("haltOnError")).lower() == "true"
    results: list[dict[str, Any]] = []
    has_errors = halted = False
    for sub in subrequests:
        if halted:
            results.append({"statusCode": 412, "result": [HALTED]})
            continue
        try:
            response = _run(call, sub)
        except Exception as exc:  # one subrequest's failure is its own answer; the others still run
            response = error_response(as_salesforce_error(exc, context="in a composite/batch subrequest"))
        result = (
            json.loads(response.body)
            if response.body and "json" in (response.headers.get("Content-Type") or "")
            else None
        )
        results.append({"statusCode": response.status, "result": result})
        if response.status >= 400:
            has_errors = True
            halted = halt
    return json_response(200, {"hasErrors": has_errors, "results": results})


ROUTES = [Route(r"composite/batch", POST=composite_batch)]
