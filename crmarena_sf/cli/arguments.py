"""Argument types and options several commands share (same names and messages everywhere)."""

from __future__ import annotations

import argparse

from crmarena_sf.orgs import ORG_HELP


def non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def positive_int(text: str) -> int:
    value = non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {text}")
    return value


def add_org_options(parser: argparse.ArgumentParser) -> None:
    """``--org`` and ``--backend``, as every command that reaches an org takes them."""
    parser.add_argument("--org", default="crmarena", help=f"the emulated org: {ORG_HELP}")
    parser.add_argument(
        "--backend",
        choices=("emulator", "salesforce"),
        default="emulator",
        help="emulator (default) or a real org (credentials from the environment or .env)",
    )


def connect_for_cli(org: str, backend: str):
    """A simple-salesforce client for ``--org``/``--backend``; unusable orgs and missing credentials are CLI errors."""
    from crmarena_sf.cli.errors import CliError, client_call
    from crmarena_sf.connect import MissingCredentials, connect
    from crmarena_sf.orgs import OrgNotFound

    try:
        if backend == "salesforce":
            return client_call(lambda: connect(backend="salesforce"))
        return connect(org)
    except (OrgNotFound, MissingCredentials) as exc:
        raise CliError(str(exc)) from None
