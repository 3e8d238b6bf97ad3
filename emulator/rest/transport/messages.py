"""Requests and responses as the router sees them, whatever carried them.

A transport (the in-process ``requests`` adapter, the ``responses`` mock, the HTTPS
server) turns what it received into a :class:`Request` and writes the :class:`Response`
back; nothing in the router knows which transport is talking. Errors become
Salesforce's JSON array ``[{"message", "errorCode", "fields"}]`` here, in one place.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.transport.json_body import parse_json_body
from crmarena_sf.emulator.wire import encode_json


class Headers(dict):
    """HTTP headers with case-insensitive lookup; keys keep the casing they were set with."""

    def __init__(self, items: Mapping[str, str] | Iterable[tuple[str, str]] | None = None) -> None:
        super().__init__()
        keys: dict[str, str] = {}
        self._keys = keys
        pairs = items.items() if isinstance(items, Mapping) else (items or ())
        for key, value in pairs:  # __setitem__ inlined: every request and response builds one
            lower = key.lower()
            old = keys.get(lower)
            if old is not None and old != key:
                dict.__delitem__(self, old)
            keys[lower] = key
            dict.__setitem__(self, key, value)

    def __setitem__(self, key: str, value: str) -> None:
        old = self._keys.get(key.lower())
        if old is not None and old != key:
            super().__delitem__(old)
        self._keys[key.lower()] = key
        super().__setitem__(key, value)

    def __getitem__(self, key: str) -> str:
        return super().__getitem__(self._keys[key.lower()])

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.lower() in self._keys

    def get(self, key: str, default: Any = None) -> Any:
        real = self._keys.get(key.lower())
        return super().get(real, default) if real is not None else default


INSTANCE_URL = "https://crmarena-sf.my.salesforce.com"
"""Where an emulated org appears to live when its transport does not say (the in-process adapter and
the ``responses`` mock answer it; only ``crmarena-sf serve`` has an address of its own)."""


@dataclass
class Request:
    """One HTTP request: method, decoded path, query parameters, headers and raw body."""

    method: str
    path: str
    query: dict[str, list[str]] = field(default_factory=dict)
    headers: Headers = field(default_factory=Headers)
    body: bytes = b""
    instance_url: str = INSTANCE_URL
    """The base URL a client should use for this org (login answers point there)."""

    @classmethod
    def from_url(
        cls,
        method: str,
        url: str,
        headers: Mapping[str, str] | None = None,
        body: bytes | str | None = None,
        instance_url: str | None = None,
    ) -> Request:
        """Build a request from a full URL (``+`` in the query string means a space, as in a form)."""
        parts = urlsplit(url)
        if isinstance(body, str):
            body = body.encode("utf-8")
        base = instance_url or (f"{parts.scheme or 'https'}://{parts.netloc}" if parts.netloc else None)
        return cls(
            method=method.upper(),
            path=unquote(parts.path) or "/",
            query=parse_qs(parts.query, keep_blank_values=True),
            headers=Headers(headers or {}),
            body=body or b"",
            instance_url=base or cls.instance_url,
        )

    @classmethod
    def from_target(
        cls, method: str, target: str, headers: Mapping[str, str], body: bytes, instance_url: str
    ) -> Request:
        """Build a request from an HTTP request line's target, as :meth:`from_url` does for ``instance_url + target``.

        The usual target, a path with an optional query (origin-form, RFC 9112 §3.2.1), is split
        here without ``urlsplit``; any other (with a fragment, absolute-form, ``*``) goes through it.
        """
        if not target.startswith("/") or "#" in target:
            return cls.from_url(method, instance_url + target, headers, body, instance_url)
        path, _, query = target.partition("?")
        return cls(
            method=method.upper(),
            path=unquote(path) or "/",
            query=parse_qs(query, keep_blank_values=True),
            headers=Headers(headers),
            body=body,
            instance_url=instance_url,
        )

    def param(self, name: str, default: str | None = None) -> str | None:
        """The first value of query parameter ``name`` (exact name), or ``default``."""
        values = self.query.get(name)
        return values[0] if values else default

    def json(self) -> Any:
        """The body parsed as JSON; JSON_PARSER_ERROR (Salesforce's words) when it is not JSON (see json_body)."""
        return parse_json_body(self.body)


@dataclass
class Response:
    """One HTTP response: status, headers and body bytes."""

    status: int
    headers: Headers = field(default_factory=Headers)
    body: bytes = b""

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


def json_response(status: int, payload: Any, headers: Mapping[str, str] | None = None) -> Response:
    """A JSON response; Python values (datetimes, Decimals ...) are written as Salesforce writes them."""
    out = Headers({"Content-Type": "application/json;charset=UTF-8"})
    for key, value in (headers or {}).items():
        out[key] = value
    body = encode_json(payload).encode("utf-8")
    return Response(status, out, body)


def empty_response(status: int = 204, headers: Mapping[str, str] | None = None) -> Response:
    """A response without a body (204 No Content after an update or delete)."""
    return Response(status, Headers(headers or {}), b"")


def text_response(status: int, text: str, content_type: str) -> Response:
    return Response(status, Headers({"Content-Type": content_type}), text.encode("utf-8"))


def error_response(error: SalesforceError | list[SalesforceError]) -> Response:
    """The REST rendering of errors: a JSON array with the first error's HTTP status."""
    errors = error if isinstance(error, list) else [error]
    return json_response(errors[0].status, [e.to_rest() for e in errors])
