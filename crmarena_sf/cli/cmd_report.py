"""``crmarena-sf report results.json [--html report.html]``: a run's results, read back.

Prints the per-task table ``crmarena-sf run`` printed; with ``--html``, also writes one
self-contained HTML page (scores as bars, the published CRMArena leaderboard beside the run,
settings, token usage, every episode with its trajectory), atomically.
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
    report.add_argument("results", metavar="RESULTS", help="a results.json written by 'crmarena-sf run'")
    report.add_argument("--html", metavar="FILE", help="also write the HTML report to FILE")
    report.set_defaults(func=report_command)


def report_command(args) -> int:
    from crmarena_sf.tasks.report import write_html
    from crmarena_sf.tasks.results import ResultsFileError, read_results

    source = input_file(args.results, "", "results file")
    if args.html:
        output_file(args.html, "--html", "report.html")
    try:
        results, data = read_results(source)
    except ResultsFileError as exc:
        raise CliError(str(exc)) from None
    if args.html:
        try:
            write_html(results, data, args.html)
        except OSError as exc:
            raise CliError(f"cannot write {args.html}: {exc.strerror or exc}") from None
    print(results.table())
    if args.html:
        print(f"report: {args.html}")
    return 0
