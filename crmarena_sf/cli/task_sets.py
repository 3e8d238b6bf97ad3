"""The task set a benchmark command runs: a task file (``--tasks``) checked against the org, or the suite's set built on it.

``run``, ``soql-eval`` and ``mcp --suite`` read a task file and refuse one built on another org
than theirs (its gold answers would not hold there) the same way, and build a suite's default
set (``--per-task``, ``--seed``) the same way ``tasks build`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

from crmarena_sf.cli.errors import CliError, client_call
from crmarena_sf.cli.paths import input_file


@dataclass
class TaskSet:
    records: list
    fingerprint: str | None
    """The fingerprint of the org the tasks hold for (None: an official file, which carries none)."""
    wanted: int | None
    """Instances per task a build asked for (None for a task file)."""


def read_task_file(path: str, suite: str | None = None) -> list:
    """The records of ``--tasks`` (``suite``: the file's, when a Pro suite names it; an interactive suite's
    instances are its single-turn suite's); CliError when unusable."""
    from crmarena_sf.tasks.records import TaskFileError, load_tasks
    from crmarena_sf.tasks.users import INTERACTIVE_SUITES

    try:
        return load_tasks(
            input_file(path, "--tasks", "task file"), suite=INTERACTIVE_SUITES.get(suite, suite)
        )
    except TaskFileError as exc:
        raise CliError(str(exc)) from None


def task_set_on(
    args, sf, tasks, backend: str, suite: str, per_task: int | None, seed: int, *, quiet: bool
) -> TaskSet:
    """``tasks`` (a task file's records) checked against the org behind ``sf``, or, when None, ``suite``'s built on it."""
    from crmarena_sf.cli.cmd_tasks import build_with_progress
    from crmarena_sf.tasks.build import build_tasks

    if tasks is None:
        built = build_with_progress(sf, build_tasks, per_task, seed, quiet=quiet, suite=suite)
        records = built.records
        return TaskSet(records, records[0].org_fingerprint if records else None, built.wanted)
    return TaskSet(tasks, check_fingerprint(args, tasks, sf, backend), None)


def check_fingerprint(args, tasks, sf, backend: str) -> str | None:
    """The org's fingerprint; refuse tasks built on another org (see crmarena_sf.tasks.org_fingerprint)."""
    from crmarena_sf.tasks.org_fingerprint import org_fingerprint

    built_on = {t.org_fingerprint for t in tasks if t.org_fingerprint}
    if not built_on:
        return None  # an official task file, or one from before fingerprints: nothing to compare
    ours = client_call(lambda: org_fingerprint(sf))
    others = [t for t in tasks if t.org_fingerprint and t.org_fingerprint != ours]
    if others and not args.allow_org_mismatch:
        where = f"--org {args.org}" if backend == "emulator" else "the real org"
        which = "the tasks" if len(others) == len(tasks) else f"{len(others)} of {len(tasks)} tasks"
        raise CliError(
            f"{which} in {args.tasks} were built on another org than {where} (org fingerprint "
            f"{others[0].org_fingerprint}, this org's {ours}), so their gold answers do not hold here: "
            "run them on the org they were built on, or give --allow-org-mismatch"
        )
    return ours
