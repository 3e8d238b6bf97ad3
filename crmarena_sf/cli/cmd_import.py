"""``crmarena-sf import-crmarena crmarena_data.db --out DATASET``: the official CRMArena dump as a dataset.

The dump is the SQLite file of the original org that CRMArena's authors publish
(``local_data/crmarena_data.db`` in their repository). Its Ids are kept, so the official
1,170 tasks and their answers apply unchanged to the emulator.
"""

from __future__ import annotations

import argparse

from crmarena_sf.cli.errors import CliError
from crmarena_sf.cli.paths import input_file, output_dir
from crmarena_sf.loaders.dataset import DatasetError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "import-crmarena",
        help="convert the official CRMArena SQLite dump into a dataset",
        description="Convert CRMArena's SQLite dump of the original org (crmarena_data.db) into a dataset, "
        "keeping its Ids and repairing its known gaps (names, knowledge publish status, email addresses, "
        "numbers stored as text).",
    )
    parser.add_argument(
        "dump",
        metavar="crmarena_data.db",
        help="the SQLite dump: local_data/crmarena_data.db of the public SalesforceAIResearch/CRMArena "
        "repository on GitHub (download it yourself)",
    )
    parser.add_argument("--out", required=True, metavar="DATASET", help="the dataset directory to create")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from crmarena_sf.loaders.crmarena_dump import import_dump
    from crmarena_sf.loaders.dataset import Dataset

    input_file(args.dump, "", "file")
    output_dir(args.out, "--out", new=True)
    try:
        path = import_dump(args.dump, args.out, progress=not args.quiet)
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
