"""Aggregate queries' semantics that a plain GROUP BY gets wrong.

SOQL and SOSL Reference (https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/):

- :func:`ignoring_case` -- SOQL compares text ignoring case ("Comparison Operators"), and
  groups it the same way: values that differ only in case are one group;
- :func:`shown_spelling` -- which of a group's spellings its row shows. The reference does not
  say; the emulator shows the least in code-point order (``ACME`` before ``Acme`` before
  ``acme``), so the answer never depends on the order the rows were written or read in;
- :func:`subtotal_order` -- "GROUP BY ROLLUP" and "GROUP BY CUBE" list each group's rows, then
  the subtotal that follows them, and the grand total last (the examples of
  sforce_api_calls_soql_select_groupby_rollup.htm and ..._groupby_cube.htm), unless the query
  orders the rows itself;
- :func:`group_order` -- a plain GROUP BY without ORDER BY. Salesforce promises no order
  without ORDER BY ("ORDER BY", sforce_api_calls_soql_select_orderby.htm), and DuckDB's hash
  aggregate gives a different one from run to run; a benchmark promises byte-identical answers,
  so the groups come in ORDER BY's order of their keys (picklists in their defined order,
  other values ascending ignoring case, nulls first);
- :func:`picklist_position` -- MIN() and MAX() on a picklist follow the picklist's defined
  order, not the alphabet ("Aggregate Functions", sforce_api_calls_soql_select_agg_functions.htm).
"""

from __future__ import annotations

from crmarena_sf.emulator.soql.functions.context import TEXT_TYPES, Typed, call
from crmarena_sf.metadata.model import Field
from sqlglot import exp


def ignoring_case(value: Typed) -> Typed:
    """Text compared, grouped and sorted ignoring case: ``col COLLATE NOCASE`` (other types unchanged)."""
    if value.type not in TEXT_TYPES or isinstance(value.sql, exp.Collate):
        return value
    return Typed(exp.Collate(this=value.sql, expression=exp.Var(this="NOCASE")), value.type, value.field)


def shown_spelling(value: Typed, subtotals: bool) -> exp.Expression:
    """The selected value of a group key: for text grouped ignoring case, its least spelling.

    ``min(col)`` compares code points, unlike the group's ``col COLLATE NOCASE``. With ROLLUP or
    CUBE (``subtotals``), a subtotal row keeps its null key: ``CASE WHEN GROUPING(key) = 0 ...``.
    """
    if not isinstance(value.sql, exp.Collate):
        return value.sql
    spelling = exp.Min(this=value.sql.this.copy())
    if not subtotals:
        return spelling
    grouped = exp.EQ(this=call("GROUPING", value.sql.copy()), expression=exp.Literal.number(0))
    return exp.Case(ifs=[exp.If(this=grouped, true=spelling)])


def subtotal_order(groups: list[Typed]) -> list[exp.Ordered]:
    """Each group's rows, then its subtotal, the grand total last: ``GROUPING(k1), k1, GROUPING(k2), k2 ...``.

    Within a level the groups follow ORDER BY's own rules: picklists in their defined order,
    other values ascending, nulls first.
    """
    out: list[exp.Ordered] = []
    for key, ordered in zip(groups, group_order(groups)):
        out.append(exp.Ordered(this=call("GROUPING", key.sql.copy()), desc=False, nulls_first=False))
        out.append(ordered)
    return out


def group_order(groups: list[Typed]) -> list[exp.Ordered]:
    """The groups in ORDER BY's order of their keys: picklists in their defined order, others ascending, nulls first."""
    out: list[exp.Ordered] = []
    for key in groups:
        position = picklist_position(key.sql, key.field)
        out.append(
            exp.Ordered(
                this=position if position is not None else key.sql.copy(), desc=False, nulls_first=True
            )
        )
    return out


def picklist_position(value: exp.Expression, f: Field | None) -> exp.Expression | None:
    """The position of a picklist value in its field's defined order (None for a field without values).

    A value the field does not list sorts after every listed one; a null stays null.
    """
    if f is None or f.type != "picklist" or not f.picklistValues:
        return None
    ifs = [exp.If(this=exp.Is(this=value.copy(), expression=exp.Null()), true=exp.Null())]
    ifs.extend(
        exp.If(
            this=exp.EQ(this=value.copy(), expression=exp.Literal.string(v.value)), true=exp.Literal.number(i)
        )
        for i, v in enumerate(f.picklistValues)
    )
    return exp.Case(ifs=ifs, default=exp.Literal.number(len(f.picklistValues)))


def in_picklist_order(kind: str, value: Typed) -> exp.Expression | None:
    """MIN or MAX of a picklist by its defined order: ``arg_min(value, position)`` (None if not a picklist)."""
    position = picklist_position(value.sql, value.field)
    if position is None:
        return None
    return call("arg_min" if kind == "MIN" else "arg_max", value.sql, position)
