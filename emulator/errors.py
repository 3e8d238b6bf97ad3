"""The one error type of the emulator.

Salesforce reports every failure as data: an ``errorCode``, a ``message`` and, for
field-level problems, the ``fields`` involved, plus the HTTP status the REST API uses.
Every layer raises :class:`SalesforceError`; every transport renders it the same way
(``[{"message": ..., "errorCode": ..., "fields": [...]}]`` on REST, ``errorCode: message``
in the CLI). Codes and messages are Salesforce's own words; never invent one.
"""

from __future__ import annotations

import itertools
import zlib


class SalesforceError(Exception):
    """A failure exactly as Salesforce reports it."""

    def __init__(
        self,
        error_code: str,
        message: str,
        fields: list[str] | None = None,
        status: int = 400,
    ) -> None:
        super().__init__(f"{error_code}: {message}")
        self.error_code = error_code
        self.message = message
        self.fields = list(fields or [])
        self.status = status
        self.field_level = fields is not None
        """True for record-level (DML) errors, whose REST body carries ``fields``; request-level
        errors (session, query, search, parsing, routing) have no ``fields`` key on a real org."""

    def to_rest(self) -> dict:
        """One element of a REST error body: ``{"message", "errorCode"[, "fields"]}``.

        A real org sends ``fields`` with record-level errors only (``REQUIRED_FIELD_MISSING``
        lists the fields; a 401 or a MALFORMED_QUERY body has no such key).
        """
        body = {"message": self.message, "errorCode": self.error_code}
        if self.field_level:
            body["fields"] = self.fields
        return body

    def to_save_error(self) -> dict:
        """The element of ``errors`` in a SaveResult (collections, composite/tree)."""
        return {"statusCode": self.error_code, "message": self.message, "fields": self.fields}

    def __repr__(self) -> str:
        return f"SalesforceError({self.error_code!r}, {self.message!r}, fields={self.fields!r})"


def not_found() -> SalesforceError:
    """404 for a record or resource that does not exist (REST API error codes page)."""
    return SalesforceError("NOT_FOUND", "The requested resource does not exist", status=404)


def no_such_column(name: str, entity: str) -> str:
    """The INVALID_FIELD text for a field an object lacks, as queries and ``?fields=`` word it."""
    return (
        f"No such column '{name}' on entity '{entity}'. If you are attempting to use a custom field, "
        "be sure to append the '__c' after the custom field name. Please reference your WSDL or the "
        "describe call for the appropriate names."
    )


# ---------------------------------------------------------------------------- generic errors
# Salesforce's answers when the failure is not the caller's mistake in a way it can name. Every
# engine and transport takes them from here, so each is worded (and numbered) one way only.

TOO_COMPLICATED = "Query is either selecting too many fields or the filter conditions are too complicated."
"""QUERY_TOO_COMPLICATED's message: what a real org answers for queries past its internal limits."""


def query_too_complicated() -> SalesforceError:
    """QUERY_TOO_COMPLICATED (HTTP 400), for a query or search too deep for the engine to plan."""
    return SalesforceError("QUERY_TOO_COMPLICATED", TOO_COMPLICATED)


_failure_numbers = itertools.count(1)


def unknown_exception(failure: BaseException | None = None) -> SalesforceError:
    """UNKNOWN_EXCEPTION (HTTP 500): Salesforce's answer to a failure of its own.

    The message carries an ErrorId shaped like a real org's (``1730955361-49792 (-1117026034)``:
    two unsigned numbers and a signed one in parentheses). Here the first number names the
    failure (its type and message), the second counts failures in this process, and the third
    names where it happened (its innermost frame), so one bug always shows the same first and
    last numbers and a log line can be matched to what the client saw.
    """
    kind = f"{type(failure).__name__}: {failure}" if failure is not None else ""
    site = ""
    traceback = failure.__traceback__ if failure is not None else None
    while traceback is not None and traceback.tb_next is not None:
        traceback = traceback.tb_next
    if traceback is not None:
        site = f"{traceback.tb_frame.f_code.co_filename}:{traceback.tb_lineno}"
    signed = zlib.crc32(site.encode()) - 2**31
    error_id = f"{zlib.crc32(kind.encode())}-{next(_failure_numbers)} ({signed})"
    return SalesforceError(
        "UNKNOWN_EXCEPTION",
        f"An unexpected error occurred. Please include this ErrorId if you contact support: {error_id}",
        status=500,
    )
