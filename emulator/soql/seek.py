"""Fencing an indexed lookup into a scan of its own, so DuckDB answers it from the index.

DuckDB reads a table through an ART index only when the scan has exactly one filter, an
equality or an IN list of constants on the indexed column (``TableScanInitGlobal`` in
DuckDB's src/function/table/table_scan.cpp, https://github.com/duckdb/duckdb, falls back to
a sequential scan when ``filter_set.filters.size() != 1``). A SOQL query almost always has
more: the recycle bin rule alone adds one. So when a top-level AND condition of the WHERE
compares an indexed column (:mod:`crmarena_sf.emulator.store.indexes`) with constants, the FROM object
becomes ``(SELECT <the columns the statement reads> FROM <table> AS t0 WHERE <that condition>
OFFSET 0) AS t0``: ``OFFSET 0`` keeps DuckDB from merging the outer filters into that scan,
and the outer WHERE stays whole.
Only indexed columns are fenced: on a small table the fence costs more than the scan it
replaces.

A list of Ids known only when the plan runs (the parents of a child subquery's batch, the
records a search matched) is written into the statement as constants for the same reason:
the plan's SQL holds :data:`ID_LIST` where :func:`bind_id_list` puts them.
"""

from __future__ import annotations

from collections.abc import Iterable

from crmarena_sf.emulator.soql.nodes import conjuncts
from sqlglot import exp

ID_LIST_FUNCTION = "__SF_ID_LIST__"
ID_LIST = f"{ID_LIST_FUNCTION}()"
"""What a plan's SQL holds where the Id list given at run time goes (an IN list's contents)."""


def seek_condition(
    where: exp.Expression | None, alias: str, table: str, indexed: frozenset[tuple[str, str]]
) -> exp.Expression | None:
    """The first top-level condition of ``where`` an index on ``table`` answers: ``col = 'x'`` or
    ``col IN ('x', ...)``, ``col`` being an indexed column or ``LOWER(col)`` with an index on it."""
    if not indexed:
        return None
    for condition in conjuncts(where):
        if _is_seek(condition, alias, table, indexed):
            return condition
    return None


def _is_seek(condition: exp.Expression, alias: str, table: str, indexed: frozenset[tuple[str, str]]) -> bool:
    if isinstance(condition, exp.EQ):
        column, value = condition.this, condition.expression
        if isinstance(column, exp.Literal):
            column, value = value, column
        values: Iterable[exp.Expression] = [value]
    elif isinstance(condition, exp.In) and not condition.args.get("query"):
        column, values = condition.this, condition.expressions
        if (
            len(values) == 1
            and isinstance(values[0], exp.Anonymous)
            and values[0].name.upper() == ID_LIST_FUNCTION
        ):
            values = []
    else:
        return False
    key = None
    if isinstance(column, exp.Lower) and isinstance(column.this, exp.Column):
        column, key = column.this, f"lower({column.this.name})"
    return (
        isinstance(column, exp.Column)
        and column.table == alias
        and (table, key or column.name) in indexed
        and all(isinstance(v, exp.Literal) and v.is_string for v in values)
    )


FENCE = "sf_fence"
"""``meta`` key marking a fence's inner SELECT (its value: the alias it stands for)."""


def fenced(table: exp.Table, alias: str, condition: exp.Expression) -> exp.Subquery:
    """``(SELECT <columns> FROM table AS alias WHERE condition OFFSET 0) AS alias``.

    The columns are filled in by :func:`narrow_fences` once the whole statement is built
    (``SELECT *`` would make DuckDB bind every column of the table: twice the cost of the lookup).
    """
    inner = (
        exp.Select(expressions=[exp.Star()])
        .from_(table, copy=False)
        .where(condition.copy(), copy=False)
        .offset(0, copy=False)
    )
    inner.meta[FENCE] = alias
    return exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier(alias, quoted=True)))


def narrow_fences(select: exp.Expression) -> None:
    """Give each fence in ``select`` the columns the statement reads of its alias (in place, once:
    a fence narrowed already keeps its columns)."""
    fences = [
        node
        for node in select.find_all(exp.Select)
        if FENCE in node.meta and len(node.expressions) == 1 and isinstance(node.expressions[0], exp.Star)
    ]
    if not fences:
        return
    used: dict[str, set[str]] = {}
    for col in select.find_all(exp.Column):
        used.setdefault(col.table, set()).add(col.name)
    for fence in fences:
        names = sorted(used.get(fence.meta[FENCE], ()))
        columns = [exp.column(exp.to_identifier(name, quoted=True)) for name in names]
        fence.set("expressions", columns or [exp.Star()])


def id_list_condition(column: exp.Expression) -> exp.In:
    """``column IN (<the Ids given at run time>)``."""
    return exp.In(this=column.copy(), expressions=[exp.Anonymous(this=ID_LIST_FUNCTION)])


def bind_id_list(sql: str, record_ids: Iterable[str]) -> str:
    """``sql`` with its Id list written in as string constants (none: an IN list matching nothing)."""
    values = ", ".join("'" + str(i).replace("'", "''") + "'" for i in record_ids)
    return sql.replace(ID_LIST, values or "NULL")


def id_list_placeholders(sql: str, count: int) -> str | None:
    """``sql`` with ``count`` parameter markers where its Id list goes; None when the list is not
    there exactly once.

    DuckDB binds a parsed statement's parameters before it plans it, so an IN list of markers
    is an IN list of constants to the planner (the Id index answers it) while the statement is
    parsed once per list length instead of once per list (a few tenths of a millisecond on an
    org's large tables).
    """
    at = sql.find(ID_LIST)
    if at < 0 or sql.find(ID_LIST, at + 1) >= 0 or count < 1:
        return None
    return sql[:at] + ", ".join("?" * count) + sql[at + len(ID_LIST) :]
