"""A response's status line and headers as ``http.server`` writes them, built in one piece.

``BaseHTTPRequestHandler.send_response`` and ``send_header`` write ``HTTP/1.1 <code> <reason>``,
``Server`` and ``Date`` and then each header, one encoded line at a time, and format the date
anew for every response; this builds the same bytes in one join, with the ``Date`` text made
once a second (its resolution, RFC 9110 §5.6.7 IMF-fixdate).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler

_REASONS = {code: phrase for code, (phrase, _) in BaseHTTPRequestHandler.responses.items()}
"""The reason phrase ``http.server`` writes after each status code (an unknown code gets none)."""

_date_second = -1
_date_text = ""


def http_date() -> str:
    """Now as an HTTP ``Date`` (``Sun, 06 Nov 1994 08:49:37 GMT``), formatted once per second."""
    global _date_second, _date_text
    second = int(time.time())
    if second != _date_second:
        # Two threads may both format the new second; they write the same text.
        _date_text, _date_second = formatdate(second, usegmt=True), second
    return _date_text


def response_head(
    protocol: str, status: int, server: str, headers: Iterable[tuple[str, str]], content_length: int | None
) -> bytes:
    """The status line, ``Server``, ``Date``, ``headers`` in order, ``Content-Length`` (unless None) and the
    empty line, encoded as Latin-1 (a header that is not raises UnicodeEncodeError, as ``send_header`` does)."""
    lines = [
        f"{protocol} {status:d} {_REASONS.get(status, '')}\r\nServer: {server}\r\nDate: {http_date()}\r\n"
    ]
    lines.extend(f"{key}: {value}\r\n" for key, value in headers)
    if content_length is not None:
        lines.append(f"Content-Length: {content_length}\r\n")
    lines.append("\r\n")
    return "".join(lines).encode("latin-1", "strict")
