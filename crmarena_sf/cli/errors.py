"""How the CLI reports failures: one clear line on stderr and an exit code that means something."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from emulator.errors import SalesforceError

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


def run(func: Callable[[Any], int | None], args: Any) -> int:
    """Run a command, turning expected failures into a message and an exit code."""
    try:
        return func(args) or EXIT_OK
    except SalesforceError as exc:
        print(f"crmarena-sf: {exc.error_code}: {exc.message}", file=sys.stderr)
        return EXIT_FAILED
    except CliError as exc:
        print(f"crmarena-sf: {exc}", file=sys.stderr)
        return exc.exit_code
    except (
        FileNotFoundError,
        FileExistsError,
        PermissionError,
        IsADirectoryError,
        NotADirectoryError,
    ) as exc:
        print(f"crmarena-sf: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("crmarena-sf: interrupted", file=sys.stderr)
        return 130
