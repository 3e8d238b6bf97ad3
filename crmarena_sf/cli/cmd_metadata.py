"""``crmarena-sf metadata pull --out DIR [--objects A,B,...]``: capture describes from a live org.

Credentials come from the environment or ``.env`` (see :func:`crmarena_sf.connection.connect.connect`). The directory
then extends the schema: ``metadata.load_schema(extra_dirs=(DIR,))``.
"""

from __future__ import annotations

import argparse
import sys

from crmarena_sf.cli.errors import EXIT_FAILED, EXIT_USAGE, CliError, client_call
from crmarena_sf.cli.paths import output_dir
from crmarena_sf.metadata import pull


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``metadata`` and its ``pull`` sub-command."""
    parser = subparsers.add_parser("metadata", help="Salesforce object metadata (describes)")
    actions = parser.add_subparsers(dest="metadata_command", metavar="ACTION")
    pull_parser = actions.add_parser(
        "pull",
        help="capture describe documents from a live org",
        description="Write <Object>.json describe documents of a live org (credentials from the "
        "environment or .env: SALESFORCE_USERNAME, SALESFORCE_PASSWORD, SALESFORCE_SECURITY_TOKEN, "
        "SALESFORCE_DOMAIN=test for sandboxes; or SALESFORCE_INSTANCE_URL and SALESFORCE_SESSION_ID).",
    )
    pull_parser.add_argument(
        "--out", required=True, metavar="DIR", help="directory to write the describes to"
    )
    pull_parser.add_argument(
        "--objects",
        metavar="A,B,...",
        help="comma-separated object API names (default: the 16 CRMArena objects)",
    )
    pull_parser.add_argument("--quiet", action="store_true", help="no progress bar")
    pull_parser.set_defaults(func=run_pull)
    parser.set_defaults(func=lambda args: _usage(parser))


def run_pull(args: argparse.Namespace) -> int:
    """Log in, describe each object the org has, write the files; say which objects the org lacks.

    Missing objects of the default list are reported and the pull succeeds; an object named in
    ``--objects`` that the org lacks makes it exit 1 (after writing the others).
    """
    objects = pull.CRMARENA_OBJECTS
    if args.objects is not None:
        objects = tuple(name.strip() for name in args.objects.split(",") if name.strip())
        if not objects:
            raise CliError("--objects names no object")
    from crmarena_sf.connection.connect import MissingCredentials, connect

    output_dir(args.out, "--out")

    try:
        sf = client_call(lambda: connect(backend="salesforce"))
    except MissingCredentials as exc:
        raise CliError(str(exc), EXIT_USAGE) from None
    try:
        pulled = pull.pull(sf, args.out, objects, progress=not args.quiet)
    except pull.PullError as exc:
        raise CliError(str(exc), EXIT_FAILED) from None
    print(f"wrote {len(pulled.written)} describe documents to {args.out}")
    if not pulled.missing:
        return 0
    missing = ", ".join(pulled.missing)
    if args.objects is None:  # the default list: CRMArena's custom objects come with crmarena-sf push
        print(
            f"not in this org, so not pulled: {missing} (crmarena-sf push creates CRMArena's custom objects; "
            "--objects A,B,... chooses the objects to pull)",
            file=sys.stderr,
        )
        return 0
    raise CliError(f"not in this org: {missing} (the others were written; --objects chooses)", EXIT_FAILED)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return EXIT_USAGE
