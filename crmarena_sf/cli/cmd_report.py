"""``crmarena-sf report results.json [other.json] [--html report.html]``: a run's results, read back.

A directory stands for the ``results.json`` in it (``crmarena-sf mcp --suite``'s ``--out``).

Prints the per-task table ``crmarena-sf run`` printed; with ``--html``, also writes one
self-contained HTML page (scores as bars, the published CRMArena leaderboard beside the run,
settings, token usage, every episode with its trajectory), atomically. A CRMArena-Pro run's
table groups its tasks by skill (:mod:`crmarena_sf.tasks.pro.tables`); a second Pro run (the
other org's) is shown beside it, in the table and the page; a single-turn run and a multi-turn run
of the same suite are shown side by side per task (and skill), with the change
(:mod:`crmarena_sf.tasks.turns_table`). A multi-turn run also says how its episodes ended and what
its user's tokens were; a run of several trials shows pass^1..pass^k.
"""

from __future__ import annotations

from crmarena_sf.cli.errors import CliError
from crmarena_sf.cli.paths import input_file, output_file


def register(subparsers) -> None:
    report = subparsers.add_parser(
        "report",
        help="print a run's per-task table; --html writes a self-contained report page",
        description="Print the per-task table of a results.json written by 'crmarena-sf run' and, with "
        "--html, write a self-contained HTML report (no script, nothing loaded from the network).",
    )
    report.add_argument(
        "results",
        metavar="RESULTS",
        help="a results.json written by 'crmarena-sf run', or the directory holding one (mcp --suite's --out)",
    )
    report.add_argument(
        "others",
        metavar="OTHER",
        nargs="*",
        help="a Pro run: the other org's results.json, shown beside RESULTS by skill; or the same suite's "
        "run in the other mode (single-turn beside multi-turn), shown side by side per task",
    )
    report.add_argument("--html", metavar="FILE", help="also write the HTML report to FILE")
    report.set_defaults(func=report_command)


def report_command(args) -> int:
    from crmarena_sf.tasks.report import write_html
    from crmarena_sf.tasks.results import ResultsFileError, read_results

    source = results_file(args.results)
    if args.html:
        output_file(args.html, "--html", "report.html")
    from crmarena_sf.tasks.pro.tables import run_suite, skill_table

    try:
        results, data = read_results(source)
        read = [read_results(results_file(o)) for o in args.others]
        others, others_data = [r for r, _ in read], [d for _, d in read]
    except ResultsFileError as exc:
        raise CliError(str(exc)) from None
    from crmarena_sf.tasks.turns_table import run_facts, side_by_side, turn_pair

    pro = run_suite(results) is not None
    pair = turn_pair([results, *others])
    if others and not pair and not (pro and all(run_suite(o) is not None for o in others)):
        raise CliError(
            "runs are shown side by side when they are the two Pro orgs, or one suite single-turn and "
            "multi-turn: give one results file for other runs"
        )
    if args.html:
        try:
            write_html(results, data, args.html, others, others_data)
        except OSError as exc:
            raise CliError(f"cannot write {args.html}: {exc.strerror or exc}") from None
    if pair:
        print(side_by_side(*pair))
    else:
        print(skill_table([results, *others]) if pro else results.table())
    for line in run_facts(results):
        print(line)
    if results.pass_k:
        from crmarena_sf.tasks.pass_k import pass_k_table

        print(pass_k_table(results))
    if args.html:
        print(f"report: {args.html}")
    return 0


def results_file(path: str):
    """A results file given by its path, or by the directory holding ``results.json`` (``mcp --suite --out DIR``)."""
    from pathlib import Path

    if Path(path).expanduser().is_dir():
        inside = Path(path).expanduser() / "results.json"
        if not inside.is_file():
            raise CliError(f"{path}: a directory without a results.json (no episode answered yet?)")
        return input_file(str(inside), "", "results file")
    return input_file(path, "", "results file")
