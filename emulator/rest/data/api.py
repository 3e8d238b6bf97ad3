"""The data API's front door: ``/services/data`` and ``/services/data/vXX.X/...``.

``GET /services/data`` lists the versions served and needs no session (REST API Developer
Guide, "Versions"). Every other call names a version the emulator serves (else 404
NOT_FOUND), needs a session the router issued (``Authorization: Bearer <sid>``; without one
the answer is 401 ``INVALID_SESSION_ID``, the only code on which simple-salesforce logs in
again), counts toward the day's API requests (``Sforce-Limit-Info: api-usage=n/15000``, REST
API Developer Guide, "Response Headers") and goes to the first route of :data:`RESOURCES`
whose pattern matches the path after ``vXX.X/`` (Bulk API 2.0's ``jobs/`` and the Tooling
API's ``tooling/`` are routes too). A call that writes runs under the org's lock, so concurrent
clients never interleave a multi-statement write; a GET of a route declared ``read_only``
(queries, describes, record GETs) runs beside writes on a committed snapshot of its own
(:meth:`Org.reading`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crmarena_sf.emulator.errors import SalesforceError, not_found
from crmarena_sf.emulator.rest.bulk import bulk2
from crmarena_sf.emulator.rest.data import collections as sobject_collections
from crmarena_sf.emulator.rest.data import (
    composite,
    composite_batch,
    composite_graph,
    describe,
    knowledge_actions,
    layouts,
    list_views,
    parameterized_search,
    query,
    recent,
    record_count,
    replication,
    sobjects,
    tabs,
    tree,
    versions,
)
from crmarena_sf.emulator.rest.schema_api import deploy_request, tooling
from crmarena_sf.emulator.rest.transport.messages import Request, Response, error_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route, method_not_allowed

if TYPE_CHECKING:
    from crmarena_sf.emulator.rest.transport.router import Router

RESOURCES = (
    describe,
    layouts,
    list_views,
    replication,
    sobjects,
    query,
    parameterized_search,
    recent,
    composite,
    composite_batch,
    composite_graph,
    sobject_collections,
    tree,
    bulk2,
    record_count,
    tooling,
    deploy_request,
    knowledge_actions,
    tabs,
)
"""Modules exposing ``ROUTES``; their order decides which pattern wins when two match."""

DAILY_API_REQUESTS = describe.LIMIT_MAXIMUMS["DailyApiRequests"]
"""A Developer Edition org's daily API request allowance (reported in Sforce-Limit-Info and /limits)."""

_ROUTES: list[Route] = [route for module in RESOURCES for route in module.ROUTES]


def handle(router: Router, request: Request, rest: str | None) -> Response:
    """Answer ``/services/data`` plus ``rest``: the versions, or a data call of a version."""
    if not (rest or "").strip("/"):
        return versions.versions_response()
    if not rest.startswith("v"):
        raise not_found()
    version, _, path = rest[1:].partition("/")
    if not version:
        raise not_found()
    return data_call(router, request, version, path.strip("/"))


def data_call(router: Router, request: Request, version: str, rest: str) -> Response:
    """A call of ``rest`` (the path after ``vXX.X/``): version and session checked, counted, routed."""
    if not versions.is_supported(version):
        raise not_found()
    if not router.accepts(router.session_of(request)):
        raise SalesforceError("INVALID_SESSION_ID", "Session expired or invalid", status=401)
    used = router.count_api_request()
    try:
        response = dispatch(router, request, version, rest)
    except SalesforceError as exc:
        response = error_response(exc)
    response.headers["Sforce-Limit-Info"] = f"api-usage={used}/{DAILY_API_REQUESTS}"
    return response


def dispatch(router: Router, request: Request, version: str, rest: str) -> Response:
    """Route an authenticated data call (``rest`` is the path after ``vXX.X/``) under the org's lock,
    or beside it for a read-only GET (composite subrequests come here too)."""
    if rest == "":
        if request.method not in ("GET", "HEAD"):
            raise method_not_allowed(request.method, Route("", GET=lambda call: None))
        return versions.resources_response(version, router.identity_url(request))
    method = "GET" if request.method == "HEAD" else request.method
    found = route_for(rest)
    if found is None:
        raise not_found()
    route, parts = found
    handler = route.handlers.get(method)
    if handler is None:
        raise method_not_allowed(request.method, route)
    call = RestCall(request=request, org=router.org, router=router, version=version)
    if method == "GET" and route.read_only:
        # Uncontended, a read runs under the org's lock on its own cursor; only while another
        # thread holds the lock does it read a snapshot beside it (Org.reading), since
        # opening and closing a snapshot's transaction costs about 0.1 ms a request.
        lock = router.org.lock
        if lock.acquire(blocking=False):
            try:
                return handler(call, **parts)
            finally:
                lock.release()
        with router.org.reading():
            return handler(call, **parts)
    with router.org.lock:
        return handler(call, **parts)


_UNSEEN = object()
_FOUND: dict[str, tuple[Route, dict[str, str]] | None] = {}
MAX_FOUND = 4096
"""Paths whose route is remembered; past this many the memory starts over (record paths hold Ids)."""
MAX_REMEMBERED_PATH = 200
"""Longer paths are matched every time (a client's own are short; a hostile one stays unremembered)."""


def route_for(rest: str) -> tuple[Route, dict[str, str]] | None:
    """The first route whose pattern matches ``rest`` (the path after ``vXX.X/``) and its named parts, or None.

    Remembered by path: a client repeats its paths (``query``, ``sobjects/Case/describe``), and
    trying the patterns in order costs more than the rest of routing.
    """
    found = _FOUND.get(rest, _UNSEEN)
    if found is not _UNSEEN:
        return found  # type: ignore[return-value]
    found = None
    for route in _ROUTES:
        match = route.pattern.match(rest)
        if match:
            found = (route, match.groupdict())
            break
    if len(rest) <= MAX_REMEMBERED_PATH:
        if len(_FOUND) >= MAX_FOUND:
            _FOUND.clear()
        _FOUND[rest] = found
    return found
