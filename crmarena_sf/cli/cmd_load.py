"""``crmarena-sf load DATASET --org ORG.duckdb``: load a dataset into a new emulator org file.

The org file appears only when the load succeeded; an existing file is never overwritten.
Its search index is built as part of the load (with a progress bar), so the processes that
later read the file, which open it read-only, never have to build one themselves.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from pathlib import Path

from crmarena_sf.cli.errors import CliError
from crmarena_sf.cli.paths import output_file
from crmarena_sf.loaders.dataset import DatasetError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "load",
        help="load a dataset into a new emulator org file",
        description="Create an emulator org file (DuckDB) holding a new org plus the dataset's records.",
    )
    parser.add_argument(
        "dataset", metavar="DATASET", help="dataset directory (from generate or import-crmarena)"
    )
    parser.add_argument(
        "--org", required=True, metavar="ORG.duckdb", help="org file to create (must not exist)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from crmarena_sf.loaders.load import load_dataset, new_org_for

    target = output_file(args.org, "--org", "crm.duckdb")
    if target.exists():
        raise CliError(f"{target} already exists; choose another org file or remove it first")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    _remove(tmp)
    try:
        org = new_org_for(args.dataset, tmp)  # of the dataset's schema (a CRMArena-Pro org's, say)
    except DatasetError as exc:
        _remove(tmp)
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"cannot create {target}: {exc.strerror or exc}") from None
    except Exception as exc:  # DuckDB reports an unwritable path as its own IOException
        _remove(tmp)
        raise CliError(f"cannot create {target}: {str(exc).splitlines()[0]}") from None
    try:
        load_dataset(args.dataset, org, progress=not args.quiet)
        counts = {name: org.count(name) for name in ("Account", "Case", "OrderItem")}
        org.close()
        if target.exists():
            raise CliError(f"{target} already exists; choose another org file or remove it first")
        os.replace(tmp, target)
    except DatasetError as exc:
        raise CliError(str(exc)) from None
    finally:
        with contextlib.suppress(Exception):
            org.close()
        _remove(tmp)
    print(f"loaded {args.dataset} into {target} ({', '.join(f'{n} {k}' for k, n in counts.items())})")
    return 0


def _remove(path: Path) -> None:
    for leftover in (path, path.with_name(path.name + ".wal")):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()
