"""``crmarena-sf``: entry point and command registry.

Each command lives in its own module ``crmarena_sf/cli/cmd_<name>.py`` exposing
``register(subparsers)``, which adds a sub-parser whose ``func(args) -> int`` runs it.
Errors a user can cause end with a one-line message on stderr and a non-zero exit code,
never a traceback: 1 for a Salesforce error or failed job, 2 for bad usage or input.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from importlib.metadata import entry_points

from crmarena_sf import __version__

EXIT_INTERRUPTED = 130

COMMAND_PLUGINS = "crmarena_sf.commands"
"""Entry-point group of commands other floors add (the benchmark suite's ``bench``): each names a
module with ``register(subparsers)``, like the ``cmd_*`` modules here."""


def build_parser() -> argparse.ArgumentParser:
    from crmarena_sf.cli.arguments import CommandParser

    parser = argparse.ArgumentParser(
        prog="crmarena-sf",
        description="The CRMArena Salesforce org, offline (DuckDB emulator) or real, behind one front door.",
    )
    parser.add_argument("--version", action="version", version=f"crmarena-sf {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    package = importlib.import_module("crmarena_sf.cli")
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.name.startswith("cmd_"):
            importlib.import_module(f"crmarena_sf.cli.{info.name}").register(subparsers)
    for entry in sorted(entry_points(group=COMMAND_PLUGINS), key=lambda e: e.name):
        entry.load().register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        # Imported here, not at the top: Ctrl-C while the commands load (a second on a busy
        # machine) is then answered like any other, not with a traceback.
        from crmarena_sf.cli import errors as cli_errors

        parser = build_parser()
        args = parser.parse_args(argv)
    except KeyboardInterrupt:
        print("crmarena-sf: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return cli_errors.run(args.func, args)


if __name__ == "__main__":
    sys.exit(main())
