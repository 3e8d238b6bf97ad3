"""What the sales-rep ranking tasks share: a period, an extreme, and a strict winner among the reps.

sales_amount_understanding, sales_cycle_understanding and conversion_rate_comprehension each
rank the sales reps on one measure over a period (relative to a "today" or named, as the v1
tasks' periods are: :mod:`crmarena_sf.tasks.periods`) and ask for the best or worst. A period is
asked about only when its ranking has a strict winner among at least two reps, or, for a None
instance, when no rep has anything to rank (once the answered instances are found, the None ones
are looked for among recent periods after the data's last day, where there is nothing to rank).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from crmarena_sf.tasks.families.base import Draft, Quota, random_window, when_slots, window_params
from crmarena_sf.tasks.families.pro.base import ProBuildContext, quiet_window
from crmarena_sf.tasks.periods import PERIOD_RULES
from crmarena_sf.tasks.ranking import rank

UNITS = {"month": (1, 12), "quarter": (1, 6), "week": (2, 12), "year": (1, 2)}


def rank_window(values: dict, extreme: str) -> tuple[str | None, bool]:
    """(answer, worth asking): a strict winner among two or more reps, or nobody at all (None)."""
    ranking = rank(values, extreme)
    return ranking.answer, not values or (ranking.unique and len(values) >= 2)


def generate_rep_task(
    ctx: ProBuildContext,
    n: int,
    n_none: int,
    span: tuple[dt.date, dt.date],
    measure: Callable[[dt.datetime, dt.datetime], dict],
    questions: dict[str, tuple[str, ...]],
    policy: str,
) -> list[Draft]:
    """Drafts over periods around ``span``: ``measure(start, end)`` gives rep -> value for a period."""
    rnd = ctx.rnd
    around = ctx.spanning(*span)
    drafts, seen, quota = [], set(), Quota(n, n_none)
    for _ in range(400 * n):
        if quota.full:
            break
        if quota.answered >= n - n_none:
            today, window = quiet_window(around)
        else:
            today, window = random_window(around, UNITS, ("month", "quarter", "season", "year"))
        if (window.start, window.end) in seen:
            continue
        seen.add((window.start, window.end))
        values = measure(window.start, window.end)
        # Each extreme the period can be asked about (a strict winner, or nobody at all), one of them drawn.
        askable = [e for e in sorted(questions) if rank_window(values, e)[1]]
        if not askable:
            continue
        extreme = rnd.choice(askable)
        answer = rank_window(values, extreme)[0]
        if not quota.wants(answer):
            continue
        quota.take(answer)
        query = rnd.choice(questions[extreme]).format(**when_slots(window))
        required = f"{policy}\n\n- Today's date: {today.isoformat()}\n{PERIOD_RULES}"
        params = window_params(window, extreme=extreme)
        drafts.append(Draft(params, query, required, answer, (window.start, window.end, extreme)))
    return drafts
