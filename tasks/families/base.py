"""What every task family provides, and what its generator gets to work with.

A family module holds, side by side, how its questions are made (``generate``: drafts with
params, text and the answer the in-memory candidate search expects) and how their gold
answers are computed (``solve``: the reference solver, SOQL/SOSL through an
:class:`~crmarena_sf.tasks.org_client.OrgClient`). :mod:`crmarena_sf.tasks.build` keeps a draft only when the
solver agrees with the search and the answer is unique.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from typing import Any

from crmarena_sf.tasks import periods
from crmarena_sf.tasks.org_facts import OrgFacts
from crmarena_sf.tasks.ranking import Ranking

PERSONAS = {
    "manager": "Service Manager: oversees a team of service agents, their workload, transfers and handle times.",
    "agent": "Service Agent: talks to customers, looks up their orders and cases, and applies company policy.",
    "analyst": "Service Analyst: studies case trends across products, issues, months and regions.",
    "developer": "Developer: writes the SOQL and SOSL queries that answer questions about the org.",
}
"""CRMArena's three personas (Manager: routing, handle time, transfers; Agent: disambiguation,
policy, knowledge; Analyst: top issue, monthly trend, best region)."""


@dataclass(frozen=True)
class Solution:
    """A reference solver's answer; ``ranking`` shows the runner-up where the answer won a ranking."""

    answer: str | None
    ranking: Ranking | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def unique(self) -> bool:
        """The answer is None (allowed by the family) or strictly beat every other candidate."""
        return self.ranking is None or self.answer is None or self.ranking.unique


@dataclass
class Draft:
    """One instance before its gold answer is confirmed by the solver."""

    params: dict[str, Any]
    query: str
    required: str
    expected: str | None
    """What the candidate search found; the solver must return the same."""
    key: tuple = ()
    """Identifies the instance's inputs, so the same question is never asked twice."""


@dataclass
class BuildContext:
    facts: OrgFacts
    rnd: random.Random
    first_day: dt.date
    """The first day with cases."""
    last_day: dt.date
    """The last day with cases."""
    sf: Any = None
    """The org's simple_salesforce client, for generators that must ask the org (SOSL hits)."""

    _named: list[periods.Window] | None = None

    def named_windows(self) -> list[periods.Window]:
        """Every month, quarter, season and year overlapping the data (computed once)."""
        if self._named is None:
            self._named = periods.named_windows(self.first_day, self.last_day)
        return self._named

    def today_between(self, earliest: dt.date, latest: dt.date) -> dt.date:
        span = (latest - earliest).days
        return earliest + dt.timedelta(days=self.rnd.randint(0, max(span, 0)))


def today_line(today: dt.date) -> str:
    return f"- Today's date: {today.isoformat()}"


def window_required(today: dt.date, policy: str = "") -> str:
    """Required metadata of a task that names a period: its policy, today's date and the period rules."""
    parts = [policy.rstrip()] if policy else []
    parts += [today_line(today), periods.PERIOD_RULES]
    return "\n".join(parts)


def random_window(
    ctx: BuildContext,
    units: dict[str, tuple[int, int]],
    named: tuple[str, ...] = ("month", "quarter", "season"),
) -> tuple[dt.date, periods.Window]:
    """A random period around the data: ``units`` (unit -> count range) relative to a random today,
    or a named period of a kind in ``named`` that ended before today."""
    rnd = ctx.rnd
    if rnd.random() < 0.55:
        unit = rnd.choice(list(units))
        lo, hi = units[unit]
        count = rnd.randint(lo, hi)
        today = ctx.today_between(ctx.first_day + dt.timedelta(days=20), ctx.last_day + dt.timedelta(days=60))
        return today, periods.relative(today, unit, count, rnd)
    kind = rnd.choice(named)
    pool = [w for w in ctx.named_windows() if _kind(w) == kind]
    window = rnd.choice(pool)
    end_day = (window.end - dt.timedelta(days=1)).date()
    today = end_day + dt.timedelta(days=rnd.randint(1, 240))
    return today, window


def _kind(window: periods.Window) -> str:
    head = window.phrase.split()[0]
    if head.startswith("Q") and head[1:].isdigit():
        return "quarter"
    if head in periods.SEASONS:
        return "season"
    if head in periods.MONTHS:
        return "month"
    return "year"


def when_slots(window: periods.Window) -> dict[str, str]:
    """``when`` ("in Q2 2023", "over the past three months") and ``When`` (capitalised) for question templates."""
    when = window.phrase if window.phrase.split()[0] in ("in", "over", "during") else f"in {window.phrase}"
    return {"when": when, "When": when[0].upper() + when[1:]}


@dataclass
class Quota:
    """How many answered and None instances a generator still wants (``n`` in all, ``n_none`` of them None)."""

    n: int
    n_none: int
    answered: int = 0
    nones: int = 0

    @property
    def full(self) -> bool:
        return self.answered + self.nones >= self.n

    def wants(self, answer: str | None) -> bool:
        return self.nones < self.n_none if answer is None else self.answered < self.n - self.n_none

    def take(self, answer: str | None) -> None:
        if answer is None:
            self.nones += 1
        else:
            self.answered += 1


def window_params(window: periods.Window, **extra: Any) -> dict[str, Any]:
    start, end = window.iso()
    return {"start": start, "end": end, **extra}
