"""Seeded random streams: one independent stream per concern, so adding a draw in one
module never shifts the values another module draws (and the same seed gives the same org).

``Random`` seeded with a string is stable across runs and platforms (CPython hashes a
str seed with SHA-512), unlike ``hash()`` which is salted per process.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def stream(seed: int, name: str) -> random.Random:
    """The random stream called ``name`` of generation seed ``seed``."""
    return random.Random(f"crmarena-sf:{seed}:{name}")


class Weighted:
    """Repeated weighted draws from a fixed population (cumulative weights built once)."""

    def __init__(self, items: Sequence[T], weights: Sequence[float]) -> None:
        if len(items) != len(weights) or not items:
            raise ValueError("a weighted choice needs as many weights as items, and at least one item")
        self.items = list(items)
        self.cumulative = list(itertools.accumulate(weights))
        self.total = self.cumulative[-1]

    def pick(self, rnd: random.Random) -> T:
        """One item, drawn with probability proportional to its weight."""
        return self.items[bisect.bisect_right(self.cumulative, rnd.random() * self.total)]


def mix(*values: int) -> int:
    """A well-mixed 64-bit hash of integers (splitmix64 steps): a stable, seedable coin per key."""
    h = 0x9E3779B97F4A7C15
    for v in values:
        h = (h ^ (v & 0xFFFFFFFFFFFFFFFF)) * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF
        h = (h ^ (h >> 31)) * 0x94D049BB133111EB & 0xFFFFFFFFFFFFFFFF
        h ^= h >> 29
    return h


def unit(*values: int) -> float:
    """A number in [0, 1) determined by ``values`` (see :func:`mix`)."""
    return mix(*values) / 2**64
