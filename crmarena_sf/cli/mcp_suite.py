"""``crmarena-sf mcp --suite SUITE [--tasks FILE] --out DIR``: the benchmark mode of ``mcp``, its options and set-up.

An ``-interactive`` suite serves its single-turn suite's instances with a simulated user holding
each question (:mod:`crmarena_sf.tasks.users`): the scripted one, or an LLM with ``--user-model``,
the user options being ``run``'s (one definition, :mod:`crmarena_sf.cli.arguments`), refused and
checked as ``run`` refuses and checks them. ``--judge-model``, ``--scoring`` and
``--extractor-model`` score answers as ``run``'s do, at ``--base-url`` (which the benchmark mode
takes for them alone: the agent is the MCP client's, its model none of ours).
The task set is the one ``crmarena-sf run`` would run: a task file (``--tasks``, refused when it
was built on another org than ``--org``), or the suite's set built on the org (``--per-task``,
``--seed``). The org is the suite's own unless ``--org`` names one. ``--out`` is a directory:
``results.json`` and its episode log ``results.episodes.jsonl`` go there, and the same command
with the same ``--out`` resumes (``--fresh`` starts over). The server itself is
:mod:`crmarena_sf.mcp_server.suite_tools` on :mod:`crmarena_sf.mcp_server.suite_session`.
"""

from __future__ import annotations

import sys

from crmarena_sf.cli.arguments import (
    add_scoring_options,
    add_user_options,
    check_model_endpoint,
    check_user_endpoint,
    non_negative_int,
    positive_int,
    scoring_models,
    scoring_of,
    scoring_settings,
    suite_org,
    task_set_choice,
    user_spec,
)
from crmarena_sf.cli.errors import CliError

SUITE_TITLES = {
    "crmarena": "CRMArena",
    "soql": "text-to-SOQL",
    "pro-b2b": "CRMArena-Pro (B2B)",
    "pro-b2c": "CRMArena-Pro (B2C)",
    "crmarena-interactive": "CRMArena (multi-turn)",
    "pro-b2b-interactive": "CRMArena-Pro (B2B, multi-turn)",
    "pro-b2c-interactive": "CRMArena-Pro (B2C, multi-turn)",
}


def add_suite_options(parser) -> None:
    """The options of the benchmark mode (``--suite`` switches it on)."""
    group = parser.add_argument_group(
        "benchmark mode", "serve a benchmark's tasks to an MCP agent instead of an org's tools"
    )
    group.add_argument(
        "--suite",
        choices=tuple(SUITE_TITLES),
        help="serve this suite's tasks: next_task, the suite's tools (CRMArena's 27, or SOQL and SOSL for "
        "the Pro suites) and submit_answer (reply_to_user, to the simulated user, for the -interactive "
        "suites), each episode on its own fork of the org",
    )
    group.add_argument(
        "--tasks", metavar="FILE", help="a task file to serve (default: build the suite's tasks)"
    )
    group.add_argument(
        "--per-task",
        type=positive_int,
        metavar="N",
        help="without --tasks: instances per task (default: the suite's)",
    )
    group.add_argument(
        "--seed",
        type=non_negative_int,
        default=None,
        metavar="S",
        help="without --tasks: random seed (default 0)",
    )
    group.add_argument(
        "--out",
        metavar="DIR",
        help="the run's directory: results.json and its episode log (required with --suite)",
    )
    group.add_argument(
        "--agent-name",
        metavar="A",
        help="the agent's name in the results when the MCP client gives none (its clientInfo names it)",
    )
    group.add_argument(
        "--model-name", metavar="M", help="the model the agent runs, for the results (MCP carries none)"
    )
    add_user_options(group)
    add_scoring_options(group)
    group.add_argument(
        "--base-url",
        metavar="URL",
        help="the OpenAI-compatible endpoint of --judge-model and --extractor-model (default: OpenAI; the key "
        "comes from OPENAI_API_KEY)",
    )
    group.add_argument("--fresh", action="store_true", help="ignore the episode log in --out and start over")
    group.add_argument(
        "--allow-org-mismatch",
        action="store_true",
        help="serve a task file on an org other than the one it was built on (its gold answers may not hold)",
    )


def refuse_mode_mix(args) -> None:
    """Options of one mode given in the other are refused, not ignored."""
    suite_only = ("tasks", "per_task", "seed", "out", "agent_name", "model_name", "base_url", "judge_model")
    suite_only += ("extractor_model", "user_model", "user_base_url", "user_temperature", "user_seed")
    if args.suite is None:
        for name in suite_only:
            if getattr(args, name) is not None:
                raise CliError(f"--{name.replace('_', '-')} is for the benchmark mode: give --suite")
        for flag in ("fresh", "allow_org_mismatch"):
            if getattr(args, flag):
                raise CliError(f"--{flag.replace('_', '-')} is for the benchmark mode: give --suite")
        if args.scoring != "project":
            raise CliError("--scoring is for the benchmark mode: give --suite")
        return
    if args.read_only:
        raise CliError(
            "--read-only is for serving an org: the benchmark's tools only read (writes stay in each task's fork)"
        )
    if args.describes:
        raise CliError("--describes is for serving an org, not a benchmark")
    if args.out is None:
        raise CliError("--suite needs --out DIR: where results.json and its episode log go")
    if args.tasks and (args.per_task is not None or args.seed is not None):
        raise CliError("--per-task and --seed say which tasks to build, and --tasks gives them: give one")
    if args.base_url and not scoring_models(args):
        raise CliError("--base-url is the endpoint of --judge-model and --extractor-model: give one of them")


def open_suite_session(args):
    """The benchmark's session (tasks, org, log, results) and the suite its tools are for; CliError on bad input."""
    from crmarena_sf.cli.paths import output_dir
    from crmarena_sf.cli.task_sets import read_task_file, task_set_on
    from crmarena_sf.connection.connect import connect
    from crmarena_sf.connection.orgs import OrgNotFound, resolve_org
    from crmarena_sf.mcp_server.suite_session import SuiteSession
    from crmarena_sf.tasks.episode_log import EpisodeLogMismatch
    from crmarena_sf.tasks.pro.suite import is_pro
    from crmarena_sf.tasks.users import INTERACTIVE_SUITES

    out = output_dir(args.out, "--out")
    base = INTERACTIVE_SUITES.get(args.suite, args.suite)  # an interactive suite runs its suite's instances
    user = user_spec(args)
    tasks = None
    if args.tasks:
        tasks = read_task_file(args.tasks, base)
        if not tasks:
            raise CliError(f"--tasks {args.tasks}: holds no task")
        if user is not None and user.kind == "scripted" and any(t.params is None for t in tasks):
            raise CliError(
                f"--suite {args.suite}: the scripted user speaks from each task's params, and --tasks "
                f"{args.tasks} has tasks without them (official files carry none)"
            )
        if any(is_pro(t.suite) != is_pro(base) for t in tasks):
            raise CliError(
                f"--tasks {args.tasks} holds tasks of another suite than --suite {args.suite} "
                "(CRMArena's and CRMArena-Pro's have different tools)"
            )
    # The model endpoints answer before anything is served (as run checks them before its first episode).
    check_model_endpoint(scoring_models(args), args.base_url)
    check_user_endpoint(user)
    if args.org is None:
        args.org = suite_org(args.suite)
    args.backend = "emulator"
    try:
        org = resolve_org(args.org, progress=False)
    except OrgNotFound as exc:
        raise CliError(str(exc)) from None
    org.con.execute("SET GLOBAL threads = 1")  # as serve and mcp --org: small queries run faster on one
    suite, per_task, seed = task_set_choice(args)
    fork = org.fork()
    try:
        task_set = task_set_on(args, connect(org=fork), tasks, "emulator", suite, per_task, seed, quiet=True)
    finally:
        fork.close()
    tasks = task_set.records
    settings = {
        "backend": "emulator",
        "org": args.org,
        "org_fingerprint": task_set.fingerprint,
        "suite": args.suite,
        "tasks_file": args.tasks,
        "per_task": task_set.wanted,
        "seed": None if args.tasks else seed,
        "transport": "mcp http" if args.http else "mcp stdio",
        "judge_model": args.judge_model,
        **scoring_settings(args),
    }
    try:
        session = SuiteSession(
            tasks,
            org,
            out,
            settings,
            agent_name=args.agent_name,
            model_name=args.model_name,
            fresh=args.fresh,
            user=user,
            judge=scoring_of(args),
        )
    except EpisodeLogMismatch as exc:
        raise CliError(str(exc)) from None
    if session.done:
        print(
            f"crmarena-sf: resuming: {len(session.done)} episodes of {out} kept, {len(session.todo)} to serve "
            "(--fresh starts over)",
            file=sys.stderr,
        )
    return session, tasks[0].suite, SUITE_TITLES[args.suite]
