"""``crmarena-sf soql-eval PREDICTIONS.jsonl [--tasks FILE] [--org ORG] [--out results.json]``: score predicted queries.

Scores a file of ``{"idx", "soql"}`` lines written by any system against the text-to-SOQL
track by execution, without running an agent; prints the score per level. Without --tasks
it builds the org's default soql suite (--seed), as "crmarena-sf tasks build --suite soql".
"""

from __future__ import annotations

from collections import defaultdict

from crmarena_sf.cli.arguments import non_negative_int
from crmarena_sf.cli.errors import CliError
from crmarena_sf.cli.paths import input_file, output_file
from crmarena_sf.connection.orgs import ORG_HELP


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "soql-eval",
        help="score a file of predicted SOQL queries against the text-to-SOQL track",
        description="Score predicted SOQL/SOSL queries by execution against the gold queries of the text-to-SOQL track.",
    )
    parser.add_argument(
        "predictions", metavar="PREDICTIONS.jsonl", help='JSON Lines of {"idx": N, "soql": "SELECT ..."}'
    )
    parser.add_argument(
        "--tasks", metavar="FILE", help="the soql task file (default: build the org's soql suite)"
    )
    parser.add_argument("--org", default="crmarena", help=f"the emulated org: {ORG_HELP}")
    parser.add_argument(
        "--seed", type=non_negative_int, default=0, metavar="S", help="without --tasks: random seed"
    )
    parser.add_argument(
        "--out", metavar="FILE", help="also write results.json (every prediction, match and reason)"
    )
    parser.add_argument(
        "--allow-org-mismatch",
        action="store_true",
        help="score against a task file built on another org (its gold answers may not hold)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args) -> int:
    from crmarena_sf.cli.cmd_run import _resolve
    from crmarena_sf.cli.cmd_tasks import build_with_progress
    from crmarena_sf.cli.task_sets import check_fingerprint
    from crmarena_sf.connection.connect import connect
    from crmarena_sf.progress import progress_bar
    from crmarena_sf.tasks.build import build_tasks
    from crmarena_sf.tasks.predictions import PredictionAgent, load_predictions
    from crmarena_sf.tasks.records import TaskFileError, load_tasks
    from crmarena_sf.tasks.runner import run_benchmark

    input_file(args.predictions, "", "predictions file")
    if args.tasks:
        input_file(args.tasks, "--tasks", "task file")
    if args.out:
        output_file(args.out, "--out")
    org = _resolve(args.org, progress=not args.quiet)
    fork = org.fork()
    try:
        if args.tasks:
            tasks = load_tasks(args.tasks)
            check_fingerprint(args, tasks, connect(org=fork), "emulator")
        else:
            tasks = build_with_progress(
                connect(org=fork), build_tasks, None, args.seed, quiet=args.quiet, suite="soql"
            ).records
        tasks = [t for t in tasks if t.task == "soql_generation"]
        if not tasks:
            raise CliError(f"{args.tasks} holds no soql_generation task")
        predictions = load_predictions(args.predictions, tasks)
    except TaskFileError as exc:
        raise CliError(str(exc)) from None
    finally:
        fork.close()
    with progress_bar(len(tasks), "scoring predictions", enabled=not args.quiet) as bar:
        results = run_benchmark(
            tasks, PredictionAgent(predictions, args.predictions), org=org, on_episode=lambda r: bar.update(1)
        )
    missing = [t.idx for t in tasks if t.idx not in predictions]
    results.settings.update({"org": args.org, "tasks_file": args.tasks, "predictions_missing": len(missing)})
    print(level_table(tasks, results))
    if missing:
        shown = ", ".join(str(idx) for idx in missing[:10]) + (" ..." if len(missing) > 10 else "")
        print(f"({len(missing)} of {len(tasks)} tasks have no prediction and score 0: idx {shown})")
    if args.out:
        results.write(args.out)
        print(f"results: {args.out}")
    return 0


def level_table(tasks, results) -> str:
    """Score per level of the track, then overall."""
    level = {t.idx: ((t.params or {}).get("level", 0), (t.params or {}).get("level_name", "")) for t in tasks}
    rewards = defaultdict(list)
    for episode in results.episodes:
        rewards[level[episode.idx]].append(episode.reward)
    width = max([len(f"{n} {name}") for n, name in rewards] + [len("overall")])
    lines = [f"{'level':<{width}}  {'queries':>7}  {'matched':>7}  {'score':>6}"]
    for (n, name), values in sorted(rewards.items()):
        lines.append(
            f"{f'{n} {name}':<{width}}  {len(values):>7}  {int(sum(values)):>7}  {100 * sum(values) / len(values):>6.1f}"
        )
    everything = [r for values in rewards.values() for r in values]
    lines.append(
        f"{'overall':<{width}}  {len(everything):>7}  {int(sum(everything)):>7}  {100 * sum(everything) / len(everything):>6.1f}"
    )
    return "\n".join(lines)
