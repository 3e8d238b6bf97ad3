"""``crmarena-sf push DATASET``: load a dataset into a real Salesforce org; ``--teardown`` removes it.

Credentials are read as ``connect(backend="salesforce")`` reads them, from the environment or
a ``.env`` file (``--env-file`` names another); secrets are never taken as flags (a command
line is visible to every user of the machine and kept in shell history) and never printed. Exit
codes: 0 when every row is in the org; 1 when the org refused the push (preflight), stopped it
(the message says whether the same command resumes) or some rows failed (each listed with
Salesforce's error); 2 for bad usage (no dataset, no credentials).
"""

from __future__ import annotations

import argparse
import json
import sys

from crmarena_sf.cli.arguments import non_negative_int, positive_int
from crmarena_sf.cli.errors import EXIT_FAILED, EXIT_USAGE, CliError, client_call


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "push",
        help="push a dataset into a real Salesforce org (or --teardown what a push loaded)",
        description="Create the CRMArena schema a real org lacks, then upsert the dataset's records on "
        "CRMArena_Key__c: idempotent (run it again, nothing doubles) and resumable (after a stop, the same "
        "command continues). Credentials: SALESFORCE_USERNAME, SALESFORCE_PASSWORD, SALESFORCE_SECURITY_TOKEN "
        "(SALESFORCE_DOMAIN=test for a sandbox) or SALESFORCE_INSTANCE_URL and SALESFORCE_SESSION_ID, from the "
        "environment or .env.",
    )
    parser.add_argument(
        "dataset", nargs="?", metavar="DATASET", help="dataset directory (from crmarena-sf generate)"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="check the org and print the plan; write nothing"
    )
    parser.add_argument(
        "--teardown",
        action="store_true",
        help="delete every record carrying CRMArena_Key__c (and nothing else)",
    )
    parser.add_argument(
        "--skip", default="", metavar="A,B", help="objects not to push (e.g. LiveChatTranscript)"
    )
    parser.add_argument(
        "--bulk-threshold",
        type=positive_int,
        default=2000,
        metavar="N",
        help="rows from which an object goes through Bulk API 2.0 instead of sObject Collections (2000)",
    )
    parser.add_argument(
        "--retries", type=non_negative_int, default=2, metavar="N", help="times a refused row is retried (2)"
    )
    parser.add_argument(
        "--state", metavar="FILE", help="the local id map (default: the cache, one file per org)"
    )
    parser.add_argument(
        "--env-file",
        default=".env",
        metavar="FILE",
        help="where to read SALESFORCE_* credentials the environment lacks (default: .env here)",
    )
    parser.add_argument(
        "--bulk-poll",
        type=float,
        default=2.0,
        metavar="SECONDS",
        help="first wait before polling a Bulk job (2)",
    )
    parser.add_argument("--json", action="store_true", help="print the report (or plan) as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from crmarena_sf.connection.connect import MissingCredentials, connect
    from crmarena_sf.loaders.dataset import DatasetError
    from crmarena_sf.loaders.push import PushOptions, PushStopped, push, teardown

    if not args.teardown and not args.dataset:
        raise CliError("push needs a DATASET directory (or --teardown)")
    if not args.teardown:
        from crmarena_sf.loaders.dataset import Dataset

        try:
            Dataset(args.dataset)  # a bad directory is said before any login
        except DatasetError as exc:
            raise CliError(str(exc)) from None
    try:
        sf = client_call(lambda: connect(backend="salesforce", env_file=args.env_file))
    except MissingCredentials as exc:
        raise CliError(str(exc), EXIT_USAGE) from None
    if args.teardown:
        try:
            report = teardown(sf, state=args.state)
        except PushStopped as exc:
            raise CliError(str(exc), EXIT_FAILED) from None
        print(json.dumps(report.to_json(), indent=1) if args.json else report.render())
        return EXIT_FAILED if report.failures else 0
    options = PushOptions(
        skip={name.strip() for name in args.skip.split(",") if name.strip()},
        bulk_threshold=args.bulk_threshold,
        retries=args.retries,
        state=args.state,
        dry_run=args.dry_run,
        progress=not args.quiet and not args.json,
        bulk_poll_seconds=max(args.bulk_poll, 0.0),
    )
    try:
        report, plan = push(sf, args.dataset, options)
    except DatasetError as exc:
        raise CliError(str(exc)) from None
    except PushStopped as exc:
        partial = getattr(exc, "report", None)
        if partial is not None and partial.tally.objects:
            print(json.dumps(partial.to_json(), indent=1) if args.json else partial.render())
        raise CliError(str(exc), EXIT_FAILED) from None
    if args.dry_run:
        print(json.dumps(plan.to_json(), indent=1) if args.json else plan.describe())
        return 0
    print(json.dumps(report.to_json(), indent=1) if args.json else report.render())
    if report.failed:
        print(
            f"crmarena-sf: {report.failed} row{'s' if report.failed != 1 else ''} failed (listed above); "
            "fix the cause and run the same command "
            "again: what loaded stays, only the rest is pushed",
            file=sys.stderr,
        )
        return EXIT_FAILED
    return 0
