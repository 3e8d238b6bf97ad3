"""``crmarena-sf tasks build [--suite crmarena|soql] [--org ORG] [--per-task N] [--seed S] --out tasks.jsonl``: a task set.

Builds the nine CRMArena tasks on an org (through the front door, so ``--backend
salesforce`` builds them on a real org), each gold answer computed by its reference solver
and unique. The file is written atomically: it appears only when complete.
"""

from __future__ import annotations

import sys

from crmarena_sf.cli.arguments import add_org_options, add_task_set_options, connect_for_cli, task_set_choice
from crmarena_sf.cli.errors import CliError, client_call
from crmarena_sf.cli.paths import output_file


def register(subparsers) -> None:
    tasks = subparsers.add_parser(
        "tasks", help="build the benchmark's task set", description="The benchmark's tasks."
    )
    commands = tasks.add_subparsers(dest="tasks_command", metavar="COMMAND")
    build = commands.add_parser(
        "build",
        help="build the nine CRMArena tasks (or the text-to-SOQL track) with their gold answers",
        description="Build a task set on an org, each gold answer computed by its reference solver.",
    )
    add_org_options(build)
    add_task_set_options(build)
    build.add_argument("--out", required=True, metavar="FILE", help="the JSON Lines file to write")
    build.add_argument("--quiet", action="store_true", help="no progress bar")
    build.set_defaults(func=run_build)
    tasks.set_defaults(func=lambda args: (tasks.print_help(), 2)[1])


def run_build(args) -> int:
    from crmarena_sf.tasks.build import build_tasks
    from crmarena_sf.tasks.records import write_tasks

    out = output_file(args.out, "--out", "tasks.jsonl")
    suite, per_task, seed = task_set_choice(args)
    sf = connect_for_cli(args.org, args.backend)
    report = build_with_progress(sf, build_tasks, per_task, seed, quiet=args.quiet, suite=suite)
    write_tasks(report.records, out)
    print(f"wrote {len(report.records)} tasks to {args.out}")
    for task, made in report.short.items():
        print(
            f"  {task}: {made} of {report.wanted} (the org is too small for more unique answers)",
            file=sys.stderr,
        )
    return 0


def build_with_progress(
    sf, build_tasks, per_task: int | None, seed: int, *, quiet: bool, suite: str = "crmarena"
):
    """Build a task set with a progress bar, turning build and client failures into CLI errors."""
    from crmarena_sf.progress import progress_bar
    from crmarena_sf.tasks.build import TaskBuildError, default_per_task
    from crmarena_sf.tasks.families import SUITES

    count = per_task or default_per_task(suite)
    with progress_bar(count * len(SUITES[suite]), "building tasks", enabled=not quiet) as bar:

        def step(task: str, n: int) -> None:
            bar.set_postfix_str(task)
            bar.update(n)

        try:
            return client_call(
                lambda: build_tasks(sf, per_task=per_task, seed=seed, suite=suite, progress=step)
            )
        except TaskBuildError as exc:
            raise CliError(str(exc), 1) from None
