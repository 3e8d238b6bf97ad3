"""The REST router: one :class:`Request` in, one :class:`Response` out, for one emulated org.

Paths handled: ``/services/data`` (versions), ``/services/data/vXX.X[/...]`` (the data API:
resources declared by the modules in :data:`RESOURCE_MODULES`), ``/services/async/XX.X/...``
(Bulk API 1.0, :mod:`crmarena_sf.emulator.rest.bulk.bulk1`), ``/services/Soap/u/XX.X`` (login, logout),
``/services/oauth2/token`` and ``revoke`` (OAuth), ``/id/<org>/<user>`` and
``/services/oauth2/userinfo`` (identity, :mod:`crmarena_sf.emulator.rest.auth.identity`), ``/services/Soap/m/XX.X``
(the Metadata API's ``createMetadata``, :mod:`crmarena_sf.emulator.rest.schema_api.metadata_api`, whose session is in
the SOAP header). Every data call needs a session the router issued
(``Authorization: Bearer <sid>``, or ``X-SFDC-Session`` as Bulk API 1.0 clients send it);
without one the answer is 401 ``INVALID_SESSION_ID``, the only code on which
simple-salesforce logs in again. Each call that writes runs under the org's lock, so concurrent
clients never interleave a multi-statement write; reads (queries, describes, record GETs) run
beside them on a committed snapshot of their own (:meth:`Org.reading`); every error ends as
Salesforce's JSON array. A
compressed body (``Content-Encoding: gzip``/``deflate``) is decompressed before anything reads it.
"""

from __future__ import annotations

import re
import secrets
import threading
from typing import TYPE_CHECKING

from crmarena_sf.emulator.error_boundary import as_salesforce_error
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
    parameterized_search,
    query,
    recent,
    record_count,
    replication,
    sobjects,
    tree,
    versions,
)
from crmarena_sf.emulator.rest.schema_api import tooling
from crmarena_sf.emulator.rest.transport.content_encoding import decompressed
from crmarena_sf.emulator.rest.transport.messages import Request, Response, error_response
from crmarena_sf.emulator.rest.transport.resource import Call, Route, method_not_allowed
from crmarena_sf.emulator.store.seed import ORGANIZATION_ID

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

RESOURCE_MODULES = (
    describe,
    layouts,
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
    knowledge_actions,
)
"""Modules exposing ``ROUTES``; their order decides which pattern wins when two match.

Importing them imports the SOQL and SOSL engines (neither imports ``emulator.rest``); the
CLI and ``crmarena_sf`` import the router only when they connect to an org, so a command
that does not (``--help``, ``generate``) does not pay for them."""

DAILY_API_REQUESTS = 15000
"""A Developer Edition org's daily API request allowance (reported in Sforce-Limit-Info and /limits)."""

_DATA_PATH = re.compile(r"^/services/data/v(?P<version>[^/]+)(?:/(?P<rest>.*))?$")
_SOAP_LOGIN = re.compile(r"^/services/Soap/u/(?P<version>[^/]+)/?$", re.IGNORECASE)
_OAUTH_TOKEN = re.compile(r"^/services/oauth2/(?:token|revoke)/?$", re.IGNORECASE)
_ASYNC_PATH = re.compile(r"^/services/async/(?P<version>[^/]+)(?:/(?P<rest>.*))?$")
_SOAP_METADATA = re.compile(r"^/services/Soap/m/[^/]+(?:/.*)?$", re.IGNORECASE)
_IDENTITY = re.compile(r"^/(?:id/[^/]+/[^/]+|services/oauth2/userinfo)/?$", re.IGNORECASE)

_ROUTES: list[Route] = [route for module in RESOURCE_MODULES for route in module.ROUTES]

READ_ONLY_HANDLERS = frozenset(
    {
        query.query,
        query.query_all,
        query.query_more,
        describe.global_describe,
        describe.describe,
        sobjects.object_info,
        sobjects.record,
        sobjects.by_external_id,
    }
)
"""Handlers whose GET only reads: they run beside writes on a snapshot of their own
(:meth:`Org.reading`) instead of waiting for the org's lock. Searches are not among them (a
search first indexes the writes before it), nor anything that keeps state (Bulk jobs ...)."""


def all_routes() -> list[Route]:
    """Every data-API route, in declaration order."""
    return _ROUTES


class Router:
    """Answers REST calls for one org; see the module docstring for what it serves."""

    def __init__(self, org: Org, *, accept_any_session: bool = False, known_users_only: bool = False) -> None:
        self.org = org
        self.accept_any_session = accept_any_session
        """True (the ``responses`` mock) to take any non-empty session id, as a test double should."""
        self.known_users_only = known_users_only
        """True to refuse logins naming no active user of the org (INVALID_LOGIN); passwords are never checked."""
        self._sessions: dict[str, str] = {}
        """Session id -> the Id of the user it was issued to."""
        self._state_lock = threading.Lock()
        self.api_requests = 0
        """Data-API calls answered so far (what Sforce-Limit-Info reports as used)."""
        self.state: dict[str, object] = {}
        """Per-router state resources keep (Bulk 2.0 jobs ...)."""

    @classmethod
    def for_org(cls, org: Org) -> Router:
        """The org's shared router: clients of one org see the same sessions and Bulk jobs."""
        with org.lock:
            router = org.cache.get("rest.router")
            if router is None:
                router = org.cache["rest.router"] = cls(org)
            return router

    # ------------------------------------------------------------------ sessions
    def issue_session(self, session_id: str | None = None, user_id: str | None = None) -> str:
        """Register ``session_id`` (or a fresh one shaped like Salesforce's) for ``user_id`` (default:
        the admin user) and return it."""
        if session_id is None:
            session_id = f"{ORGANIZATION_ID[:15]}!{secrets.token_urlsafe(72)}"
        with self._state_lock:
            self._sessions[session_id] = user_id or self.org.user_id
        return session_id

    def end_session(self, session_id: str | None) -> bool:
        """Forget a session (logout, token revocation); True when it was known."""
        with self._state_lock:
            return self._sessions.pop(session_id or "", None) is not None

    def accepts(self, session_id: str | None) -> bool:
        """True when ``session_id`` may call this org."""
        if not session_id:
            return False
        return self.accept_any_session or session_id in self._sessions

    def user_of(self, request: Request) -> str:
        """The Id of the user whose session ``request`` carries (the admin user for any other session)."""
        return self.user_of_session(self.session_of(request))

    def user_of_session(self, session_id: str | None) -> str:
        """The Id of the user ``session_id`` was issued to (the admin user for any other session)."""
        return self._sessions.get(session_id or "", self.org.user_id)

    def session_of(self, request: Request) -> str | None:
        """The session id a request carries (``Bearer``/``OAuth`` authorization or ``X-SFDC-Session``)."""
        auth = request.headers.get("Authorization")
        if auth:
            scheme, _, token = auth.strip().partition(" ")
            if scheme.lower() in ("bearer", "oauth") and token.strip():
                return token.strip()
        return request.headers.get("X-SFDC-Session") or None

    def identity_url(self, request: Request) -> str:
        """The identity URL of the request's user on this emulator (``<instance>/id/<org>/<user>``)."""
        return f"{request.instance_url.rstrip('/')}/id/{ORGANIZATION_ID}/{self.user_of(request)}"

    # ------------------------------------------------------------------ dispatch
    def handle(self, request: Request) -> Response:
        """Answer one request; never raises."""
        try:
            response = self._handle(request)
        except Exception as exc:
            context = f"answering {request.method} {request.path}"
            response = error_response(as_salesforce_error(exc, context=context))
        if request.method == "HEAD":
            response.body = b""
        return response

    def count_api_request(self) -> int:
        """Count one API call (data, Bulk or Metadata API) and return the day's total so far."""
        with self._state_lock:
            self.api_requests += 1
            return self.api_requests

    def _handle(self, request: Request) -> Response:
        request = decompressed(request)
        path = request.path
        if path.rstrip("/") == "/services/data":
            return versions.versions_response()
        match = _DATA_PATH.match(path)
        if match:
            return self._data_call(request, match.group("version"), (match.group("rest") or "").strip("/"))
        if _SOAP_METADATA.match(path):
            from crmarena_sf.emulator.rest.schema_api import metadata_api

            return metadata_api.handle(self, request)
        if _SOAP_LOGIN.match(path) or _OAUTH_TOKEN.match(path):
            from crmarena_sf.emulator.rest.auth import login

            return login.handle(self, request)
        match = _ASYNC_PATH.match(path)
        if match:
            from crmarena_sf.emulator.rest.bulk import bulk1

            return bulk1.handle(self, request, match.group("version"), (match.group("rest") or "").strip("/"))
        if _IDENTITY.match(path):
            from crmarena_sf.emulator.rest.auth import identity

            return identity.handle(self, request)
        raise not_found()

    def _data_call(self, request: Request, version: str, rest: str) -> Response:
        if not versions.is_supported(version):
            raise not_found()
        if not self.accepts(self.session_of(request)):
            raise SalesforceError("INVALID_SESSION_ID", "Session expired or invalid", status=401)
        used = self.count_api_request()
        try:
            response = self.dispatch(request, version, rest)
        except SalesforceError as exc:
            response = error_response(exc)
        response.headers["Sforce-Limit-Info"] = f"api-usage={used}/{DAILY_API_REQUESTS}"
        return response

    def dispatch(self, request: Request, version: str, rest: str) -> Response:
        """Route an authenticated data call (``rest`` is the path after ``vXX.X/``) under the org's lock."""
        if rest == "":
            if request.method not in ("GET", "HEAD"):
                raise method_not_allowed(request.method, Route("", GET=lambda call: None))
            return versions.resources_response(version, self.identity_url(request))
        method = "GET" if request.method == "HEAD" else request.method
        for route in all_routes():
            match = route.pattern.match(rest)
            if not match:
                continue
            handler = route.handlers.get(method)
            if handler is None:
                raise method_not_allowed(request.method, route)
            call = Call(request=request, org=self.org, router=self, version=version)
            if method == "GET" and handler in READ_ONLY_HANDLERS:
                # Uncontended, a read runs under the org's lock on its own cursor; only while another
                # thread holds the lock does it read a snapshot beside it (Org.reading), since
                # opening and closing a snapshot's transaction costs about 0.1 ms a request.
                lock = self.org.lock
                if lock.acquire(blocking=False):
                    try:
                        return handler(call, **match.groupdict())
                    finally:
                        lock.release()
                with self.org.reading():
                    return handler(call, **match.groupdict())
            with self.org.lock:
                return handler(call, **match.groupdict())
        raise not_found()
