"""SOQL's date literals as ranges of days, and the org facts they depend on.

SOQL and SOSL Reference, "Date Formats and Date Literals in WHERE": every date literal is
a range that starts at 00:00:00 of a day in the running user's time zone; ``=`` means
inside the range, ``>`` after its end, ``<`` before its start. ``LAST_N_DAYS:n`` and
``LAST_90_DAYS`` include today; ``NEXT_N_DAYS:n`` starts tomorrow; ``LAST_N_WEEKS``,
``LAST_N_MONTHS``, ``LAST_N_QUARTERS`` and ``LAST_N_YEARS`` end where the current period
starts; weeks start on Sunday (the en_US locale); fiscal periods follow the
Organization's ``FiscalYearStartMonth`` (January unless the org says otherwise).
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

RELATIVE_DATES = frozenset(
    "YESTERDAY TODAY TOMORROW LAST_WEEK THIS_WEEK NEXT_WEEK LAST_MONTH THIS_MONTH NEXT_MONTH "
    "LAST_90_DAYS NEXT_90_DAYS THIS_QUARTER LAST_QUARTER NEXT_QUARTER THIS_YEAR LAST_YEAR NEXT_YEAR "
    "THIS_FISCAL_QUARTER LAST_FISCAL_QUARTER NEXT_FISCAL_QUARTER THIS_FISCAL_YEAR LAST_FISCAL_YEAR "
    "NEXT_FISCAL_YEAR".split()
)
RELATIVE_DATES_WITH_N = frozenset(
    "LAST_N_DAYS NEXT_N_DAYS N_DAYS_AGO NEXT_N_WEEKS LAST_N_WEEKS N_WEEKS_AGO NEXT_N_MONTHS "
    "LAST_N_MONTHS N_MONTHS_AGO NEXT_N_QUARTERS LAST_N_QUARTERS N_QUARTERS_AGO NEXT_N_YEARS "
    "LAST_N_YEARS N_YEARS_AGO NEXT_N_FISCAL_QUARTERS LAST_N_FISCAL_QUARTERS N_FISCAL_QUARTERS_AGO "
    "NEXT_N_FISCAL_YEARS LAST_N_FISCAL_YEARS N_FISCAL_YEARS_AGO".split()
)
"""Date literals that take ``:n``."""

_FISCAL_CACHE_KEY = "soql.fiscal_year_start_month"


def relative_range(
    name: str, n: int | None, today: dt.date, fiscal_start: int = 1
) -> tuple[dt.date, dt.date]:
    """``[first day, day after the last)`` of date literal ``name`` (with ``n`` for the ``_N_`` ones).

    A range reaching past the calendar stops at its first or last day (see :mod:`crmarena_sf.emulator.soql.limits`).
    """
    count = n or 0
    if name == "TODAY":
        return today, add_days(today, 1)
    if name == "YESTERDAY":
        return add_days(today, -1), today
    if name == "TOMORROW":
        return add_days(today, 1), add_days(today, 2)
    if name == "LAST_90_DAYS":
        return add_days(today, -90), add_days(today, 1)
    if name == "NEXT_90_DAYS":
        return add_days(today, 1), add_days(today, 91)
    if name == "LAST_N_DAYS":
        return add_days(today, -count), add_days(today, 1)
    if name == "NEXT_N_DAYS":
        return add_days(today, 1), add_days(today, count + 1)
    if name == "N_DAYS_AGO":
        return add_days(today, -count), add_days(today, 1 - count)
    if "WEEK" in name:
        return _periods(name, count, _week_start(today), lambda d, k: add_days(d, 7 * k))
    if "FISCAL_QUARTER" in name:
        return _periods(name, count, _quarter_start(today, fiscal_start), lambda d, k: add_months(d, 3 * k))
    if "FISCAL_YEAR" in name:
        return _periods(name, count, _year_start(today, fiscal_start), lambda d, k: add_months(d, 12 * k))
    if "MONTH" in name:
        return _periods(name, count, today.replace(day=1), add_months)
    if "QUARTER" in name:
        return _periods(name, count, _quarter_start(today, 1), lambda d, k: add_months(d, 3 * k))
    if "YEAR" in name:
        return _periods(name, count, today.replace(month=1, day=1), lambda d, k: add_months(d, 12 * k))
    raise ValueError(f"not a date literal: {name}")


def _periods(name: str, n: int, current: dt.date, shift) -> tuple[dt.date, dt.date]:
    """Ranges of whole periods (weeks, months ...) around the period starting at ``current``."""
    if name.startswith("THIS_"):
        return current, shift(current, 1)
    if name.startswith("LAST_N_"):
        return shift(current, -n), current
    if name.startswith("NEXT_N_"):
        return shift(current, 1), shift(current, 1 + n)
    if name.startswith("LAST_"):
        return shift(current, -1), current
    if name.startswith("NEXT_"):
        return shift(current, 1), shift(current, 2)
    if name.startswith("N_") and name.endswith("_AGO"):
        return shift(current, -n), shift(current, 1 - n)
    raise ValueError(f"not a date literal: {name}")


def add_days(day: dt.date, days: int) -> dt.date:
    """``day`` moved by ``days``, stopping at the calendar's first or last day."""
    try:
        return day + dt.timedelta(days=days)
    except OverflowError:
        return dt.date.min if days < 0 else dt.date.max


def add_months(day: dt.date, months: int) -> dt.date:
    """The first-of-month ``day`` moved by ``months`` (periods here always start on the 1st), within the calendar."""
    index = day.year * 12 + (day.month - 1) + months
    year = index // 12
    if year < dt.MINYEAR:
        return dt.date.min
    if year > dt.MAXYEAR:
        return dt.date.max
    return dt.date(year, index % 12 + 1, 1)


def _week_start(day: dt.date) -> dt.date:
    """The Sunday starting ``day``'s week (en_US weeks start on Sunday)."""
    return day - dt.timedelta(days=(day.weekday() + 1) % 7)


def _quarter_start(day: dt.date, first_month: int) -> dt.date:
    offset = (day.month - first_month) % 3
    return add_months(day.replace(day=1), -offset)


def _year_start(day: dt.date, first_month: int) -> dt.date:
    offset = (day.month - first_month) % 12
    return add_months(day.replace(day=1), -offset)


# ---------------------------------------------------------------------------- org facts
@lru_cache(maxsize=64)
def zone(name: str) -> dt.tzinfo:
    """The tzinfo of an IANA name (UTC for names the system does not know, like Salesforce's 'GMT')."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return dt.UTC


_TODAY_KEY = "soql.today"
_QUARTER = dt.timedelta(minutes=15)
_TICK = dt.timedelta(microseconds=1)


def today(org: Org) -> dt.date:
    """Today in the running user's time zone, from the org's clock.

    Every query asks (its plan depends on the day), so the answer is kept for the quarter hour
    of UTC it holds for: time zones move in quarter hours, so the local day changes only at
    their edges (a quarter hour whose two ends fall on different days is not kept).
    """
    now = org.clock.now()
    timezone = org.timezone
    known = org.cache.get(_TODAY_KEY)
    if known is not None and known[0] == timezone and known[1] <= now < known[2]:
        return known[3]
    day = _local_date(now, timezone)
    start = now.replace(minute=now.minute - now.minute % 15, second=0, microsecond=0)
    try:
        end = start + _QUARTER
        same_day = _local_date(start, timezone) == day == _local_date(end - _TICK, timezone)
    except OverflowError:  # the calendar's last quarter hour, or a zone that leaves it
        return day
    if same_day:
        org.cache[_TODAY_KEY] = (timezone, start, end, day)
    return day


def _local_date(moment: dt.datetime, timezone: str) -> dt.date:
    """The date in ``timezone`` at ``moment`` (naive UTC)."""
    return moment.replace(tzinfo=dt.UTC).astimezone(zone(timezone)).date()


def local_midnight_utc(day: dt.date, tz_name: str) -> dt.datetime:
    """00:00:00 of ``day`` in time zone ``tz_name``, as a naive UTC datetime (how the store keeps time)."""
    local = dt.datetime(day.year, day.month, day.day, tzinfo=zone(tz_name))
    try:
        return local.astimezone(dt.UTC).replace(tzinfo=None)
    except OverflowError:  # the calendar's first or last day, in a zone ahead of or behind UTC
        return dt.datetime.min if day.year == dt.MINYEAR else dt.datetime.max


def fiscal_year_start_month(org: Org) -> int:
    """The org's first fiscal month (Organization.FiscalYearStartMonth; 1 when absent), read once per org.

    A fork that reads its Organization table through from an org file attached read-only (which
    cannot change) finds the value the file's first reader kept there, instead of a query on each
    fork's first SOQL. As for the recycle bin (:mod:`crmarena_sf.emulator.store.recycle_bin`), the
    query runs on the asking org's cursor under its own lock, never on the owner's.
    """
    cached = org.cache.get(_FISCAL_CACHE_KEY)
    if cached is not None:
        return cached
    owner = dict(org.read_through_owners()).get("Organization")
    shared = owner if owner is not None and owner.read_only else None
    if shared is not None and shared.cache.get(_FISCAL_CACHE_KEY) is not None:
        month = org.cache[_FISCAL_CACHE_KEY] = shared.cache[_FISCAL_CACHE_KEY]
        return month
    month = 1
    organization = org.schema.get("Organization")
    if organization is not None and organization.field("FiscalYearStartMonth") is not None:
        with org.lock:
            row = org.con.execute('SELECT "FiscalYearStartMonth" FROM "Organization" LIMIT 1').fetchone()
        if row and row[0] and 1 <= int(row[0]) <= 12:
            month = int(row[0])
    org.cache[_FISCAL_CACHE_KEY] = month
    if shared is not None:
        shared.cache[_FISCAL_CACHE_KEY] = month  # a race reads it twice, alike: the file cannot change
    return month
