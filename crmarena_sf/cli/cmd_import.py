"""``crmarena-sf import-crmarena crmarena_data.db --out DATASET``: the official CRMArena dump as a dataset;
``crmarena-sf import-crmarena-pro crmarenapro_b2b_data.db --out DATASET``: a CRMArena-Pro dump.

The dumps are the SQLite files of the orgs that the authors publish in their repository:
``local_data/crmarena_data.db`` (the original org) and ``local_data/crmarenapro_b2b_data.db``
and ``..._b2c_data.db`` (CRMArena-Pro's two orgs). Their Ids are kept, so the official tasks and
their answers apply unchanged to the emulator; any command takes the dataset with ``--org DATASET``.
"""

from __future__ import annotations

import argparse

from crmarena_sf.cli.errors import CliError
from crmarena_sf.cli.paths import input_file, output_dir
from crmarena_sf.loaders.dataset import DatasetError


def register(subparsers: argparse._SubParsersAction) -> None:
    _command(
        subparsers,
        "import-crmarena",
        help="convert the official CRMArena SQLite dump into a dataset",
        description="Convert CRMArena's SQLite dump of the original org (crmarena_data.db) into a dataset, "
        "keeping its Ids and repairing its known gaps (names, knowledge publish status, email addresses, "
        "numbers stored as text).",
        metavar="crmarena_data.db",
        dump_help="the SQLite dump: local_data/crmarena_data.db of the public SalesforceAIResearch/CRMArena "
        "repository on GitHub (download it yourself)",
        importer="crmarena_sf.loaders.crmarena_dump:import_dump",
    )
    _command(
        subparsers,
        "import-crmarena-pro",
        help="convert an official CRMArena-Pro SQLite dump (B2B or B2C org) into a dataset",
        description="Convert one of CRMArena-Pro's SQLite dumps (crmarenapro_b2b_data.db or "
        "crmarenapro_b2c_data.db) into a dataset, keeping its Ids and key prefixes and filling what the dump "
        "leaves to the org (names, published articles, the territory model and type, line totals).",
        metavar="DUMP.db",
        dump_help="the SQLite dump: local_data/crmarenapro_b2b_data.db or local_data/crmarenapro_b2c_data.db "
        "of the public SalesforceAIResearch/CRMArena repository on GitHub (download it yourself)",
        importer="crmarena_sf.loaders.pro.dump:import_pro_dump",
    )


def _command(
    subparsers, name: str, *, help: str, description: str, metavar: str, dump_help: str, importer: str
):
    parser = subparsers.add_parser(name, help=help, description=description)
    parser.add_argument("dump", metavar=metavar, help=dump_help)
    parser.add_argument("--out", required=True, metavar="DATASET", help="the dataset directory to create")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run, importer=importer)


def run(args: argparse.Namespace) -> int:
    import importlib

    from crmarena_sf.loaders.dataset import Dataset

    input_file(args.dump, "", "file")
    output_dir(args.out, "--out", new=True)
    module, _, function = args.importer.partition(":")
    import_dump = getattr(importlib.import_module(module), function)
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
