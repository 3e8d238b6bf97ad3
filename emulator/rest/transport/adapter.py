"""A ``requests`` transport adapter that hands each request to the emulator in-process.

Mounted on the ``requests.Session`` a ``simple_salesforce.Salesforce`` uses, it answers the
instance URL (and, if mounted there too, the login hosts) without a socket and without
patching anything global: other sessions and other hosts are untouched.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import requests
from crmarena_sf.emulator.rest.transport.messages import Request
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict

if TYPE_CHECKING:
    from crmarena_sf.emulator.rest.transport.router import Router

_REASONS = {
    200: "OK",
    201: "Created",
    204: "No Content",
    300: "Multiple Choices",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    500: "Server Error",
}


def body_bytes(body: object) -> bytes:
    """A prepared request's body as bytes (requests allows str, bytes or a file-like object)."""
    if body is None:
        return b""
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode("utf-8")
    if hasattr(body, "read"):
        data = body.read()
        return data.encode("utf-8") if isinstance(data, str) else bytes(data)
    return b"".join(chunk.encode("utf-8") if isinstance(chunk, str) else chunk for chunk in body)  # type: ignore[union-attr]


def answer(router: Router, prepared: requests.PreparedRequest, instance_url: str):
    """The router's answer to a ``requests`` prepared request (shared by this adapter and the responses mock)."""
    emulated = Request.from_url(
        prepared.method,
        prepared.url,
        headers=dict(prepared.headers),
        body=body_bytes(prepared.body),
        instance_url=instance_url,
    )
    return router.handle(emulated)


class EmulatorAdapter(BaseAdapter):
    """Answers requests with ``router``; ``instance_url`` is what logins through it point clients at."""

    def __init__(self, router: Router, instance_url: str) -> None:
        super().__init__()
        self.router = router
        self.instance_url = instance_url.rstrip("/")
        self.server_errors: list[str] = []
        """Every 5xx this adapter answered (``METHOD path: body``): an emulator defect, never the client's doing.
        The benchmark runner reads it to tell an episode the emulator failed from a wrong answer."""

    def send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):  # noqa: D401
        """Answer ``request`` (a ``requests.PreparedRequest``) with a ``requests.Response``."""
        reply = answer(self.router, request, self.instance_url)
        if reply.status >= 500:
            path = request.path_url.split("?", 1)[0]
            self.server_errors.append(
                f"{request.method} {path}: {reply.body[:500].decode('utf-8', 'replace')}"
            )
        response = requests.Response()
        response.status_code = reply.status
        response.reason = _REASONS.get(reply.status, "")
        response.headers = CaseInsensitiveDict(reply.headers)
        response._content = reply.body
        response._content_consumed = True
        response.raw = io.BytesIO(reply.body)
        response.encoding = "utf-8"
        response.url = request.url
        response.request = request
        response.connection = self
        return response

    def close(self) -> None:
        """Nothing to release: there is no connection."""
