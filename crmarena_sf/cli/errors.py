"""How the CLI reports failures: one clear line on stderr and an exit code that means something."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from crmarena_sf import interrupts
from crmarena_sf.emulator.errors import SalesforceError

EXIT_OK = 0
EXIT_FAILED = 1
"""A Salesforce error (bad SOQL, refused write, failed login) or a failed job."""
EXIT_USAGE = 2
"""Bad usage or unusable input (missing file, unknown profile, unwritable directory)."""


class CliError(Exception):
    """A failure the user can fix; printed as ``crmarena-sf: <message>``."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.exit_code = exit_code


EXIT_INTERRUPTED = 130
"""Ctrl-C (128 + SIGINT, as shells report it)."""


def run(func: Callable[[Any], int | None], args: Any) -> int:
    """Run a command, turning expected failures into a message and an exit code.

    An interrupt always ends with ``interrupted`` and exit 130, whatever error it became on the
    way (DuckDB answers Ctrl-C inside a statement with ``RuntimeError: Query interrupted``;
    :mod:`crmarena_sf.interrupts` remembers that it was one).
    """
    with interrupts.catching():
        try:
            # A command that handles Ctrl-C itself and returns (serve stops on it) keeps its exit code.
            return func(args) or EXIT_OK
        except BaseException as exc:
            if interrupts.is_interrupt(exc):
                return _interrupted()
            return _failure(exc)


def _interrupted() -> int:
    print("crmarena-sf: interrupted", file=sys.stderr)
    return EXIT_INTERRUPTED


def _failure(exc: BaseException) -> int:
    """The exit code of an expected failure, its one line printed; anything else is raised again."""
    if isinstance(exc, SalesforceError):
        print(f"crmarena-sf: {exc.error_code}: {exc.message}", file=sys.stderr)
        return EXIT_FAILED
    if isinstance(exc, CliError):
        print(f"crmarena-sf: {exc}", file=sys.stderr)
        return exc.exit_code
    if isinstance(
        exc, FileNotFoundError | FileExistsError | PermissionError | IsADirectoryError | NotADirectoryError
    ):
        # In words, not "[Errno 2] No such file or directory: 'x'"
        words = f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else str(exc)
        print(f"crmarena-sf: {words}", file=sys.stderr)
        return EXIT_USAGE
    raise exc


def client_call(func: Callable[[], Any]) -> Any:
    """Run a simple-salesforce call, turning its exceptions into the CLI's one-line errors.

    A refused login or unreachable org is a CliError (exit 1, no secrets in the message); an
    API error body becomes the SalesforceError it carries, printed as ``CODE: message``.
    """
    import requests
    from simple_salesforce.exceptions import SalesforceAuthenticationFailed
    from simple_salesforce.exceptions import SalesforceError as ClientError

    try:
        return func()
    except SalesforceAuthenticationFailed as exc:
        message = " ".join(str(getattr(exc, "auth_message", exc)).split())
        raise CliError(f"login failed: {exc.code}: {message}", EXIT_FAILED) from None
    except ClientError as exc:
        content = exc.content
        if isinstance(content, list) and content and isinstance(content[0], dict):
            first = content[0]
            raise SalesforceError(first.get("errorCode", "UNKNOWN"), first.get("message", "")) from None
        raise CliError(f"HTTP {exc.status}: {content}", EXIT_FAILED) from None
    except requests.RequestException as exc:
        raise CliError(f"cannot reach Salesforce{_at(exc)}: {type(exc).__name__}", EXIT_FAILED) from None


def _at(exc: Exception) -> str:
    """`` at https://host:port``: where the failed request went (no path: a query string holds SOQL)."""
    from urllib.parse import urlsplit

    url = getattr(getattr(exc, "request", None), "url", None)
    if not url:
        return ""
    parts = urlsplit(url)
    return f" at {parts.scheme}://{parts.netloc}"
