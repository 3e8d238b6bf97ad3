"""``POST composite``: several subrequests in one call, later ones referring to earlier results.

REST API Developer Guide, resources_composite_composite.htm and
resources_composite_subrequest_result.htm: the answer is always HTTP 200
``{"compositeResponse": [{"body", "httpHeaders", "httpStatusCode", "referenceId"}]}``.
``@{ref.path}`` (``@{newAccount.id}``, ``@{q.records[0].Id}``) in a URL or body takes a value
from an earlier subrequest's body; a reference that has no value halts that subrequest with
``PROCESSING_HALTED`` ``Invalid reference specified. No value for ref.path found in ref.``.
With ``allOrNone`` the first failing subrequest rolls everything back and every other
subrequest answers 400 ``PROCESSING_HALTED`` ``The transaction was rolled back since another
operation in the same transaction failed.``
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from crmarena_sf.emulator.error_boundary import as_salesforce_error
from crmarena_sf.emulator.errors import SalesforceError, not_found
from crmarena_sf.emulator.rest.data import versions
from crmarena_sf.emulator.rest.data.composite_request import read_composite_request
from crmarena_sf.emulator.rest.transport.messages import Headers, Request, Response, error_response
from crmarena_sf.emulator.rest.transport.params import capped_number
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route

_REFERENCE = re.compile(r"@\{([A-Za-z0-9_]+)((?:\.[A-Za-z0-9_]+|\[[0-9]+\])*)\}")
_PATH_STEP = re.compile(r"\.([A-Za-z0-9_]+)|\[([0-9]+)\]")
_SUBREQUEST_URL = re.compile(r"^/services/data/v(?P<version>[^/]+)/(?P<rest>.*)$")

ROLLED_BACK = "The transaction was rolled back since another operation in the same transaction failed."


class _Halt(Exception):
    """Stops an allOrNone composite so its transaction rolls back."""


def _halted(message: str) -> SalesforceError:
    return SalesforceError("PROCESSING_HALTED", message)


def resolve_references(value: Any, results: dict[str, Any]) -> Any:
    """``value`` (a URL string or a JSON body) with every ``@{ref.path}`` replaced by its value."""
    if isinstance(value, str):
        return _REFERENCE.sub(lambda m: _reference_text(m, results), value)
    if isinstance(value, list):
        return [resolve_references(v, results) for v in value]
    if isinstance(value, dict):
        return {k: resolve_references(v, results) for k, v in value.items()}
    return value


def _reference_text(match: re.Match, results: dict[str, Any]) -> str:
    ref, path = match.group(1), match.group(2)
    missing = _halted(f"Invalid reference specified. No value for {ref}{path} found in {ref}.")
    if ref not in results:
        raise missing
    current = results[ref]
    for step in _PATH_STEP.finditer(path):
        name, index = step.group(1), step.group(2)
        if name is not None and isinstance(current, dict) and name in current:
            current = current[name]
        elif index is not None and isinstance(current, list) and _index(index, current) is not None:
            current = current[_index(index, current)]
        else:
            raise missing
    if current is None or isinstance(current, (dict, list)):
        raise missing
    if isinstance(current, bool):
        return "true" if current else "false"
    return str(current)


def _index(text: str, items: list) -> int | None:
    """``[n]`` of a reference as a position in ``items`` (None past the end; never converts a huge ``n``)."""
    position = capped_number(text, len(items))
    return position if position is not None and position < len(items) else None


def _subrequest_response(reference_id: Any, response: Response) -> dict[str, Any]:
    headers = {k: v for k, v in response.headers.items() if k.lower() == "location"}
    body = json.loads(response.body) if response.body and _is_json(response) else None
    return {
        "body": body,
        "httpHeaders": headers,
        "httpStatusCode": response.status,
        "referenceId": reference_id,
    }


def _is_json(response: Response) -> bool:
    return "json" in (response.headers.get("Content-Type") or "json")


def _has_failed_record(body: Any) -> bool:
    """True for a collection answer (a list of SaveResults) with a failed record."""
    return isinstance(body, list) and any(isinstance(r, dict) and r.get("success") is False for r in body)


def _error_entry(reference_id: Any, error: SalesforceError) -> dict[str, Any]:
    return _subrequest_response(reference_id, error_response(error))


def _execute(call: RestCall, sub: dict[str, Any], results: dict[str, Any], all_or_none: bool) -> Response:
    """Run one subrequest through the router (inside the composite's lock)."""
    method = str(sub.get("method") or "").upper()
    parts = urlsplit(resolve_references(sub.get("url") or "", results))
    path = unquote(parts.path)
    match = _SUBREQUEST_URL.match(path)
    if not match or method not in ("GET", "POST", "PATCH", "PUT", "DELETE", "HEAD"):
        raise not_found()
    version, rest = match.group("version"), match.group("rest").strip("/")
    nested_composite = rest.lower().startswith("composite") and not rest.lower().startswith(
        "composite/sobjects"
    )
    if not versions.is_supported(version) or nested_composite:
        raise not_found()
    body = resolve_references(sub.get("body"), results)
    if all_or_none and isinstance(body, dict) and rest.lower().startswith("composite/sobjects"):
        # An allOrNone composite imposes all-or-none on its collection subrequests
        # (REST API Developer Guide, "allOrNone Parameters in Composite and Collections Requests").
        body = {**body, "allOrNone": True}
    headers = Headers({"Content-Type": "application/json"})
    for key, value in (sub.get("httpHeaders") or {}).items():
        if value is not None:
            headers[key] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    request = Request(
        method=method,
        path=path,
        query=parse_qs(parts.query, keep_blank_values=True),
        headers=headers,
        body=b"" if body is None else json.dumps(body).encode("utf-8"),
        instance_url=call.request.instance_url,
    )
    response = call.router.dispatch(request, version, rest)
    _add_location(call, response, version, rest)
    return response


def _add_location(call: RestCall, response: Response, version: str, rest: str) -> None:
    """A subrequest that created a record answers with its URL in ``Location``."""
    segments = rest.split("/")
    if response.status != 201 or segments[0].lower() != "sobjects" or len(segments) < 2:
        return
    created = json.loads(response.body) if response.body and _is_json(response) else None
    obj = call.org.schema.get(segments[1])
    if isinstance(created, dict) and created.get("id") and obj is not None:
        response.headers["Location"] = f"/services/data/v{version}/sobjects/{obj.name}/{created['id']}"


def run_subrequests(
    call: RestCall, subrequests: list[dict[str, Any]], all_or_none: bool
) -> tuple[list, bool]:
    """Run composite subrequests in order: their ``compositeResponse`` entries, and whether all succeeded.

    With ``all_or_none`` the first failure rolls every write back and the other entries become
    PROCESSING_HALTED (composite/graph runs each graph this way).
    """
    entries: list[dict[str, Any] | None] = [None] * len(subrequests)
    bodies: dict[str, Any] = {}
    failed: int | None = None
    try:
        with call.org.transaction() if all_or_none else contextlib.nullcontext():
            for index, sub in enumerate(subrequests):
                reference_id = sub.get("referenceId")
                try:
                    response = _execute(call, sub, bodies, all_or_none)
                except Exception as exc:
                    # Answered like a request of its own; the other subrequests' answers still say what was saved.
                    context = f"in composite subrequest {reference_id}"
                    response = error_response(as_salesforce_error(exc, context=context))
                entries[index] = _subrequest_response(reference_id, response)
                if response.status < 400 and isinstance(reference_id, str):
                    bodies[reference_id] = entries[index]["body"]
                if all_or_none and (response.status >= 400 or _has_failed_record(entries[index]["body"])):
                    failed = index
                    raise _Halt
    except _Halt:
        pass
    if failed is not None:
        for index, sub in enumerate(subrequests):
            if index != failed:
                entries[index] = _error_entry(sub.get("referenceId"), _halted(ROLLED_BACK))
    return entries, failed is None


def composite(call: RestCall) -> Response:
    """``POST composite``."""
    subrequests, all_or_none = read_composite_request(call.request.json())
    entries, _ = run_subrequests(call, subrequests, all_or_none)
    return Response(
        200,
        Headers({"Content-Type": "application/json;charset=UTF-8"}),
        json.dumps({"compositeResponse": entries}, separators=(",", ":")).encode("utf-8"),
    )


ROUTES = [Route(r"composite", POST=composite)]
