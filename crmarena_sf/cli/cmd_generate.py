"""``crmarena-sf generate --profile full|dev-org|tiny|b2b|b2c [--scale N] --seed S --out DIR``: a synthetic dataset.

``full``, ``dev-org`` and ``tiny`` are sizes of the CRMArena org; ``b2b`` and ``b2c`` are
CRMArena-Pro's two orgs (:mod:`crmarena_sf.loaders.pro`).

The same profile, scale and seed always give a byte-identical dataset. The directory appears
only when complete; a failure leaves nothing behind.
"""

from __future__ import annotations

import argparse

from crmarena_sf.cli.arguments import non_negative_int, positive_int
from crmarena_sf.cli.errors import CliError
from crmarena_sf.cli.paths import output_dir
from crmarena_sf.loaders.dataset import DatasetError
from crmarena_sf.loaders.pro.profiles import PROFILES as PRO_PROFILES
from crmarena_sf.loaders.profiles import PROFILES


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "generate",
        help="generate the synthetic CRMArena org, or a CRMArena-Pro org, as a dataset (Parquet + manifest)",
        description="Generate the synthetic CRMArena org (people, catalog, orders, cases with their history, "
        "knowledge articles, emails and chats), or with --profile b2b or b2c one of CRMArena-Pro's two sales "
        "orgs, into a new dataset directory.",
    )
    parser.add_argument(
        "--profile",
        choices=[*PROFILES, *PRO_PROFILES],
        default="full",
        help="the CRMArena org's size (full, dev-org, tiny) or a CRMArena-Pro org (b2b, b2c); default: full",
    )
    parser.add_argument(
        "--scale",
        type=_scale,
        default=1,
        metavar="N",
        help="multiply the profile's row counts (b2b and b2c also take a fraction below 1: 0.1 is a tenth)",
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=0, metavar="S", help="random seed (default: 0)"
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="the dataset directory to create")
    parser.add_argument(
        "--enrich-with",
        metavar="MODEL",
        help="rewrite case descriptions with this OpenAI chat model (needs OPENAI_API_KEY; not reproducible)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def _scale(text: str) -> int | float:
    """A whole number from 1 (as every command's counts), or a fraction below 1 (the CRMArena-Pro profiles check it)."""
    try:
        int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if 0 < value < 1:
            return value
        raise argparse.ArgumentTypeError(f"must be 1 or more, or a fraction below 1, not {text}") from None
    return positive_int(text)


def run(args: argparse.Namespace) -> int:
    from crmarena_sf.loaders.generate import generate

    output_dir(args.out, "--out", new=True)
    try:
        path = generate(
            args.out,
            profile=args.profile,
            seed=args.seed,
            scale=args.scale,
            progress=not args.quiet,
            enrich_model=args.enrich_with,
        )
    except (DatasetError, ValueError) as exc:
        raise CliError(str(exc)) from None
    from crmarena_sf.loaders.dataset import Dataset

    counts = Dataset(path).manifest["counts"]
    print(f"wrote {sum(counts.values()):,} records of {len(counts)} objects to {path}")
    return 0
