"""The benchmark suite: ``crmarena-sf bench`` runs it and prints the performance table.

Each module ``bench/bench_<area>.py`` exposes ``run(quick: bool) -> list[Measurement]``.
Speed targets live here, never in the tests: a measurement carries its target and whether
this run met it, so the table shows both the number and the goal.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass


@dataclass
class Measurement:
    """One number of the performance table."""

    area: str
    name: str
    value: float
    unit: str
    target: str = ""
    met: bool | None = None
    note: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


def median_ms(func: Callable[[], object], repeat: int, warmup: int = 3) -> float:
    """Median wall time of ``func`` in milliseconds over ``repeat`` runs, after ``warmup`` runs."""
    for _ in range(warmup):
        func()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def under(area: str, name: str, value_ms: float, limit_ms: float, note: str = "") -> Measurement:
    """A millisecond measurement with an upper-bound target."""
    return Measurement(area, name, round(value_ms, 3), "ms", f"< {limit_ms:g} ms", value_ms < limit_ms, note)
