"""The one error boundary: whatever fails inside the emulator reaches a client as Salesforce's error.

A real org never answers with a stack trace: a request it cannot serve gets an error body
(REST API Developer Guide, "Status Codes and Error Responses",
https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm).
Every door of the emulator passes its failures through :func:`as_salesforce_error`, so a
failure becomes the same error whichever door it came through:

- a :class:`~crmarena_sf.emulator.errors.SalesforceError` passes unchanged;
- Ctrl-C is not a failure: DuckDB answers SIGINT inside a statement with ``RuntimeError: Query
  interrupted``, which leaves as the ``KeyboardInterrupt`` it was (:mod:`crmarena_sf.interrupts`),
  neither logged nor answered, so no client reads it as an error of the org;
- anything else is a bug: it is logged with its traceback and answered UNKNOWN_EXCEPTION,
  whose ErrorId appears in the log line too. The same lines are appended to
  ``<cache>/logs/unknown-exceptions.log`` (:func:`error_log_path`), where a user finds the
  traceback behind an ErrorId to report it (the ErrorId's first and last numbers name the
  failure and where it happened, so one bug keeps them).

The SOQL and SOSL engines run a statement inside :func:`statement_errors`, which adds the two
rules that only make sense for a statement: the engine's own pre-rendered errors (a syntax
error waiting for its caret prefix) are rendered by the engine, and a ``RecursionError`` (a
statement nested deeper than the engine can walk) is QUERY_TOO_COMPLICATED, as a real org
answers queries past its limits. The REST router wraps every request in the plain rule.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from crmarena_sf.emulator.cache_dir import cache_root
from crmarena_sf.emulator.errors import SalesforceError, query_too_complicated, unknown_exception

from crmarena_sf import interrupts

log = logging.getLogger("emulator")

EngineError = TypeVar("EngineError", bound=Exception)


def as_salesforce_error(failure: BaseException, *, context: str = "") -> SalesforceError:
    """The Salesforce error a client gets for ``failure`` (``context`` says what failed, for the log)."""
    if isinstance(failure, SalesforceError):
        return failure
    if interrupts.is_interrupt(failure):
        raise KeyboardInterrupt from None
    error = unknown_exception(failure)
    log.error("%s%s", f"unexpected error {context}: " if context else "", error.message, exc_info=failure)
    _append_to_error_log(error, failure, context)
    return error


def error_log_path() -> Path:
    """The file where every UNKNOWN_EXCEPTION is written with its ErrorId and traceback."""
    return cache_root() / "logs" / "unknown-exceptions.log"


def _append_to_error_log(error: SalesforceError, failure: BaseException, context: str) -> None:
    """One entry per failure: when, the message the client saw, what was being done, the traceback."""
    lines = [f"{dt.datetime.now(dt.UTC).isoformat(timespec='seconds')} {error.message}"]
    if context:
        lines.append(f"while {context}")
    lines.extend(traceback.format_exception(failure))
    try:
        path = error_log_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as log_file:
            log_file.write("".join(line if line.endswith("\n") else line + "\n" for line in lines) + "\n")
    except OSError:
        pass  # a read-only cache keeps the log line only


@contextlib.contextmanager
def statement_errors(
    own: type[EngineError] | None = None,
    render: Callable[[EngineError], SalesforceError] | None = None,
) -> Iterator[None]:
    """Run a SOQL or SOSL statement; any failure leaves the block as a :class:`SalesforceError`.

    ``own`` is the engine's pre-rendered error type and ``render`` turns one into the error a
    client sees (with or without the caret prefix).
    """
    try:
        yield
    except SalesforceError:
        raise
    except RecursionError:
        raise query_too_complicated() from None
    except Exception as failure:
        if own is not None and render is not None and isinstance(failure, own):
            raise render(failure) from None
        raise as_salesforce_error(failure) from None
