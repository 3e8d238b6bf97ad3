"""Argument types and options several commands share (same names and messages everywhere)."""

from __future__ import annotations

import argparse

from crmarena_sf.connection.orgs import ORG_HELP


class CommandParser(argparse.ArgumentParser):
    """A command's parser: it reports arguments it does not know itself, with its own usage.

    argparse hands a sub-command's unknown arguments back to the top-level parser, whose error
    shows the top-level usage (``crmarena-sf [-h] [--version] COMMAND``), which does not say
    what ``query`` takes.
    """

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def non_negative_int(text: str) -> int:
    value = _whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def positive_int(text: str) -> int:
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {text}")
    return value


def port_number(text: str) -> int:
    """A TCP port: 0 (the system picks a free one) to 65535."""
    value = _whole_number(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port from 0 to 65535, not {text}")
    return value


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1, bracketed or not): what a server
    bound there is reachable from this machine only."""
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def add_served_org_options(parser: argparse.ArgumentParser) -> None:
    """``--org`` and ``--describes``, as the commands that serve an emulated org (serve, mcp) take them."""
    from pathlib import Path

    parser.add_argument("--org", default="crmarena", help=f"the org to serve: {ORG_HELP}")
    parser.add_argument(
        "--describes",
        action="append",
        type=Path,
        metavar="DIR",
        help="a directory of describe documents (<Object>.json, as `crmarena-sf metadata pull` writes them, "
        "or hand-written) whose objects and fields the org gains; repeat for several",
    )


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
    from crmarena_sf.connection.connect import MissingCredentials, connect
    from crmarena_sf.connection.orgs import OrgNotFound

    if backend == "salesforce" and org != "crmarena":
        raise CliError(
            f"--org {org} names an emulated org, and --backend salesforce runs on the real org of your "
            "credentials: give one of them"
        )
    try:
        if backend == "salesforce":
            return client_call(lambda: connect(backend="salesforce"))
        return connect(org)
    except (OrgNotFound, MissingCredentials) as exc:
        raise CliError(str(exc)) from None


def add_task_set_options(parser: argparse.ArgumentParser, when: str = "", interactive: bool = False) -> None:
    """``--suite``, ``--per-task`` and ``--seed``: which task set to build (``when`` prefixes the help).

    ``interactive``: the suites a command runs may be the multi-turn ones (``run``)."""
    from crmarena_sf.tasks.users import INTERACTIVE_SUITES

    suites = ["crmarena", "soql", "pro-b2b", "pro-b2c"] + (list(INTERACTIVE_SUITES) if interactive else [])
    more = (
        "; crmarena-interactive, pro-b2b-interactive, pro-b2c-interactive: the same instances, multi-turn, "
        "a simulated user holding the question"
        if interactive
        else ""
    )
    # Defaults are None, so a command can tell an option given from one left out (run --tasks refuses them).
    parser.add_argument(
        "--suite",
        choices=suites,
        default=None,
        help=f"{when}crmarena (the nine CRMArena tasks, default), soql (the text-to-SOQL track), or "
        "pro-b2b / pro-b2c (CRMArena-Pro's 22 tasks, on the org crmarena-pro-b2b / -b2c unless --org names one)"
        + more,
    )
    parser.add_argument(
        "--per-task",
        type=positive_int,
        default=None,
        metavar="N",
        help=f"{when}instances per task (default: 130; 320 for --suite soql; 100 for the Pro suites, "
        "whose confidentiality tasks get four fifths of it)",
    )
    # --org's default depends on the suite: None here, filled in by task_set_choice.
    parser.set_defaults(org=None)
    parser.add_argument(
        "--seed", type=non_negative_int, default=None, metavar="S", help=f"{when}random seed (default: 0)"
    )


def task_set_choice(args) -> tuple[str, int | None, int]:
    """``--suite``, ``--per-task`` and ``--seed`` with their defaults filled in (per-task None: the suite's).

    ``--org`` left out becomes the suite's org (``crmarena``, or a Pro suite's own org). An interactive
    suite is its single-turn suite here: the same instances."""
    from crmarena_sf.tasks.users import INTERACTIVE_SUITES

    suite = INTERACTIVE_SUITES.get(args.suite, args.suite) or "crmarena"
    if getattr(args, "org", "") is None:
        args.org = "crmarena" if getattr(args, "backend", "emulator") == "salesforce" else suite_org(suite)
    return suite, args.per_task, args.seed or 0


def suite_org(suite: str | None) -> str:
    """The org a suite runs on when ``--org`` is not given: a Pro suite's own, else ``crmarena``."""
    from crmarena_sf.tasks.pro.suite import SUITE_ORGS
    from crmarena_sf.tasks.users import INTERACTIVE_SUITES

    return SUITE_ORGS.get(INTERACTIVE_SUITES.get(suite, suite) or "", "crmarena")
