"""Salesforce record Ids.

An Id is 15 case-sensitive base-62 characters (3-character key prefix, 2-character pod,
1 reserved character, 9-character counter) plus a 3-character suffix that makes it
case-insensitive. The suffix encodes, for each 5-character chunk, which characters are
upper case (salesforce.stackexchange.com/questions/1653; checked against the REST API
guide's sample Id ``001D000000IqhSLIAZ`` and the master record type ``012000000000000AAA``).
"""

from __future__ import annotations

import re

_SUFFIX_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
EMULATOR_POD = "Em"
"""Pod characters of every Id the emulator mints (CRMArena's own org used ``Ws``)."""

_ID_SHAPE = re.compile(r"^[a-zA-Z0-9]{15}(?:[a-zA-Z0-5]{3})?$")


def checksum(id15: str) -> str:
    """The 3-character case-safe suffix of a 15-character Id."""
    out = []
    for chunk in range(3):
        bits = 0
        for i, ch in enumerate(id15[chunk * 5 : chunk * 5 + 5]):
            if "A" <= ch <= "Z":
                bits |= 1 << i
        out.append(_SUFFIX_ALPHABET[bits])
    return "".join(out)


def to18(id15: str) -> str:
    """The 18-character form of a 15-character Id (an 18-character Id is returned as is)."""
    if len(id15) == 18:
        return id15
    return id15 + checksum(id15)


def normalize(value: str) -> str | None:
    """The canonical 18-character Id for a 15- or 18-character Id string, else ``None``.

    An 18-character Id whose suffix disagrees with its first 15 characters is not an Id.
    """
    if not isinstance(value, str) or not _ID_SHAPE.match(value):
        return None
    if len(value) == 15:
        return to18(value)
    head = value[:15]
    if checksum(head).upper() != value[15:].upper():
        return None
    return head + checksum(head)


def base62(number: int, width: int) -> str:
    """``number`` in base 62, left-padded with zeros to ``width`` characters."""
    digits = []
    while number:
        number, rem = divmod(number, 62)
        digits.append(BASE62[rem])
    text = "".join(reversed(digits)) or "0"
    if len(text) > width:
        raise OverflowError(f"{number} does not fit in {width} base-62 digits")
    return text.rjust(width, "0")


def make_id(key_prefix: str, counter: int, pod: str = EMULATOR_POD) -> str:
    """The 18-character Id of record number ``counter`` of the object with ``key_prefix``."""
    return to18(f"{key_prefix}{pod}0{base62(counter, 9)}")


def counter_of(record_id: str) -> int:
    """The record counter encoded in an Id's characters 6..15."""
    value = 0
    for ch in record_id[6:15]:
        value = value * 62 + BASE62.index(ch)
    return value
