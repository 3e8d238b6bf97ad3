"""The header block of an HTTP/1.1 request, read strictly and cheaply for ``crmarena-sf serve``.

``http.server`` hands the block to the ``email`` package's parser, the largest share of the
server's CPU for a small request's HTTP handling, which also takes in silence what RFC 9112
tells a server to refuse: a line without a colon ends the headers (those after it are dropped),
a folded line (obs-fold) keeps its CRLF inside the value, a name with a space before its colon
or a bare CR inside a line slips through. This reader gives what that parser gave for a
well-formed block (every field in order, each value as sent less its leading spaces and tabs,
names matched case-insensitively, the first of repeated fields from :meth:`RequestHeaders.get`,
all of them from :meth:`RequestHeaders.get_all`), keeps ``http.client``'s limits (a line of at
most 65,536 bytes, fewer than 100 header lines; past them 431) and answers 400 where RFC 9112
says to reject (https://www.rfc-editor.org/rfc/rfc9112#section-5): a line that is not
``name: value``, a name that is not a token (RFC 9110 §5.1) or has whitespace before its colon,
a folded continuation line (§5.2), a bare CR or a NUL (RFC 9110 §5.5). A line may end in LF
alone (§2.2 allows it).
"""

from __future__ import annotations

import re
from itertools import chain
from typing import BinaryIO

MAX_LINE = 65536
"""Longest header line read (``http.client``'s limit); a longer one is 431."""
MAX_LINES = 100
"""Header lines read, the empty line that ends them included (``http.client``'s count); more are 431."""

_TOKEN = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
"""The characters of a field name (RFC 9110 §5.6.2 tchar)."""
_WELL_FORMED = re.compile(r"(?>[!#$%&'*+\-.^_`|~0-9A-Za-z]++:[^\r\n\0]*+\r?\n)*+")
"""A block of header lines :func:`parse_field` accepts, each ending in CRLF or LF (atomic and possessive:
a bad line fails the match in one pass, never by trying other splits of the lines before it)."""
_FIELD = re.compile(r"([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*([^\r\n\0]*)\r?\n")
"""One line of such a block: its name, and its value less leading spaces and tabs."""
_SHOWN = 80
"""Characters of a refused line quoted back in the 400's message."""


class HeaderRefusal(Exception):
    """A header block the server refuses: ``status`` (400 or 431) and the message to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class RequestHeaders:
    """A request's header fields in the order sent; lookups ignore the case of names."""

    __slots__ = ("_fields", "_by_name")

    def __init__(self, fields: list[tuple[str, str]]) -> None:
        self._fields = fields
        self._by_name: dict[str, list[str]] = {}
        for name, value in fields:
            self._by_name.setdefault(name.lower(), []).append(value)

    def get(self, name: str, default: str | None = None) -> str | None:
        """The value of the first field named ``name``, or ``default``."""
        values = self._by_name.get(name.lower())
        return values[0] if values else default

    def get_all(self, name: str) -> list[str]:
        """Every value of fields named ``name``, in order (empty when there is none)."""
        return list(self._by_name.get(name.lower(), ()))

    def items(self) -> list[tuple[str, str]]:
        """Every field as ``(name, value)``, in order, repeats included."""
        return list(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def size(self) -> int:
        """Bytes of the fields counted as ``name: value`` lines with CRLF (what the 431 limit counts)."""
        return sum(map(len, chain.from_iterable(self._fields))) + 4 * len(self._fields)


def read_headers(rfile: BinaryIO) -> RequestHeaders:
    """Read header lines up to the empty line (or the end of the stream); raises :class:`HeaderRefusal`."""
    lines: list[bytes] = []
    readline = rfile.readline
    while True:
        line = readline(MAX_LINE + 1)
        if len(line) > MAX_LINE:
            raise HeaderRefusal(431, "Line too long")
        if len(lines) >= MAX_LINES:  # this line would be the 101st, the empty line counted
            raise HeaderRefusal(431, "Too many headers")
        if line in (b"\r\n", b"\n", b""):
            break
        lines.append(line)
    block = b"".join(lines).decode("iso-8859-1")
    if (not lines or lines[-1].endswith(b"\n")) and _WELL_FORMED.fullmatch(block):
        return RequestHeaders(_FIELD.findall(block))  # the usual block: two regular expressions, no loop
    return RequestHeaders([parse_field(line.decode("iso-8859-1")) for line in lines])


def parse_field(line: str) -> tuple[str, str]:
    """``(name, value)`` of one header line (its line ending included); raises :class:`HeaderRefusal` (400)."""
    text = line[:-2] if line.endswith("\r\n") else line.rstrip("\n")
    name, colon, value = text.partition(":")
    if not colon or not name or not _TOKEN.issuperset(name):
        if text[:1] in (" ", "\t"):
            raise HeaderRefusal(400, f"Obsolete line folding in the request headers ({_shown(text)})")
        raise HeaderRefusal(400, f"Bad request header line ({_shown(text)})")
    if "\r" in value or "\0" in value:
        raise HeaderRefusal(400, f"Bad character in the request header {name}")
    return name, value.lstrip(" \t")


def _shown(text: str) -> str:
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "...")
