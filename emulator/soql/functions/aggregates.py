"""Aggregate functions: COUNT, COUNT_DISTINCT, SUM, AVG, MIN, MAX and GROUPING.

SOQL and SOSL Reference, "Aggregate Functions"
(https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_soql_select_agg_functions.htm):

- ``COUNT()`` counts rows (the answer is the query's totalSize), ``COUNT(field)`` the rows
  where the field is not null;
- ``COUNT_DISTINCT(field)`` counts distinct non-null values; on text it ignores case, like
  every SOQL string comparison;
- ``MIN`` and ``MAX`` of a picklist follow its defined order, not the alphabet;
- ``SUM`` and ``AVG`` take numbers only; ``MIN``, ``MAX`` and the others take fields whose
  describe says ``aggregatable``: any other field is refused with "field X does not support
  aggregate operator SUM";
- ``GROUPING(field)`` says whether a ROLLUP or CUBE row is a subtotal of that field
  ("GROUPING(fieldName)", sforce_api_calls_soql_select_groupby_grouping.htm).
"""

from __future__ import annotations

from crmarena_sf.emulator.soql.dialect import SOQL
from crmarena_sf.emulator.soql.errors import malformed
from crmarena_sf.emulator.soql.functions.context import NUMBER_TYPES, TEXT_TYPES, Typed, call
from crmarena_sf.emulator.soql.functions.registry import (
    ARGUMENT,
    FIELD,
    HAVING,
    OPERAND,
    ORDER_BY,
    SELECT,
    FunctionCall,
    SoqlFunction,
    register,
)
from crmarena_sf.emulator.soql.grouping import in_picklist_order
from crmarena_sf.emulator.soql.nodes import offset_of
from sqlglot import exp

_DOC = "sforce_api_calls_soql_select_agg_functions.htm"
_AFTER_GROUPING = frozenset({SELECT, HAVING, ORDER_BY, ARGUMENT})
"""Aggregates are computed over groups: never in WHERE or GROUP BY (FORMAT(MIN(CloseDate)) may wrap one)."""


def _not_aggregatable(node: exp.Anonymous, fields: list, is_grouped=None) -> None:
    """MIN, MAX ... only on fields whose describe says aggregatable."""
    f = fields[0] if fields else None
    if f is not None and not f.aggregatable:
        raise malformed(f"field {f.name} does not support aggregate operator {node.name}", offset_of(node))


def _not_a_number(node: exp.Anonymous, fields: list, is_grouped=None) -> None:
    """SUM and AVG only on numbers."""
    f = fields[0] if fields else None
    if f is not None and f.type not in NUMBER_TYPES:
        raise malformed(f"field {f.name} does not support aggregate operator {node.name}", offset_of(node))
    _not_aggregatable(node, fields)


def count(c: FunctionCall) -> Typed:
    if not c.arguments:
        return Typed(exp.Count(this=exp.Star()), "int")
    return Typed(exp.Count(this=c.arg().sql), "int")


def count_distinct(c: FunctionCall) -> Typed:
    """COUNT_DISTINCT ignores case on text, as SOQL string comparisons do."""
    inner = c.arg()
    value = exp.Lower(this=inner.sql) if inner.type in TEXT_TYPES else inner.sql
    return Typed(exp.Count(this=exp.Distinct(expressions=[value])), "int")


def _plain(kind: type[exp.Expression], result_type: str | None = None):
    def translate(c: FunctionCall) -> Typed:
        inner = c.arg()
        return Typed(kind(this=inner.sql), result_type or inner.type, inner.field)

    return translate


def _not_grouped(node: exp.Anonymous, fields: list, is_grouped) -> None:
    """GROUPING(field) names a field of the GROUP BY (modelled wording: the ungrouped-field message)."""
    argument = node.expressions[0]
    if not is_grouped(argument):
        raise malformed(
            f"Field must be grouped or aggregated: {argument.sql(dialect=SOQL)}", offset_of(argument)
        )


def extreme(kind: str):
    """MIN or MAX; on a picklist, by the picklist's defined order (see :mod:`crmarena_sf.emulator.soql.grouping`)."""

    def translate(c: FunctionCall) -> Typed:
        inner = c.arg()
        ordered = in_picklist_order(kind, inner)
        if ordered is not None:
            return Typed(ordered, inner.type, inner.field)
        return Typed((exp.Min if kind == "MIN" else exp.Max)(this=inner.sql), inner.type, inner.field)

    return translate


def grouping(c: FunctionCall) -> Typed:
    return Typed(call("GROUPING", c.arg().sql), "int")


register(
    SoqlFunction("COUNT", (OPERAND,), count, min_arguments=0, aggregate=True, clauses=_AFTER_GROUPING, doc=_DOC),
    SoqlFunction("COUNT_DISTINCT", (OPERAND,), count_distinct, aggregate=True, clauses=_AFTER_GROUPING, doc=_DOC),
    SoqlFunction("SUM", (OPERAND,), _plain(exp.Sum), aggregate=True, clauses=_AFTER_GROUPING, check=_not_a_number, doc=_DOC),
    SoqlFunction("AVG", (OPERAND,), _plain(exp.Avg, "double"), aggregate=True, clauses=_AFTER_GROUPING, check=_not_a_number, doc=_DOC),
    SoqlFunction("MIN", (OPERAND,), extreme("MIN"), aggregate=True, clauses=_AFTER_GROUPING, check=_not_aggregatable, doc=_DOC),
    SoqlFunction("MAX", (OPERAND,), extreme("MAX"), aggregate=True, clauses=_AFTER_GROUPING, check=_not_aggregatable, doc=_DOC),
    SoqlFunction(
        "GROUPING",
        (FIELD,),
        grouping,
        aggregate=True,
        check=_not_grouped,
        clauses=_AFTER_GROUPING,
        doc="sforce_api_calls_soql_select_groupby_grouping.htm",
    ),
)  # fmt: skip
