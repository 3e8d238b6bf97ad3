"""``crmarena-sf run --agent NAME [--model M] [--tasks FILE] [--org ORG] [--workers N] --out results.json``: the benchmark.

Runs an agent on every task, each episode on its own fork of the org, and writes
results.json (overall score, per-task scores, settings, token usage and every episode with
its trajectory); prints the per-task table. Without --tasks it first builds the org's
default task set (--per-task, --seed), exactly as "crmarena-sf tasks build" would. Finished
episodes are appended to results.episodes.jsonl beside --out as they end: the same command
after an interruption resumes and skips them (--fresh starts over). An interactive suite
(``--suite crmarena-interactive``, ``pro-b2b-interactive``, ``pro-b2c-interactive``) runs the same
instances multi-turn, with the scripted user or an LLM user (``--user-model``); ``--trials K``
runs each instance K times and prints pass^1..pass^K.
"""

from __future__ import annotations

import importlib.util
import os
import sys

from crmarena_sf.cli.arguments import (
    add_org_options,
    add_scoring_options,
    add_task_set_options,
    add_user_options,
    check_model_endpoint,
    check_user_endpoint,
    connect_for_cli,
    positive_int,
    scoring_models,
    scoring_of,
    scoring_settings,
    suite_org,
    task_set_choice,
    user_spec,
)
from crmarena_sf.cli.errors import EXIT_FAILED, CliError
from crmarena_sf.cli.paths import output_file


def register(subparsers) -> None:
    from crmarena_sf.tasks.agents import AGENTS

    run = subparsers.add_parser(
        "run",
        help="run an agent on the benchmark and score it",
        description="Run an agent on the CRMArena tasks, each episode on its own fork of the org, and score it.",
    )
    run.add_argument("--agent", required=True, choices=list(AGENTS), help="the agent to run")
    run.add_argument("--model", metavar="M", help="LLM agents: the model, as the endpoint names it")
    run.add_argument(
        "--base-url",
        metavar="URL",
        help="LLM agents: an OpenAI-compatible endpoint (default: OpenAI; the key comes from OPENAI_API_KEY)",
    )
    run.add_argument(
        "--max-turns", type=positive_int, default=20, metavar="N", help="LLM agents: turns (default 20)"
    )
    run.add_argument(
        "--privacy-aware-prompt",
        action="store_true",
        help="LLM agents on the Pro suites: tell the agent on external-facing tasks what it must not disclose",
    )
    add_scoring_options(run)
    run.add_argument(
        "--tasks",
        metavar="FILE",
        help="a task file (ours or the official one); default: build the org's tasks",
    )
    add_org_options(run)
    add_task_set_options(run, "without --tasks: ", interactive=True)
    add_user_options(run)
    run.add_argument(
        "--trials",
        type=positive_int,
        default=1,
        metavar="K",
        help="run each task K times and report pass^1..pass^K (default 1)",
    )
    run.add_argument("--limit", type=positive_int, metavar="K", help="run only the first K tasks")
    run.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        metavar="N",
        help="episodes at once (default 1; the reference agent: 2 threads where there are 2 cores)",
    )
    run.add_argument(
        "--parallel",
        choices=("threads", "processes"),
        default=None,
        help="how --workers run: threads (default; LLM agents) or processes (CPU-bound agents)",
    )
    run.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="run episodes as Ray tasks: on a local Ray, or the cluster at ADDRESS (needs pip install -e '.[ray]')",
    )
    run.add_argument(
        "--out",
        default="results.json",
        metavar="FILE",
        help="where to write the results (default: results.json)",
    )
    run.add_argument(
        "--fresh", action="store_true", help="ignore the episode log of an earlier run and start over"
    )
    run.add_argument(
        "--allow-org-mismatch",
        action="store_true",
        help="run a task file on an org other than the one it was built on (its gold answers may not hold)",
    )
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.set_defaults(func=run_benchmark_command)


def run_benchmark_command(args) -> int:
    from crmarena_sf.cli.task_sets import read_task_file, task_set_on
    from crmarena_sf.connection.connect import connect
    from crmarena_sf.progress import progress_bar
    from crmarena_sf.tasks.agents import AgentSpec, agent_digest
    from crmarena_sf.tasks.episode_log import EpisodeLog, EpisodeLogMismatch, log_path, tasks_digest
    from crmarena_sf.tasks.runner import run_benchmark

    # Everything a user can get wrong is checked before any work: options, paths, files, the endpoint.
    _refuse_contradictions(args)
    spec = _agent_spec(args, AgentSpec)
    user = user_spec(args)
    out = output_file(args.out, "--out")
    log = log_path(out)
    if log.exists() and not log.is_file():
        raise CliError(
            f"--out {args.out}: its episode log {log} is not a file; move it away or choose another --out"
        )
    tasks = None
    if args.tasks:
        tasks = read_task_file(args.tasks, args.suite)
        if args.agent == "reference":
            _refuse_tasks_without_params(tasks)
    _check_endpoint(args)
    check_user_endpoint(user)
    if args.org is None and args.backend == "emulator":  # the suite's org: --suite's, or the task file's
        args.org = suite_org(args.suite or next((t.suite for t in tasks or () if t.suite), None))
    workers, parallel = args.workers or _default_workers(args), args.parallel or "threads"
    # The org is resolved once: task building and (in this process) every episode's fork start from it.
    org = _resolve(args.org, progress=not args.quiet) if args.backend == "emulator" else None
    suite, per_task, seed = task_set_choice(args)
    fork = org.fork() if org is not None else None
    try:
        sf = connect(org=fork) if fork is not None else connect_for_cli(args.org, args.backend)
        task_set = task_set_on(args, sf, tasks, args.backend, suite, per_task, seed, quiet=args.quiet)
        tasks, fingerprint = task_set.records, task_set.fingerprint
    finally:
        if fork is not None:
            fork.close()
    digest = tasks_digest(tasks)
    if args.limit:
        tasks = tasks[: args.limit]
    run_key = {
        **{k: v for k, v in spec.options.items() if k != "api_key"},
        "agent": spec.name,
        "agent_code": agent_digest(spec.name),
        "judge_model": args.judge_model,
        **({"scoring": args.scoring} if args.scoring != "project" else {}),
        **({"extractor_model": args.extractor_model} if args.extractor_model else {}),
        "backend": args.backend,
        "org": args.org,
        "tasks": digest,
        **({"user": user.settings()} if user is not None else {}),
    }
    episode_log = EpisodeLog(log, run_key)
    if log.exists() and not args.fresh:
        try:
            logged = episode_log.read()
        except EpisodeLogMismatch as exc:
            raise CliError(str(exc)) from None
        reused = sum(1 for t in tasks for n in range(args.trials) if (t.idx, n) in logged)
        wanted = len(tasks) * args.trials
        print(
            f"resuming: {reused} episodes from {log} reused, {wanted - reused} to run (--fresh starts over)",
            file=sys.stderr,
        )
    # Worker processes and Ray workers open the org themselves, by name or path.
    where = args.org if (parallel == "processes" and workers > 1) or args.ray is not None else org
    done = {"n": 0, "reward": 0.0}
    with progress_bar(len(tasks) * args.trials, f"running {args.agent}", enabled=not args.quiet) as bar:

        def on_episode(result) -> None:
            if result.scored:
                done["n"] += 1
                done["reward"] += result.reward
            if done["n"]:
                bar.set_postfix_str(f"mean reward {100 * done['reward'] / done['n']:.1f}")
            bar.update(1)

        try:
            results = run_benchmark(
                tasks,
                spec,
                org=where if where is not None else args.org,
                backend=args.backend,
                on_episode=on_episode,
                workers=workers,
                parallel=parallel,
                ray=args.ray is not None,
                ray_address=args.ray or None,
                log=episode_log,
                fresh=args.fresh,
                judge=scoring_of(args),
                user=user,
                trials=args.trials,
            )
        except EpisodeLogMismatch as exc:
            raise CliError(str(exc)) from None
        except RuntimeError as exc:
            if "--ray needs Ray" in str(exc):
                raise CliError(str(exc)) from None
            raise
    results.settings.update(
        {
            "org": args.org if args.backend == "emulator" else None,
            "org_fingerprint": fingerprint,
            "tasks_file": args.tasks,
            "suite": args.suite if user is not None else None if args.tasks else suite,
            "per_task": task_set.wanted,
            "seed": None if args.tasks else seed,
            "limit": args.limit,
            "workers": workers,
            **scoring_settings(args),
        }
    )
    results.write(out)
    from crmarena_sf.tasks.pro.tables import run_suite, skill_table

    print(skill_table([results]) if run_suite(results) else results.table())
    from crmarena_sf.tasks.turns_table import run_facts

    for line in run_facts(results):
        print(line)
    if args.trials > 1:
        from crmarena_sf.tasks.pass_k import pass_k_table

        print(pass_k_table(results))
    print(f"results: {args.out}")
    return EXIT_FAILED if results.unscored else 0


def _refuse_contradictions(args) -> None:
    """Options that cannot hold together are refused, not half obeyed (and --ray without Ray)."""
    if args.ray is not None:
        if importlib.util.find_spec("ray") is None:
            raise CliError("--ray needs Ray: pip install -e '.[ray]'")
        for given, option in ((args.parallel, "--parallel"), (args.workers, "--workers")):
            if given is not None:
                raise CliError(
                    f"{option} and --ray both say how episodes run: {option} on this machine, --ray as Ray "
                    "tasks on as many CPUs as the cluster has; give one of them"
                )
    if args.tasks:
        # A Pro suite with --tasks names the file's suite (an official Pro file of v1 names only);
        # an interactive suite says to run the file's tasks with a user.
        from crmarena_sf.tasks.users import INTERACTIVE_SUITES

        suite = None if args.suite in ("pro-b2b", "pro-b2c", *INTERACTIVE_SUITES) else args.suite
        for given, option in ((suite, "--suite"), (args.per_task, "--per-task"), (args.seed, "--seed")):
            if given is not None:
                raise CliError(
                    f"{option} says which task set run builds, and --tasks gives the task set: give one of them"
                )


def _default_workers(args) -> int:
    """Episodes at once without --workers: one, but two threads for the reference agent on two or more cores.

    Its episodes are SOQL on private forks of one org, and DuckDB runs a query without Python's
    lock, so a second thread runs a Pro suite in about two thirds of the time; an LLM agent's
    endpoint may limit how many requests it takes, so those run one at a time unless told.
    """
    if args.agent == "reference" and args.ray is None and args.parallel != "processes":
        return min(2, os.cpu_count() or 1)
    return 1


def _refuse_tasks_without_params(tasks) -> None:
    missing = [t.idx for t in tasks if t.params is None]
    if missing:
        raise CliError(
            f"the reference agent solves tasks from their params, and {len(missing)} task(s) have none "
            f"(first idx {missing[0]}); official task files carry no params: run an LLM agent on them"
        )


def _check_endpoint(args) -> None:
    """One request to the model endpoint before the first episode: it answers, and takes the key.

    The agent's model, the judge (``--judge-model``) and the extraction step (``--extractor-model``)
    all call the one endpoint (``--base-url``, else OpenAI's), so one check covers them all.
    """
    from crmarena_sf.tasks.agents import LLM_AGENTS

    agent = [("--model", args.model)] if args.agent in LLM_AGENTS and args.model else []
    check_model_endpoint(agent + scoring_models(args), args.base_url)


def _agent_spec(args, AgentSpec):
    from crmarena_sf.tasks.agents import LLM_AGENTS

    if args.agent in LLM_AGENTS:
        if not args.model:
            raise CliError(f"the {args.agent} agent needs --model (the model's name at the endpoint)")
        if not args.base_url and not os.environ.get("OPENAI_API_KEY"):
            # Checked here: otherwise every episode would fail on its own with the same error.
            raise CliError(
                f"the {args.agent} agent needs an API key: set OPENAI_API_KEY, or give --base-url for an "
                "endpoint that needs none (vLLM, Ollama ...)"
            )
        options = {"model": args.model, "base_url": args.base_url, "max_turns": args.max_turns}
        if args.privacy_aware_prompt:
            options["privacy_aware_prompt"] = True
        return AgentSpec(args.agent, options)
    if args.privacy_aware_prompt:
        raise CliError("--privacy-aware-prompt is for LLM agents (function-calling, react, act)")
    if args.model:
        raise CliError("--model is for LLM agents (function-calling, react, act)")
    if args.base_url and not (args.judge_model or args.extractor_model):
        raise CliError(
            "--base-url is for LLM agents (function-calling, react, act), --judge-model and --extractor-model"
        )
    return AgentSpec(args.agent)


def _resolve(name: str, progress: bool = True):
    from crmarena_sf.connection.orgs import OrgNotFound, resolve_org

    try:
        return resolve_org(name, progress=progress)
    except OrgNotFound as exc:
        raise CliError(str(exc)) from None
