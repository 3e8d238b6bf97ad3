"""Which key wins a ranking, and by how much: every gold answer must be unique.

A task asks for the agent, month, state or issue with the highest or lowest value. The
answer is unique only when the best value is strictly better than the runner-up's;
:func:`rank` says so and keeps the runner-up, so tests can recompute why an answer won.
Values are compared exactly (integers and :class:`fractions.Fraction`), never as floats.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class Ranking:
    """The outcome of ranking ``values`` (key -> value) for the ``extreme`` ("max" or "min")."""

    extreme: str
    best: list[str]
    """Keys tied at the best value (empty when there are no values)."""
    best_value: Any
    runner_up: str | None
    runner_up_value: Any

    @property
    def unique(self) -> bool:
        return len(self.best) == 1

    @property
    def answer(self) -> str | None:
        """The single best key (None when there is none or the best is a tie)."""
        return self.best[0] if self.unique else None


def rank(values: dict[str, Any], extreme: str) -> Ranking:
    """Rank ``values`` by ``extreme`` ("max" or "min"), ties kept together."""
    if extreme not in ("max", "min"):
        raise ValueError(f"extreme must be 'max' or 'min', not {extreme!r}")
    if not values:
        return Ranking(extreme, [], None, None, None)
    sign = 1 if extreme == "max" else -1
    ordered = sorted(values.items(), key=lambda kv: (-sign * kv[1], kv[0]))
    best_value = ordered[0][1]
    best = [k for k, v in ordered if v == best_value]
    rest = [(k, v) for k, v in ordered if v != best_value]
    runner_up, runner_value = rest[0] if rest else (None, None)
    return Ranking(extreme, best, best_value, runner_up, runner_value)


def mean(values: list[int]) -> Fraction:
    """The exact mean of whole numbers."""
    return Fraction(sum(values), len(values))
