"""Date functions and convertTimezone().

SOQL and SOSL Reference, "Date Functions"
(https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_soql_select_date_functions.htm)
and "convertTimezone()"
(https://developer.salesforce.com/docs/platform/salesforce-soql-sosl/guide/sforce-api-calls-soql-select-convert-time-zone):

- date functions read dateTime values in UTC unless wrapped in ``convertTimezone()``,
  which converts to the running user's time zone first;
- ``DAY_IN_WEEK`` counts from 1 = Sunday; ``WEEK_IN_MONTH`` and ``WEEK_IN_YEAR`` count
  weeks of seven days from the 1st (of the month, of January);
- ``HOUR_IN_DAY`` takes dateTime values only, the others date or dateTime;
- fiscal functions follow the org's fiscal year start; a fiscal year is named by the
  calendar year in which it ends.
"""

from __future__ import annotations

from crmarena_sf.emulator.soql.errors import malformed
from crmarena_sf.emulator.soql.functions.context import Typed, call, integer
from crmarena_sf.emulator.soql.functions.registry import OPERAND, FunctionCall, SoqlFunction, register
from crmarena_sf.emulator.soql.nodes import offset_of
from sqlglot import exp

_DOC = "sforce_api_calls_soql_select_date_functions.htm"


def bad_argument(c: FunctionCall, inner: Typed) -> Exception:
    """``Invalid argument for function CALENDAR_YEAR: Name`` (MALFORMED_QUERY)."""
    field_name = inner.field.name if inner.field is not None else "expression"
    return malformed(f"Invalid argument for function {c.name}: {field_name}", offset_of(c.node))


def convert_timezone(c: FunctionCall) -> Typed:
    """The dateTime in the running user's time zone (only dateTime values convert)."""
    inner = c.arg()
    if inner.type != "datetime":
        raise bad_argument(c, inner)
    converted = call(
        "timezone",
        exp.Literal.string(c.ctx.timezone),
        call("timezone", exp.Literal.string("UTC"), inner.sql),
    )
    return Typed(converted, "datetime", inner.field)


def _date_function(compute, datetime_only: bool = False):
    def translate(c: FunctionCall) -> Typed:
        inner = c.arg()
        if inner.type not in ("date", "datetime") or (datetime_only and inner.type != "datetime"):
            raise bad_argument(c, inner)
        return compute(inner, c.ctx.fiscal_start)

    return translate


def _int(sql: exp.Expression) -> Typed:
    return Typed(sql, "int")


def _week_of(day_number: exp.Expression) -> exp.Expression:
    """Weeks of seven days counted from day 1: ``(day - 1) // 7 + 1``."""
    return exp.Add(
        this=exp.IntDiv(
            this=exp.Paren(this=exp.Sub(this=day_number, expression=integer(1))), expression=integer(7)
        ),
        expression=integer(1),
    )


def fiscal_month(month: exp.Expression, fiscal_start: int) -> exp.Expression:
    """The month's number within a fiscal year starting in month ``fiscal_start``."""
    if fiscal_start == 1:
        return month
    shifted = exp.Add(this=exp.Sub(this=month, expression=integer(fiscal_start)), expression=integer(12))
    return exp.Add(this=exp.Mod(this=exp.Paren(this=shifted), expression=integer(12)), expression=integer(1))


def fiscal_quarter(v: Typed, fiscal_start: int) -> Typed:
    month = exp.Paren(
        this=exp.Sub(this=fiscal_month(call("month", v.sql), fiscal_start), expression=integer(1))
    )
    return _int(exp.Add(this=exp.IntDiv(this=month, expression=integer(3)), expression=integer(1)))


def fiscal_year(v: Typed, fiscal_start: int) -> Typed:
    """A fiscal year is named after the calendar year it ends in."""
    year = call("year", v.sql)
    if fiscal_start == 1:
        return _int(year)
    started = exp.GTE(this=call("month", v.sql), expression=integer(fiscal_start))
    return _int(
        exp.Add(this=year, expression=exp.Cast(this=started, to=exp.DataType.build(exp.DataType.Type.INT)))
    )


def day_only(v: Typed, fiscal_start: int) -> Typed:
    return Typed(exp.Cast(this=v.sql, to=exp.DataType.build(exp.DataType.Type.DATE)), "date", v.field)


_PARTS = {
    "CALENDAR_YEAR": lambda v, _: _int(call("year", v.sql)),
    "CALENDAR_MONTH": lambda v, _: _int(call("month", v.sql)),
    "CALENDAR_QUARTER": lambda v, _: _int(call("quarter", v.sql)),
    "DAY_IN_MONTH": lambda v, _: _int(call("day", v.sql)),
    "DAY_IN_WEEK": lambda v, _: _int(exp.Add(this=call("dayofweek", v.sql), expression=integer(1))),
    "DAY_IN_YEAR": lambda v, _: _int(call("dayofyear", v.sql)),
    "DAY_ONLY": day_only,
    "WEEK_IN_MONTH": lambda v, _: _int(_week_of(call("day", v.sql))),
    "WEEK_IN_YEAR": lambda v, _: _int(_week_of(call("dayofyear", v.sql))),
    "FISCAL_MONTH": lambda v, start: _int(fiscal_month(call("month", v.sql), start)),
    "FISCAL_QUARTER": fiscal_quarter,
    "FISCAL_YEAR": fiscal_year,
}

register(
    *(SoqlFunction(name, (OPERAND,), _date_function(compute), doc=_DOC) for name, compute in _PARTS.items()),
    SoqlFunction(
        "HOUR_IN_DAY", (OPERAND,), _date_function(lambda v, _: _int(call("hour", v.sql)), True), doc=_DOC
    ),
    SoqlFunction(
        "CONVERTTIMEZONE", (OPERAND,), convert_timezone, doc="sforce-api-calls-soql-select-convert-time-zone"
    ),
)
