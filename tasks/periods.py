"""Time windows of the benchmark: relative ("the past 3 months") and named ("Q2 2023", "Winter 2021").

Every window is half-open, [start, end), in UTC, with both ends at midnight: a relative window
ends at the start of "today" and starts N periods earlier by calendar arithmetic (a quarter is
three months, as CRMArena's ``get_start_date`` counts); a named window starts at 00:00 on its
first day and ends at 00:00 on the day after its last. Seasons follow CRMArena's ``get_period``:
a season named with a year starts in that year, so Winter 2021 runs from December 1, 2021 to
March 1, 2022. The task texts state these rules (:data:`PERIOD_RULES`, :data:`DOMAIN_DETAILS`).
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass

MONTHS = tuple(calendar.month_name[1:])
SEASONS = {"Spring": 3, "Summer": 6, "Fall": 9, "Winter": 12}
"""Season -> its first month; a season lasts three months."""
NUMBER_WORDS = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "eleven",
    12: "twelve",
}
UNITS = ("day", "week", "month", "quarter", "year")

PERIOD_RULES = (
    "- Time periods are half-open and in UTC: a period includes its first moment and excludes its end. "
    "A named period (a month, a quarter, a season, a year) starts at 00:00 on its first day and ends at "
    "00:00 on the day after its last day; 'the past N days/weeks/months/quarters' ends at 00:00 today "
    "and starts N such periods earlier."
)
"""Appended to the required metadata of every task that names a period."""

DOMAIN_DETAILS = """# Domain Details
## Quarters
- Q1 is January through March, Q2 April through June, Q3 July through September, Q4 October through December.
## Seasons
- Spring: March 1 to May 31. Summer: June 1 to August 31. Fall (Autumn): September 1 to November 30.
- Winter: December 1 to the end of February. A season named with a year starts in that year: Winter 2021 runs from December 1, 2021 through February 28, 2022.
## Periods
- The past N quarters: the 3 x N months before today (two quarters back is six months back).
- A month with significantly more cases: a month whose case count is higher than that of every other month; months of different years with the same name count together.
## Times
- Dates and times are in UTC. A period includes its first moment and excludes its end."""
"""The optional metadata every task carries (CRMArena's "aided" mode appends it to the prompt)."""


@dataclass(frozen=True)
class Window:
    """A half-open UTC window [start, end) and the words that name it in a question."""

    start: dt.datetime
    end: dt.datetime
    phrase: str
    """How a question names it: "in the past three months", "in Q2 2023" ..."""

    def iso(self) -> tuple[str, str]:
        return iso(self.start), iso(self.end)


def iso(moment: dt.datetime) -> str:
    """``2023-04-01T00:00:00Z``: how params and SOQL datetime literals write a moment (UTC)."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str) -> dt.datetime:
    """The naive UTC datetime of an ISO-8601 string (``Z``, ``+0000``, ``+00:00`` or none)."""
    text = text.strip().replace("Z", "+00:00")
    if len(text) >= 5 and text[-5] in "+-" and text[-3] != ":":
        text = text[:-2] + ":" + text[-2:]
    value = dt.datetime.fromisoformat(text)
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC).replace(tzinfo=None)
    return value


def midnight(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day)


def add_months(day: dt.date, months: int) -> dt.date:
    """Calendar arithmetic: the same day ``months`` later (clamped to the month's last day)."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    return dt.date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def shift(day: dt.date, unit: str, count: int) -> dt.date:
    """``day`` moved by ``count`` periods of ``unit`` (negative: back in time)."""
    if unit == "day":
        return day + dt.timedelta(days=count)
    if unit == "week":
        return day + dt.timedelta(weeks=count)
    if unit == "month":
        return add_months(day, count)
    if unit == "quarter":
        return add_months(day, 3 * count)
    if unit == "year":
        return add_months(day, 12 * count)
    raise ValueError(f"unknown period unit {unit!r}; expected one of {', '.join(UNITS)}")


def count_words(count: int, unit: str, rnd=None) -> str:
    """ "three months", "10 days": how a question counts two or more periods."""
    number = NUMBER_WORDS.get(count) if (rnd is None or rnd.random() < 0.7) else None
    return f"{number or count} {unit}s"


RELATIVE_PHRASES = (
    "in the past {n}",
    "over the last {n}",
    "during the past {n}",
    "in the last {n}",
    "over the past {n}",
)


def relative(today: dt.date, unit: str, count: int, rnd=None) -> Window:
    """The ``count`` periods of ``unit`` before today: [today - count units, today).

    One period reads without an article ("in the past year", "over the last quarter"), never
    "in the past a year"; more read with their number ("over the last three months").
    """
    start = shift(today, unit, -count)
    words = unit if count == 1 else count_words(count, unit, rnd)
    template = RELATIVE_PHRASES[0] if rnd is None else rnd.choice(RELATIVE_PHRASES)
    return Window(midnight(start), midnight(today), template.format(n=words))


def month(year: int, number: int) -> Window:
    first = dt.date(year, number, 1)
    return Window(midnight(first), midnight(add_months(first, 1)), f"{MONTHS[number - 1]} {year}")


def quarter(year: int, number: int) -> Window:
    first = dt.date(year, 3 * number - 2, 1)
    return Window(midnight(first), midnight(add_months(first, 3)), f"Q{number} {year}")


def season(year: int, name: str) -> Window:
    first = dt.date(year, SEASONS[name], 1)
    return Window(midnight(first), midnight(add_months(first, 3)), f"{name} {year}")


def year(number: int) -> Window:
    return Window(midnight(dt.date(number, 1, 1)), midnight(dt.date(number + 1, 1, 1)), str(number))


def named_windows(first: dt.date, last: dt.date) -> list[Window]:
    """Every month, quarter, season and year that overlaps [first, last]."""
    out: list[Window] = []
    for y in range(first.year - 1, last.year + 1):
        out.extend(month(y, m) for m in range(1, 13))
        out.extend(quarter(y, q) for q in range(1, 5))
        out.extend(season(y, s) for s in SEASONS)
        out.append(year(y))
    lo, hi = midnight(first), midnight(last) + dt.timedelta(days=1)
    return [w for w in out if w.end > lo and w.start < hi]
