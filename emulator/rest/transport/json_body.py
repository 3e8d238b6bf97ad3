"""Reading a JSON request body the way Salesforce's JSON reader (Jackson) reads it.

Every refusal is ``JSON_PARSER_ERROR`` (HTTP 400), the code the REST API answers for a body
it cannot read (REST API Developer Guide, "Status Codes and Error Responses",
https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm),
worded like Jackson's own messages with the ``[line:L, column:C]`` Salesforce appends:

- bytes that are not UTF-8 (``Invalid UTF-8 start byte 0xff``): never stored as U+FFFD;
- ``NaN`` / ``Infinity`` (``Non-standard token 'NaN'``), which Jackson refuses by default;
- numbers longer than :data:`MAX_NUMBER_LENGTH` characters and documents nested deeper than
  :data:`MAX_NESTING_DEPTH`, Jackson's stream-read constraints (they also keep a 5,000-digit
  integer or a 10,000-deep array from costing CPU or stack while the org's lock is held);
- a ``\\ud800`` escape with no partner: such a string cannot be stored as UTF-8.
"""

from __future__ import annotations

import json
import re
from typing import Any

from crmarena_sf.emulator.errors import SalesforceError

MAX_NUMBER_LENGTH = 1000
"""Jackson's default ``StreamReadConstraints.maxNumberLength``."""
MAX_NESTING_DEPTH = 200
"""Deepest nesting of arrays and objects accepted. Jackson's default is 1,000; the emulator
stops at 200 so the resources that walk a body recursively (composite references, sObject
trees) stay well inside Python's stack whatever the caller's depth. A real body is ~15 deep."""

_BOM = "\ufeff"
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]|-?[0-9][0-9.eE+-]*')


class _NumberTooLong(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def parse_json_body(body: bytes | str) -> Any:
    """The body parsed as JSON, or the JSON_PARSER_ERROR a real org answers (see the module docstring)."""
    text = _decode(body) if isinstance(body, (bytes, bytearray)) else body
    if text.startswith(_BOM):
        text = text[1:]
    if not text.strip():
        # What Jackson reports for an empty body.
        raise SalesforceError("JSON_PARSER_ERROR", "No content to map to Object due to end of input")
    try:
        value = json.loads(
            text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_refuse_constant
        )
    except json.JSONDecodeError as exc:
        raise json_parser_error(text, exc) from None
    except _NumberTooLong as exc:
        raise _number_too_long(text, exc.text) from None
    except _NonStandardToken as exc:
        raise _non_standard(text, exc.token) from None
    except RecursionError:
        raise _too_deep(text) from None
    if _may_be_too_deep(text) and _depth(value) > MAX_NESTING_DEPTH:
        raise _too_deep(text)
    if _SURROGATE_ESCAPE.search(text):
        _refuse_lone_surrogates(value)
    return value


def json_parser_error(text: str, exc: json.JSONDecodeError) -> SalesforceError:
    """JSON_PARSER_ERROR worded like Jackson's messages: the offending character and where it is."""
    column = exc.colno
    if exc.pos < len(text):
        char = text[exc.pos]
        reason = f"Unexpected character ('{char}' (code {ord(char)}))"
        if exc.msg.startswith("Expecting property name"):
            reason += ": was expecting double-quote to start field name"
        elif exc.msg.startswith("Expecting value"):
            reason += ": expected a valid value (number, String, array, object, 'true', 'false' or 'null')"
        elif exc.msg.startswith("Expecting ',' delimiter"):
            reason += ": was expecting comma to separate Object entries"
    else:
        reason = "Unexpected end-of-input"
    return SalesforceError("JSON_PARSER_ERROR", f"{reason} at [line:{exc.lineno}, column:{column}]")


# ---------------------------------------------------------------------------- bytes
def _decode(body: bytes) -> str:
    try:
        return bytes(body).decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _position(body[: exc.start].decode("utf-8", errors="replace"), None)
        where = f"at [line:{line}, column:{column}]"
        if exc.reason == "invalid continuation byte":
            # The sequence started at exc.start; the byte after the valid part is the bad one.
            shown = body[exc.end] if exc.end < len(body) else body[exc.start]
            reason = f"Invalid UTF-8 middle byte 0x{shown:02x}"
        elif exc.reason == "unexpected end of data":
            reason = "Unexpected end-of-input"
        else:
            reason = f"Invalid UTF-8 start byte 0x{body[exc.start]:02x}"
        raise SalesforceError("JSON_PARSER_ERROR", f"{reason} {where}") from None


def _position(text: str, offset: int | None) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text`` (its end when None)."""
    head = text if offset is None else text[:offset]
    line = head.count("\n") + 1
    return line, len(head) - (head.rfind("\n") + 1) + 1


# ---------------------------------------------------------------------------- numbers
def _parse_int(token: str) -> int:
    if len(token) > MAX_NUMBER_LENGTH:
        raise _NumberTooLong(token)
    return int(token)


def _parse_float(token: str) -> float:
    if len(token) > MAX_NUMBER_LENGTH:
        raise _NumberTooLong(token)
    return float(token)


def _number_too_long(text: str, token: str) -> SalesforceError:
    offset = text.find(token)
    line, column = _position(text, offset if offset >= 0 else None)
    return SalesforceError(
        "JSON_PARSER_ERROR",
        f"Number value length ({len(token)}) exceeds the maximum allowed ({MAX_NUMBER_LENGTH}, from "
        f"`StreamReadConstraints.getMaxNumberLength()`) at [line:{line}, column:{column}]",
    )


class _NonStandardToken(Exception):
    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.token = token


def _refuse_constant(token: str) -> Any:
    raise _NonStandardToken(token)


def _non_standard(text: str, token: str) -> SalesforceError:
    offset = text.find(token)
    line, column = _position(text, offset if offset >= 0 else None)
    return SalesforceError(
        "JSON_PARSER_ERROR",
        f"Non-standard token '{token}': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow "
        f"at [line:{line}, column:{column}]",
    )


# ---------------------------------------------------------------------------- nesting
def _may_be_too_deep(text: str) -> bool:
    """Cheap pre-check: a document with few brackets cannot be deep."""
    return text.count("[") + text.count("{") > MAX_NESTING_DEPTH


def _depth(value: Any) -> int:
    """How deeply arrays and objects nest in a parsed value (iteratively: no recursion)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        current, depth = stack.pop()
        if isinstance(current, dict):
            children = current.values()
        elif isinstance(current, list):
            children = current
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        if deepest > MAX_NESTING_DEPTH:
            return deepest
        stack.extend((child, depth) for child in children if isinstance(child, (dict, list)))
    return deepest


def _too_deep(text: str) -> SalesforceError:
    """The nesting error, located where the document first goes one level too deep."""
    depth, offset = 0, None
    for token in _TOKEN.finditer(text):
        char = token.group()[0]
        if char in "[{":
            depth += 1
            if depth > MAX_NESTING_DEPTH:
                offset = token.start()
                break
        elif char in "]}":
            depth -= 1
    line, column = _position(text, offset)
    return SalesforceError(
        "JSON_PARSER_ERROR",
        f"Document nesting depth ({MAX_NESTING_DEPTH + 1}) exceeds the maximum allowed ({MAX_NESTING_DEPTH}, "
        f"from `StreamReadConstraints.getMaxNestingDepth()`) at [line:{line}, column:{column}]",
    )


# ---------------------------------------------------------------------------- surrogates
def _refuse_lone_surrogates(value: Any) -> None:
    """JSON_PARSER_ERROR for a string (or key) holding half a surrogate pair (json pairs the whole ones)."""
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, str):
            found = _SURROGATE.search(current)
            if found:
                code = ord(found.group())
                part = "first" if code < 0xDC00 else "second"
                raise SalesforceError(
                    "JSON_PARSER_ERROR", f"Unmatched {part} part of surrogate pair (0x{code:04X})"
                )
        elif isinstance(current, dict):
            stack.extend(current.keys())
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)
