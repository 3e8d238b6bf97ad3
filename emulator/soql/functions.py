"""SOQL functions as DuckDB expressions: aggregates, date functions, convertTimezone, toLabel.

Each translation reproduces one documented behaviour (SOQL and SOSL Reference, "Date
Functions", "Aggregate Functions", "toLabel()", "convertTimezone()"):

- date functions read dateTime values in UTC unless wrapped in ``convertTimezone()``,
  which converts to the running user's time zone first and is only valid inside a date
  function (developer.salesforce.com/docs/platform/salesforce-soql-sosl/guide/
  sforce-api-calls-soql-select-convert-time-zone);
- ``DAY_IN_WEEK`` counts from 1 = Sunday; ``WEEK_IN_MONTH`` and ``WEEK_IN_YEAR`` count
  weeks of seven days from the 1st (of the month, of January);
- fiscal functions follow the org's fiscal year start; a fiscal year is named by the
  calendar year in which it ends;
- ``COUNT_DISTINCT`` on text ignores case like every SOQL string comparison;
- ``toLabel()`` answers a picklist value's label; ``convertCurrency()`` is the identity
  in a single-currency org; ``FORMAT()`` is applied when shaping the result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlglot import exp

from emulator.soql.errors import malformed
from emulator.soql.nodes import FieldPath, offset_of
from metadata.model import Field

TEXT_TYPES = frozenset(
    "string textarea picklist multipicklist combobox email phone url encryptedstring".split()
)
DATE_FUNCTIONS = frozenset(
    "CALENDAR_MONTH CALENDAR_QUARTER CALENDAR_YEAR DAY_IN_MONTH DAY_IN_WEEK DAY_IN_YEAR DAY_ONLY "
    "FISCAL_MONTH FISCAL_QUARTER FISCAL_YEAR HOUR_IN_DAY WEEK_IN_MONTH WEEK_IN_YEAR".split()
)


@dataclass(frozen=True)
class CompileContext:
    """What a compiled query depends on besides its text: the org's day, time zone and fiscal year."""

    today: object
    timezone: str
    fiscal_start: int
    user_id: str


@dataclass(frozen=True)
class Typed:
    """A translated expression and the SOQL type of its value (describe type names)."""

    sql: exp.Expression
    type: str
    field: Field | None = None


def _call(name: str, *args: exp.Expression) -> exp.Expression:
    return exp.Anonymous(this=name, expressions=list(args))


def _int(value: int) -> exp.Literal:
    return exp.Literal.number(value)


def translate_function(
    node: exp.Expression, ctx: CompileContext, field_sql: Callable[[FieldPath], Typed]
) -> Typed:
    """The DuckDB expression of a SOQL function call (aggregate or scalar)."""
    if isinstance(node, FieldPath):
        return field_sql(node)
    if isinstance(node, exp.Count):
        arg = node.this
        if arg is None:
            return Typed(exp.Count(this=exp.Star()), "int")
        if isinstance(arg, exp.Distinct):
            inner = translate_function(arg.expressions[0], ctx, field_sql)
            value = exp.Lower(this=inner.sql) if inner.type in TEXT_TYPES else inner.sql
            return Typed(exp.Count(this=exp.Distinct(expressions=[value])), "int")
        inner = translate_function(arg, ctx, field_sql)
        return Typed(exp.Count(this=inner.sql), "int")
    if isinstance(node, (exp.Sum, exp.Avg, exp.Min, exp.Max)):
        inner = translate_function(node.this, ctx, field_sql)
        result_type = "double" if isinstance(node, exp.Avg) else inner.type
        return Typed(type(node)(this=inner.sql), result_type, inner.field)
    if not isinstance(node, exp.Anonymous):
        raise malformed("unexpected token: '('", offset_of(node))
    name = node.name.upper()
    args = node.expressions
    if name == "CONVERTTIMEZONE":
        inner = translate_function(args[0], ctx, field_sql)
        if inner.type != "datetime":
            raise _bad_argument(name, inner, node)
        converted = _call(
            "timezone",
            exp.Literal.string(ctx.timezone),
            _call("timezone", exp.Literal.string("UTC"), inner.sql),
        )
        return Typed(converted, "datetime", inner.field)
    if name in DATE_FUNCTIONS:
        inner = translate_function(args[0], ctx, field_sql)
        if inner.type not in ("date", "datetime") or (name == "HOUR_IN_DAY" and inner.type != "datetime"):
            raise _bad_argument(name, inner, node)
        return date_function(name, inner, ctx.fiscal_start)
    if name in ("TOLABEL", "CONVERTCURRENCY", "FORMAT", "GROUPING"):
        inner = translate_function(args[0], ctx, field_sql)
        if name == "TOLABEL":
            return Typed(picklist_label(inner), "string", inner.field)
        if name == "GROUPING":
            return Typed(_call("GROUPING", inner.sql), "int")
        return inner
    raise malformed("unexpected token: '('", offset_of(node))


def _bad_argument(name: str, inner: Typed, node: exp.Expression):
    field_name = inner.field.name if inner.field is not None else "expression"
    return malformed(f"Invalid argument for function {name}: {field_name}", offset_of(node))


def date_function(name: str, value: Typed, fiscal_start: int) -> Typed:
    """One SOQL date function over a date or (UTC or converted) dateTime value."""
    v = value.sql
    month = _call("month", v)
    if name == "CALENDAR_YEAR":
        sql = _call("year", v)
    elif name == "CALENDAR_MONTH":
        sql = month
    elif name == "CALENDAR_QUARTER":
        sql = _call("quarter", v)
    elif name == "DAY_IN_MONTH":
        sql = _call("day", v)
    elif name == "DAY_IN_WEEK":
        sql = exp.Add(this=_call("dayofweek", v), expression=_int(1))
    elif name == "DAY_IN_YEAR":
        sql = _call("dayofyear", v)
    elif name == "DAY_ONLY":
        return Typed(exp.Cast(this=v, to=exp.DataType.build("DATE")), "date", value.field)
    elif name == "HOUR_IN_DAY":
        sql = _call("hour", v)
    elif name == "WEEK_IN_MONTH":
        sql = _week_of(_call("day", v))
    elif name == "WEEK_IN_YEAR":
        sql = _week_of(_call("dayofyear", v))
    elif name == "FISCAL_MONTH":
        sql = _fiscal_month(month, fiscal_start)
    elif name == "FISCAL_QUARTER":
        fiscal_month = exp.Paren(this=exp.Sub(this=_fiscal_month(month, fiscal_start), expression=_int(1)))
        sql = exp.Add(this=exp.IntDiv(this=fiscal_month, expression=_int(3)), expression=_int(1))
    else:  # FISCAL_YEAR: named after the calendar year it ends in
        year = _call("year", v)
        if fiscal_start == 1:
            sql = year
        else:
            sql = exp.Add(
                this=year,
                expression=exp.Cast(
                    this=exp.GTE(this=month, expression=_int(fiscal_start)), to=exp.DataType.build("INT")
                ),
            )
    return Typed(sql, "int")


def _week_of(day_number: exp.Expression) -> exp.Expression:
    """Weeks of seven days counted from day 1: ``(day - 1) // 7 + 1``."""
    return exp.Add(
        this=exp.IntDiv(
            this=exp.Paren(this=exp.Sub(this=day_number, expression=_int(1))), expression=_int(7)
        ),
        expression=_int(1),
    )


def _fiscal_month(month: exp.Expression, fiscal_start: int) -> exp.Expression:
    if fiscal_start == 1:
        return month
    shifted = exp.Add(this=exp.Sub(this=month, expression=_int(fiscal_start)), expression=_int(12))
    return exp.Add(this=exp.Mod(this=exp.Paren(this=shifted), expression=_int(12)), expression=_int(1))


def picklist_label(value: Typed) -> exp.Expression:
    """``toLabel(field)``: the label of each picklist value (the value itself where there is none)."""
    f = value.field
    if f is None or not f.picklistValues:
        return value.sql
    ifs = [
        exp.If(
            this=exp.EQ(this=value.sql, expression=exp.Literal.string(v.value)),
            true=exp.Literal.string(v.label or v.value),
        )
        for v in f.picklistValues
    ]
    return exp.Case(ifs=ifs, default=value.sql)
