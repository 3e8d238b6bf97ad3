"""Values on the wire: Python values to the JSON Salesforce's REST API sends, and back.

REST JSON writes dateTime as ``2024-04-01T08:00:00.000+0000``, date as ``2024-04-01``,
time as ``08:00:00.000Z``, numbers as JSON numbers and booleans as JSON booleans
(REST API Developer Guide, "Valid Date and DateTime Formats").
"""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal
from typing import Any

_DATETIME = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?"
    r"\s*(Z|[+-]\d{2}:?\d{2})?$"
)
MAX_OFFSET_HOURS = 18
"""Zone offsets run from -18:00 to +18:00 (java.time.ZoneOffset, which Salesforce's parser uses)."""
_TIME = re.compile(r"^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$")


def format_datetime(value: dt.datetime) -> str:
    """``2024-04-01T08:00:00.000+0000`` for a UTC (naive or aware) datetime."""
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC).replace(tzinfo=None)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}+0000"


def format_time(value: dt.time) -> str:
    return value.strftime("%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def to_json(value: Any) -> Any:
    """The JSON value Salesforce sends for a stored Python value."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dt.datetime):
        return format_datetime(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.time):
        return format_time(value)
    if isinstance(value, list):
        return [to_json(v) for v in value]
    if isinstance(value, (bytes, bytearray)):
        import base64

        return base64.b64encode(bytes(value)).decode("ascii")
    return value


encode_json = json.JSONEncoder(default=to_json, ensure_ascii=False, separators=(",", ":")).encode
"""``value`` as the compact JSON text a REST answer holds (Python values written by :func:`to_json`).

The same text as ``json.dumps(value, default=to_json, ensure_ascii=False, separators=(",", ":"))``,
from one encoder made once: every answer writes JSON, and making the encoder costs as much as
writing a small record."""


def parse_datetime(text: str) -> dt.datetime | None:
    """A UTC naive datetime from the ISO forms Salesforce accepts, or None.

    Accepts ``2024-01-01T10:00:00Z``, ``…+02:00``, ``…+0200``, ``….000+0000``, a naive time
    (taken as UTC) and a bare date (its midnight, UTC). None for an offset beyond ±18:00 or
    one that moves the instant out of the calendar (``9999-12-31T23:00:00-05:00``).
    """
    m = _DATETIME.match(text.strip())
    if not m:
        return None
    year, month, day, hour, minute, second, frac, zone = m.groups()
    try:
        value = dt.datetime(
            int(year),
            int(month),
            int(day),
            int(hour or 0),
            int(minute or 0),
            int(second or 0),
            int((frac or "0")[:6].ljust(6, "0")),
        )
    except ValueError:
        return None
    if zone and zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        digits = zone[1:].replace(":", "")
        hours, minutes = int(digits[:2]), int(digits[2:])
        if hours > MAX_OFFSET_HOURS or minutes > 59 or (hours == MAX_OFFSET_HOURS and minutes):
            return None
        try:
            value -= sign * dt.timedelta(hours=hours, minutes=minutes)
        except OverflowError:
            return None  # the offset moves the instant out of the calendar (before year 1 or after 9999)
    return value.replace(microsecond=value.microsecond // 1000 * 1000)


def parse_date(text: str) -> dt.date | None:
    """A date from ``YYYY-MM-DD``, or None."""
    try:
        if len(text) != 10:
            return None
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def parse_time(text: str) -> dt.time | None:
    """A time from ``HH:MM[:SS[.fff]][Z]``, or None."""
    m = _TIME.match(text.strip())
    if not m:
        return None
    hour, minute, second, frac, _zone = m.groups()
    try:
        return dt.time(int(hour), int(minute), int(second or 0), int((frac or "0")[:6].ljust(6, "0")))
    except ValueError:
        return None
