"""Functions that change how a value is shown: toLabel(), FORMAT() and convertCurrency().

SOQL and SOSL Reference, "toLabel()" (sforce_api_calls_soql_select_tolabel.htm), "FORMAT()"
(sforce_api_calls_soql_select_format.htm) and "convertCurrency()"
(sforce_api_calls_soql_querying_currency_fields.htm), at
https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/:

- ``toLabel(picklist)`` answers each value's label (the value itself where there is none);
  it may be used in SELECT and WHERE;
- ``FORMAT(field)`` answers the value as the user's locale displays it (en_US here;
  dateTimes in the user's time zone); it may wrap an aggregate or convertCurrency(), and is
  written in SELECT only;
- ``convertCurrency(field)`` converts to the user's currency: the identity in a
  single-currency org like this one. It is written in SELECT only: "convertCurrency() can't
  be used with the ORDER BY clause", ordering uses the converted value anyway.

In a record each keeps the field's key (``toLabel(Status)`` answers ``Status``) unless aliased.
"""

from __future__ import annotations

from crmarena_sf.emulator.soql.functions.context import CompileContext, Typed
from crmarena_sf.emulator.soql.functions.registry import (
    ARGUMENT,
    FIELD,
    OPERAND,
    SELECT,
    FunctionCall,
    SoqlFunction,
    register,
)
from crmarena_sf.emulator.soql.shape import formatter
from sqlglot import exp

_SELECT_ONLY = frozenset({SELECT, ARGUMENT})


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


def to_label(c: FunctionCall) -> Typed:
    """A picklist's labels; any other field's value is its own label."""
    inner = c.arg()
    if inner.field is None or not inner.field.picklistValues:
        return inner
    return Typed(picklist_label(inner), "string", inner.field)


def unchanged(c: FunctionCall) -> Typed:
    """The argument's own value (FORMAT is applied when shaping; one currency needs no conversion)."""
    return c.arg()


def format_value(value: Typed, ctx: CompileContext):
    return formatter(value.type, ctx.timezone)


register(
    SoqlFunction(
        "TOLABEL", (FIELD,), to_label, keeps_field_key=True, doc="sforce_api_calls_soql_select_tolabel.htm"
    ),
    SoqlFunction(
        "FORMAT",
        (OPERAND,),
        unchanged,
        keeps_field_key=True,
        clauses=_SELECT_ONLY,
        convert=format_value,
        doc="sforce_api_calls_soql_select_format.htm",
    ),
    SoqlFunction(
        "CONVERTCURRENCY",
        (OPERAND,),
        unchanged,
        keeps_field_key=True,
        clauses=_SELECT_ONLY,
        doc="sforce_api_calls_soql_querying_currency_fields.htm",
    ),
)
