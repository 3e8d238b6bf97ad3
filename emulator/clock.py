"""The clock an org owns.

SOQL date literals (TODAY, LAST_N_DAYS:n ...), audit fields and "now" all read the org's
clock. It follows the real time by default; a benchmark task freezes it at the task's own
"today" so answers do not depend on when the benchmark runs.
"""

from __future__ import annotations

import datetime as dt
import threading


class OrgClock:
    """UTC time for one org, either live or frozen at a fixed instant."""

    def __init__(self, frozen_at: dt.datetime | None = None) -> None:
        self._lock = threading.Lock()
        self._frozen: dt.datetime | None = None
        self._last: dt.datetime | None = None
        if frozen_at is not None:
            self.freeze(frozen_at)

    def now(self) -> dt.datetime:
        """The current instant, UTC, millisecond precision (Salesforce keeps milliseconds).

        Successive calls on a live clock never go backwards.
        """
        if self._frozen is not None:
            return self._frozen
        current = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        current = current.replace(microsecond=current.microsecond // 1000 * 1000)
        with self._lock:
            if self._last is not None and current < self._last:
                current = self._last
            self._last = current
        return current

    def freeze(self, at: dt.datetime | dt.date | str) -> None:
        """Stop the clock at ``at`` (a naive value is taken as UTC; a date means its midnight)."""
        self._frozen = _as_utc_naive(at)

    def unfreeze(self) -> None:
        """Follow the real time again."""
        self._frozen = None

    @property
    def frozen(self) -> bool:
        return self._frozen is not None


def _as_utc_naive(value: dt.datetime | dt.date | str) -> dt.datetime:
    if isinstance(value, str):
        text = value.strip().replace("Z", "+00:00")
        value = dt.datetime.fromisoformat(text) if "T" in text or " " in text else dt.date.fromisoformat(text)
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.UTC).replace(tzinfo=None)
        return value.replace(microsecond=value.microsecond // 1000 * 1000)
    return dt.datetime(value.year, value.month, value.day)
