"""Argument types and options several commands share (same names and messages everywhere)."""

from __future__ import annotations

import argparse
import os

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


def add_scoring_options(parser: argparse.ArgumentParser) -> None:
    """``--judge-model``, ``--scoring`` and ``--extractor-model``: how answers are scored (``run``, ``mcp --suite``).

    The judge and the extraction step call the model endpoint of ``--base-url`` (else OpenAI's)."""
    parser.add_argument(
        "--judge-model",
        metavar="M",
        help="the model judging privacy refusals (tasks scored by privacy_rejection), at --base-url",
    )
    parser.add_argument(
        "--scoring",
        choices=("project", "official"),
        default="project",
        help="Pro suites: the project's exact-match rules (default) or CRMArena-Pro's evaluator's exactly",
    )
    parser.add_argument(
        "--extractor-model",
        metavar="M",
        help="Pro suites: the model extracting answers from replies (at --base-url; default: rule-based)",
    )


def scoring_models(args) -> list[tuple[str, str]]:
    """The scoring options that name a model, as ``(option, model)``."""
    named = (("--judge-model", args.judge_model), ("--extractor-model", args.extractor_model))
    return [(option, model) for option, model in named if model]


def check_model_endpoint(named: list[tuple[str, str]], base_url: str | None) -> None:
    """One request to the model endpoint (``base_url``, else OpenAI's) before any work: it answers, and
    takes the key. ``named``: the ``(option, model)`` pairs calling it (none: nothing to check)."""
    from crmarena_sf.cli.errors import EXIT_FAILED, CliError
    from crmarena_sf.tasks.agents.base import ModelEndpointError
    from crmarena_sf.tasks.agents.llm import ChatModel

    if not named:
        return
    option, model = named[0]
    if not base_url and not os.environ.get("OPENAI_API_KEY"):
        raise CliError(
            f"{option} needs an API key: set OPENAI_API_KEY, or give --base-url for an endpoint that needs "
            "none (vLLM, Ollama ...)"
        )
    try:
        ChatModel(model, base_url).check()
    except ModelEndpointError as exc:
        raise CliError(str(exc), EXIT_FAILED) from None


def scoring_of(args):
    """The judge (``--judge-model``), and for the Pro suites the scoring rules and extraction step with it:
    what the episodes score answers with (None: the suite's metric as it is)."""
    from crmarena_sf.tasks.agents.llm import ChatModel
    from crmarena_sf.tasks.metrics import Scoring

    judge = None
    if args.judge_model:
        from crmarena_sf.tasks.agents.judge import RefusalJudge

        judge = RefusalJudge(ChatModel(args.judge_model, args.base_url))
    if args.scoring == "project" and not args.extractor_model:
        return judge
    extractor = None
    if args.extractor_model:
        from crmarena_sf.tasks.llm_extractor import ModelExtractor

        extractor = ModelExtractor(ChatModel(args.extractor_model, args.base_url))
    return Scoring(judge, args.scoring, extractor)


def scoring_settings(args) -> dict:
    """What results.json's settings say about the scoring (as ``run`` records it)."""
    return {
        "scoring": None if args.scoring == "project" else args.scoring,
        "extractor_model": args.extractor_model,
    }


def add_user_options(parser: argparse.ArgumentParser) -> None:
    """``--user-model``, ``--user-base-url``, ``--user-temperature``, ``--user-seed``: the interactive suites' user."""
    parser.add_argument(
        "--user-model",
        metavar="M",
        help="interactive suites: an LLM user, the model at --user-base-url (key: OPENAI_USER_API_KEY); "
        "default: the scripted user, no model",
    )
    parser.add_argument(
        "--user-base-url", metavar="URL", help="interactive suites: the LLM user's OpenAI-compatible endpoint"
    )
    parser.add_argument(
        "--user-temperature",
        type=float,
        default=None,
        metavar="T",
        help="interactive suites: the LLM user's temperature (default 0)",
    )
    parser.add_argument(
        "--user-seed",
        type=int,
        default=None,
        metavar="S",
        help="interactive suites: the LLM user's seed (default 0); with run --trials K, trial k uses S+k-1",
    )


def user_spec(args):
    """The user of an interactive suite (scripted, or an LLM with ``--user-model``); None for a single-turn
    suite, where the user options are refused."""
    from crmarena_sf.cli.errors import CliError
    from crmarena_sf.tasks.users import INTERACTIVE_SUITES, USER_KEY_VARIABLE, UserSpec

    if args.suite not in INTERACTIVE_SUITES:
        for given, option in ((args.user_model, "--user-model"), (args.user_base_url, "--user-base-url")):
            if given:
                raise CliError(
                    f"{option} is for the interactive suites (--suite {', '.join(INTERACTIVE_SUITES)}), "
                    "where a simulated user holds the question"
                )
        return None
    if not args.user_model:
        for given, option in (
            (args.user_base_url, "--user-base-url"),
            (args.user_temperature, "--user-temperature"),
            (args.user_seed, "--user-seed"),
        ):
            if given is not None:
                raise CliError(f"{option} needs --user-model (the scripted user has no model)")
        return UserSpec("scripted")
    temperature = 0.0 if args.user_temperature is None else args.user_temperature
    if not 0 <= temperature <= 2:
        raise CliError(
            f"--user-temperature must be from 0 to 2 (the OpenAI API's range), not {temperature:g}"
        )
    if not args.user_base_url and not os.environ.get(USER_KEY_VARIABLE):
        raise CliError(
            f"--user-model needs an API key: set {USER_KEY_VARIABLE}, or give --user-base-url for an endpoint "
            "that needs none (vLLM, Ollama ...)"
        )
    return UserSpec("llm", args.user_model, args.user_base_url, temperature, args.user_seed or 0)


def check_user_endpoint(user) -> None:
    """One request to the LLM user's endpoint before the first episode (nothing for the scripted user)."""
    from crmarena_sf.cli.errors import EXIT_FAILED, CliError
    from crmarena_sf.tasks.agents.base import ModelEndpointError
    from crmarena_sf.tasks.agents.llm import ChatModel
    from crmarena_sf.tasks.users import USER_KEY_VARIABLE

    if user is None or user.kind != "llm":
        return
    try:
        ChatModel(user.model, user.base_url, api_key_variable=USER_KEY_VARIABLE).check()
    except ModelEndpointError as exc:
        raise CliError(f"--user-model: {exc}", EXIT_FAILED) from None
