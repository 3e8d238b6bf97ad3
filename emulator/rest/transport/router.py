"""The REST router: one :class:`Request` in, one :class:`Response` out, for one emulated org.

It keeps the org's sessions (the ids it issued, and whose each is) and the day's API request
count, and hands each request to the service mounted at its path
(:mod:`crmarena_sf.emulator.rest.services`: the data API, Bulk API 1.0, logins, identity, the
Metadata API); a path no service answers is 404 NOT_FOUND. A compressed body
(``Content-Encoding: gzip``/``deflate``) is decompressed before anything reads it, and every
failure ends as Salesforce's JSON array: :meth:`Router.handle` never raises.
"""

from __future__ import annotations

import secrets
import threading
from typing import TYPE_CHECKING

from crmarena_sf.emulator.error_boundary import as_salesforce_error
from crmarena_sf.emulator.errors import not_found
from crmarena_sf.emulator.rest import services
from crmarena_sf.emulator.rest.auth.grants import GrantPolicy
from crmarena_sf.emulator.rest.data import api as data_api
from crmarena_sf.emulator.rest.transport.content_encoding import decompressed
from crmarena_sf.emulator.rest.transport.messages import Request, Response, error_response
from crmarena_sf.emulator.store.seed import ORGANIZATION_ID

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org


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
        self.grants = GrantPolicy()
        """Which refresh tokens and JWTs the token endpoint honours: any (in-process), or serve's strict policy."""

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
        response = services.answer(self, decompressed(request))
        if response is None:
            raise not_found()
        return response

    def dispatch(self, request: Request, version: str, rest: str) -> Response:
        """Route an authenticated data call (``rest`` is the path after ``vXX.X/``): composite subrequests."""
        return data_api.dispatch(self, request, version, rest)
