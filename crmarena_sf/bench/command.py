"""``crmarena-sf bench``: run the benchmark suite and print the performance table.

The benchmark suite sits above the front door (it measures it), so the CLI does not import
it: this module plugs the command in through the ``crmarena_sf.commands`` entry point
(pyproject.toml), as any package may add a command.
"""

from __future__ import annotations

import importlib
import json
import math
import pkgutil
import platform
import sys

from crmarena_sf.cli.errors import EXIT_OK, CliError

MEASURED_WITH = {"rest": "server"}
"""Areas of the table whose rows another area's module measures: the REST rows come with the server's."""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure the emulator's speed and print the performance table",
        description="Run the benchmark suite (bench/bench_*.py) and print each measurement with its target.",
    )
    parser.add_argument(
        "--only",
        default="",
        metavar="AREAS",
        help=f"comma-separated areas to run: {', '.join(_areas(_modules()))}",
    )
    parser.add_argument(
        "--quick", action="store_true", help="fewer repetitions (a smoke run, noisier numbers)"
    )
    parser.add_argument("--json", action="store_true", help="print the measurements as JSON")
    parser.set_defaults(func=run)


def run(args) -> int:
    asked = {a.strip() for a in args.only.split(",") if a.strip()}
    modules = _modules()
    areas = _areas(modules)
    unknown = asked - set(areas)
    if unknown:
        raise CliError(
            f"unknown benchmark area(s): {', '.join(sorted(unknown))}; choose from {', '.join(areas)}"
        )
    wanted = {MEASURED_WITH.get(area, area) for area in asked}
    measurements = []
    for name in modules:
        if wanted and name.removeprefix("bench_") not in wanted:
            continue
        module = importlib.import_module(f"crmarena_sf.bench.{name}")
        print(f"running {name} ...", file=sys.stderr)
        measurements.extend(module.run(quick=args.quick))
    if args.json:
        print(json.dumps([m.as_dict() for m in measurements], indent=2))
    else:
        print(render_table(measurements))
    return EXIT_OK


def _modules() -> list[str]:
    """The benchmark suite's modules (``bench_*``), found without importing them."""
    from crmarena_sf import bench

    return sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_"))


def _areas(modules: list[str]) -> list[str]:
    """The areas ``--only`` takes: one per module, and the areas another module measures."""
    return sorted({m.removeprefix("bench_") for m in modules} | set(MEASURED_WITH))


def render_table(measurements) -> str:
    """The performance table in Markdown, as the README shows it."""
    lines = [
        f"Machine: {platform.machine()}, Python {platform.python_version()}",
        "",
        "| area | measurement | value | target | met |",
        "|---|---|---:|---|:-:|",
    ]
    for m in measurements:
        value = "n/a" if isinstance(m.value, float) and math.isnan(m.value) else f"{m.value:g} {m.unit}"
        met = "" if m.met is None else ("yes" if m.met else "NO")
        name = m.name + (f" ({m.note})" if m.note else "")
        lines.append(f"| {m.area} | {name} | {value} | {m.target} | {met} |")
    return "\n".join(lines)
