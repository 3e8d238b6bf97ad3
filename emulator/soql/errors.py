"""SOQL errors in Salesforce's own words, with the caret prefix a real org puts in front.

Inside the engine a problem is a :class:`SoqlError` carrying the offset (in the query
text) it is about; :func:`to_salesforce_error` turns it into the one error type of the
emulator, adding the prefix Salesforce writes for query errors::

    \\n<window of the query line>\\n<spaces>^\\nERROR at Row:R:Column:C\\n<message>

Samples from real orgs (real payloads in public issues): mautic/mautic#13406 (INVALID_FIELD,
column 35 of a long select list), node-salesforce-connection ``salesforce-test.js``
(MALFORMED_QUERY ``unexpected token: 'From'``; ``q=invalid`` has no prefix).

The window: real messages show the whole line for short queries and, for long ones, the
whitespace-delimited words from about 30 characters before the error to about 35 after
(fits every public sample: mautic#13406, the Camel ``Account.RecordTypeId`` column 486
report, the ``OCE__ActivityPlan__c`` column 114 report, ``...Email = liam.carter@...``
column 54). Salesforce does not document the width.
"""

from __future__ import annotations

from crmarena_sf.emulator.errors import TOO_COMPLICATED, SalesforceError
from crmarena_sf.emulator.errors import no_such_column as no_such_column_text

WSDL_HINT = "Please reference your WSDL or the describe call for the appropriate names."
_WINDOW_BEFORE = 30
_WINDOW_AFTER = 35


class SoqlError(Exception):
    """A query error before it is rendered: code, message and the offset it points at (or None)."""

    def __init__(self, error_code: str, message: str, offset: int | None = None) -> None:
        super().__init__(f"{error_code}: {message}")
        self.error_code = error_code
        self.message = message
        self.offset = offset


# ---------------------------------------------------------------------------- Salesforce's messages
def no_such_column(name: str, entity: str, offset: int | None) -> SoqlError:
    """INVALID_FIELD for a field the object lacks."""
    return SoqlError("INVALID_FIELD", no_such_column_text(name, entity), offset)


def unsupported_type(name: str, offset: int | None) -> SoqlError:
    """INVALID_TYPE for an object the org does not have."""
    return SoqlError(
        "INVALID_TYPE",
        f"sObject type '{name}' is not supported. If you are attempting to use a custom object, "
        f"be sure to append the '__c' after the entity name. {WSDL_HINT}",
        offset,
    )


def bad_relationship(name: str, offset: int | None) -> SoqlError:
    """INVALID_FIELD for a parent relationship name the object lacks."""
    return SoqlError(
        "INVALID_FIELD",
        f"Didn't understand relationship '{name}' in field path. If you are attempting to use a custom "
        f"relationship, be sure to append the '__r' after the custom relationship name. {WSDL_HINT}",
        offset,
    )


def bad_child_relationship(name: str, offset: int | None) -> SoqlError:
    """INVALID_TYPE for a child relationship name (the FROM of a subquery) the object lacks."""
    return SoqlError(
        "INVALID_TYPE",
        f"Didn't understand relationship '{name}' in FROM part of query call. If you are attempting to use "
        f"a custom relationship, be sure to append the '__r' after the custom relationship name. {WSDL_HINT}",
        offset,
    )


def unexpected_token(text: str | None, offset: int | None) -> SoqlError:
    """MALFORMED_QUERY at a token the grammar does not allow there (``None`` is the end of the query)."""
    shown = "<EOF>" if text is None else text
    return SoqlError("MALFORMED_QUERY", f"unexpected token: '{shown}'", offset)


def malformed(message: str, offset: int | None = None) -> SoqlError:
    """MALFORMED_QUERY with a message of Salesforce's."""
    return SoqlError("MALFORMED_QUERY", message, offset)


def invalid_field(message: str, offset: int | None = None) -> SoqlError:
    """INVALID_FIELD with a message of Salesforce's (type mismatches in filters ...)."""
    return SoqlError("INVALID_FIELD", message, offset)


def filter_operator(message: str, offset: int | None = None) -> SoqlError:
    """INVALID_QUERY_FILTER_OPERATOR (``invalid ID field: abc``, LIKE on an Id ...)."""
    return SoqlError("INVALID_QUERY_FILTER_OPERATOR", message, offset)


def too_complicated() -> SoqlError:
    """QUERY_TOO_COMPLICATED: what a real org answers for queries past its internal limits."""
    return SoqlError("QUERY_TOO_COMPLICATED", TOO_COMPLICATED)


# ---------------------------------------------------------------------------- rendering
def caret_prefix(text: str, offset: int) -> str:
    """The ``\\n<line window>\\n<spaces>^\\nERROR at Row:R:Column:C\\n`` prefix for ``offset`` in ``text``."""
    offset = max(0, min(offset, len(text)))
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    if line_end < 0:
        line_end = len(text)
    line = text[line_start:line_end].rstrip("\r")
    row = text.count("\n", 0, offset) + 1
    column = offset - line_start + 1
    at = column - 1
    start = at - _WINDOW_BEFORE
    if start <= 0:
        start = 0
    else:
        while start > 0 and not line[start - 1].isspace():
            start -= 1
    end = at + _WINDOW_AFTER
    if end >= len(line):
        end = len(line)
    else:
        while end < len(line) and not line[end].isspace():
            end += 1
    window = line[start:end]
    return f"\n{window}\n{' ' * (at - start)}^\nERROR at Row:{row}:Column:{column}\n"


def to_salesforce_error(error: SoqlError, text: str) -> SalesforceError:
    """The REST error (HTTP 400) for ``error`` found in query ``text``."""
    message = error.message
    if error.offset is not None:
        message = caret_prefix(text, error.offset) + message
    return SalesforceError(error.error_code, message, status=400)
