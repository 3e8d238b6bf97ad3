"""Compressed request bodies: ``Content-Encoding: gzip`` or ``deflate``.

REST API Developer Guide, "Compression Headers"
(https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/intro_rest_compression.htm):
"Include a Content-Encoding: gzip or Content-Encoding: deflate header to compress a request.
REST API decompresses any requests before processing." Every transport hands the router the
body as sent; the router decompresses it here, once, before any resource reads it. A body
that does not decompress is refused (400), and one that would inflate past the 150 MB body
limit is refused (413) without being inflated further; neither reaches a resource.
Other codings are left alone, as a server that does not know them does.
"""

from __future__ import annotations

import zlib

from crmarena_sf.emulator.rest.transport.messages import Headers, Request
from crmarena_sf.emulator.rest.transport.transport_errors import MAX_BODY, body_too_large, http_error

_GZIP_MAGIC = b"\x1f\x8b"
_CODINGS = ("gzip", "x-gzip", "deflate")


def decompressed(request: Request) -> Request:
    """``request`` with its body decompressed and ``Content-Encoding`` dropped (itself if not compressed)."""
    header = request.headers.get("Content-Encoding") or ""
    codings = [c.strip().lower() for c in header.split(",") if c.strip()]
    if not codings or any(c not in (*_CODINGS, "identity") for c in codings):
        return request
    body = request.body
    for coding in reversed(codings):  # the last coding applied is the first to undo
        if coding != "identity":
            body = _inflate(body, coding)
    headers = Headers((k, v) for k, v in request.headers.items() if k.lower() != "content-encoding")
    return Request(request.method, request.path, request.query, headers, body, request.instance_url)


def _inflate(body: bytes, coding: str) -> bytes:
    if coding == "deflate":
        # HTTP's deflate is zlib-wrapped (RFC 9110 §8.4.1.2); some clients send it raw.
        wrapped = len(body) >= 2 and (body[0] & 0x0F) == 8 and int.from_bytes(body[:2], "big") % 31 == 0
        return _inflate_member(body, zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS, coding)[0]
    if not body.startswith(_GZIP_MAGIC):
        raise http_error(400, "Not in GZIP format")
    out = b""
    while body.startswith(_GZIP_MAGIC):  # gzip allows several members one after another
        member, body = _inflate_member(body, zlib.MAX_WBITS | 16, coding, MAX_BODY - len(out))
        out += member
    return out


def _inflate_member(data: bytes, wbits: int, coding: str, room: int = MAX_BODY) -> tuple[bytes, bytes]:
    """One compressed stream of ``data`` inflated (at most ``room`` bytes), and the bytes after it."""
    inflater = zlib.decompressobj(wbits)
    try:
        out = inflater.decompress(data, room + 1)
    except zlib.error as exc:
        raise http_error(400, f"Corrupt {coding} request body: {exc}") from None
    if len(out) > room:
        raise body_too_large()
    if not inflater.eof:
        raise http_error(400, "Unexpected end of ZLIB input stream")
    return out, inflater.unused_data
