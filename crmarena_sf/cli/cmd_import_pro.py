"""``crmarena-sf import-crmarena-pro crmarenapro_b2b_data.db --out DATASET``: a CRMArena-Pro dump as a dataset.

The dumps are the SQLite files of CRMArena-Pro's two orgs that its authors publish
(``local_data/crmarenapro_b2b_data.db`` and ``local_data/crmarenapro_b2c_data.db`` in their
repository). Their Ids are kept, so the official Pro task files refer to the right records;
any command takes the dataset with ``--org DATASET``.
"""

from __future__ import annotations

import argparse

from crmarena_sf.cli.errors import CliError
from crmarena_sf.loaders.dataset import DatasetError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "import-crmarena-pro",
        help="convert an official CRMArena-Pro SQLite dump (B2B or B2C org) into a dataset",
        description="Convert one of CRMArena-Pro's SQLite dumps (crmarenapro_b2b_data.db or crmarenapro_b2c_data.db) "
        "into a dataset, keeping its Ids and key prefixes and filling what the dump leaves to the org (names, "
        "published articles, the territory model and type, line totals).",
    )
    parser.add_argument(
        "dump",
        metavar="DUMP.db",
        help="the SQLite dump: local_data/crmarenapro_b2b_data.db or local_data/crmarenapro_b2c_data.db of the "
        "public SalesforceAIResearch/CRMArena repository on GitHub (download it yourself)",
    )
    parser.add_argument("--out", required=True, metavar="DATASET", help="the dataset directory to create")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from crmarena_sf.loaders.dataset import Dataset
    from crmarena_sf.loaders.pro.dump import import_pro_dump

    try:
        path = import_pro_dump(args.dump, args.out, progress=not args.quiet)
    except DatasetError as exc:
        raise CliError(str(exc)) from None
    manifest = Dataset(path).manifest
    counts = manifest["counts"]
    repaired = sum(manifest.get("repairs", {}).values())
    print(
        f"wrote {sum(counts.values()):,} records of {len(counts)} objects to {path}"
        + (f" ({repaired} dangling references repaired)" if repaired else "")
    )
    return 0
