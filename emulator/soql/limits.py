"""SOQL's numeric limits, and the errors for numbers past them.

Verified: OFFSET is at most 2,000 (SOQL and SOSL Reference, "OFFSET",
https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_soql_select_offset.htm),
answered ``NUMBER_OUTSIDE_VALID_RANGE: Maximum SOQL offset allowed is 2000`` (public client
code); FIELDS(ALL) and FIELDS(CUSTOM) need a LIMIT of at most 200 ("FIELDS()",
sforce_api_calls_soql_select_fields.htm).

Modelled, not verified: LIMIT and the ``n`` of ``LAST_N_DAYS:n`` and its kin are integers
(Apex binds them as ``Integer``), so a number past 2,147,483,647 is refused with the code
Salesforce uses for the OFFSET limit, ``NUMBER_OUTSIDE_VALID_RANGE``, in the words of that
message ("Maximum SOQL limit allowed is 2147483647"). No public payload shows what a real
org answers there; what matters is a coded 400 instead of an engine failure. An ``n`` inside
the integer range whose range reaches past the calendar is not an error: the range is cut
at the first and last representable day (a filter ``LAST_N_DAYS:2000000000`` means every
day until today).
"""

from __future__ import annotations

from crmarena_sf.emulator.soql.errors import SoqlError

MAX_OFFSET = 2000
FIELDS_MACRO_LIMIT = 200
MAX_RELATIONSHIP_LEVELS = 5
"""Levels of parent-to-child relationships, the root query counting as the first (API 58.0 and later)."""
MAX_RELATIONSHIP_LEVELS_BEFORE_58 = 2
"""In API version 57.0 and earlier, only two levels ("Understanding Relationship Query Limitations",
sforce_api_calls_soql_relationships_query_limits.htm)."""
MAX_INTEGER = 2**31 - 1
"""The largest SOQL integer (LIMIT, ``LAST_N_DAYS:n``)."""
MAX_EXACT_DIGITS = 18
"""Numeric literals with more significant digits than a DECIMAL(18) holds are compared as doubles."""


def outside_range(what: str, maximum: int, offset: int | None = None) -> SoqlError:
    """NUMBER_OUTSIDE_VALID_RANGE, worded like ``Maximum SOQL offset allowed is 2000``."""
    return SoqlError("NUMBER_OUTSIDE_VALID_RANGE", f"Maximum SOQL {what} allowed is {maximum}", offset)


def checked_limit(value: int, offset: int | None = None) -> int:
    """A LIMIT's rows (refused past the integer range)."""
    if value > MAX_INTEGER:
        raise outside_range("limit", MAX_INTEGER, offset)
    return value


def checked_offset(value: int) -> int:
    """An OFFSET's rows (at most 2,000)."""
    if value > MAX_OFFSET:
        raise outside_range("offset", MAX_OFFSET)
    return value


def checked_count(name: str, value: int, offset: int | None = None) -> int:
    """The ``n`` of ``LAST_N_DAYS:n`` and its kin (refused past the integer range)."""
    if value > MAX_INTEGER:
        raise outside_range(name, MAX_INTEGER, offset)
    return value


def too_precise(text: str) -> bool:
    """True for a numeric literal with more significant digits than DECIMAL(18) holds."""
    digits = text.lstrip("+-").replace(".", "").lstrip("0")
    return len(digits) > MAX_EXACT_DIGITS
