"""WHERE and HAVING conditions as DuckDB predicates, with Salesforce's semantics.

A plain SQL translation gets several things wrong; each rewrite below reproduces one
documented SOQL behaviour (SOQL and SOSL Reference, "Comparison Operators", "Date
Formats and Date Literals in WHERE"; https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/):

- :func:`two_valued_not` -- SOQL logic has no UNKNOWN: ``NOT (f < 5)`` is true when f is null;
- :func:`not_equal` -- ``f != 'x'`` matches rows where f is null;
- :func:`null_test` -- ``= null`` / ``!= null`` test for null, ``<``/``>`` against null are false;
- :func:`case_insensitive` -- string ``=``, ``!=``, ``IN``, ``<``... ignore case;
- :func:`like` -- LIKE ignores case, ``\\%`` and ``\\_`` escape the wildcards;
- :func:`date_range` -- a date literal is a range: ``=`` inside, ``>`` after, ``<`` before;
- :func:`includes` -- INCLUDES/EXCLUDES over ``;``-separated multi-select picklist values;
- :func:`typed_literal` -- values must match the field's type (Ids valid, dates unquoted ...).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.soql import nodes
from crmarena_sf.emulator.soql.dates import local_midnight_utc, relative_range
from crmarena_sf.emulator.soql.dialect import SOQL
from crmarena_sf.emulator.soql.errors import filter_operator, invalid_field, malformed
from crmarena_sf.emulator.soql.functions import TEXT_TYPES, CompileContext, Typed
from crmarena_sf.emulator.soql.limits import too_precise
from crmarena_sf.emulator.soql.nodes import offset_of
from crmarena_sf.emulator.store.ddl import fits_column
from crmarena_sf.emulator.wire import parse_datetime
from sqlglot import exp

if TYPE_CHECKING:
    from crmarena_sf.metadata.model import Field

NUMBER_TYPES = frozenset({"int", "long", "double", "currency", "percent"})
_TYPE_NAMES = {"datetime": "dateTime", "currency": "double", "percent": "double"}
_COMPARISONS = (exp.EQ, exp.NEQ, exp.LT, exp.LTE, exp.GT, exp.GTE)

Range = tuple[exp.Expression, exp.Expression]
"""``[start, end)`` of a date literal, as SQL literals of the compared value's type."""


def translate_condition(
    node: exp.Expression,
    ctx: CompileContext,
    operand: Callable[[exp.Expression], Typed],
    semi_join: Callable[[exp.In], exp.Expression],
) -> exp.Expression:
    """The DuckDB predicate of a SOQL condition tree (``operand`` translates fields and functions)."""

    def walk(n: exp.Expression) -> exp.Expression:
        if isinstance(n, exp.And):
            return exp.And(this=walk(n.this), expression=walk(n.expression))
        if isinstance(n, exp.Or):
            return exp.Or(this=walk(n.this), expression=walk(n.expression))
        if isinstance(n, exp.Paren):
            return exp.Paren(this=walk(n.this))
        if isinstance(n, exp.Not):
            return two_valued_not(walk(n.this))
        left = operand(n.this)
        if isinstance(n, exp.In):
            if n.args.get("query") is not None:
                return exp.In(this=left.sql, query=semi_join(n))
            return in_list(left, n.expressions, ctx)
        if isinstance(n, (nodes.Includes, nodes.Excludes)):
            if left.type != "multipicklist":
                raise filter_operator(
                    "includes or excludes operator only valid on multipicklist field", n.meta.get("offset")
                )
            matched = includes(left, [_string_value(left, v) for v in n.expressions])
            return two_valued_not(matched) if isinstance(n, nodes.Excludes) else matched
        if isinstance(n, exp.Like):
            return like(left, n.expression, n.meta.get("offset"))
        return comparison(type(n), left, n.expression, ctx)

    return walk(node)


# ---------------------------------------------------------------------------- the rewrites
def two_valued_not(predicate: exp.Expression) -> exp.Expression:
    """``NOT p`` where an unknown p counts as false: SOQL's logic is two-valued, so NOT (null < 5) is true."""
    return exp.Not(this=exp.Coalesce(this=exp.Paren(this=predicate), expressions=[exp.false()]))


def not_equal(left: exp.Expression, right: exp.Expression) -> exp.Expression:
    """``f != v`` also matches rows where f is null (IS DISTINCT FROM)."""
    return exp.NullSafeNEQ(this=left, expression=right)


def null_test(op: type, left: exp.Expression) -> exp.Expression:
    """``= null`` is IS NULL, ``!= null`` IS NOT NULL; ordering against null matches nothing."""
    if op is exp.EQ:
        return exp.Is(this=left, expression=exp.Null())
    if op is exp.NEQ:
        return exp.Not(this=exp.Is(this=left, expression=exp.Null()))
    return exp.false()


def case_insensitive(left: Typed) -> exp.Expression:
    """Text is compared ignoring case: lower() on the column; literals are lowered when compiled."""
    if left.type in TEXT_TYPES:
        return exp.Lower(this=left.sql)
    return left.sql


def like(left: Typed, pattern: exp.Expression, offset: int | None) -> exp.Expression:
    """LIKE ignores case; ``%`` and ``_`` are wildcards unless escaped with a backslash."""
    if left.type in ("id", "reference"):
        raise filter_operator("invalid operator on id field", offset)
    if isinstance(pattern, exp.Null):
        raise malformed("unexpected token: 'null'", offset_of(pattern))
    if not (isinstance(pattern, exp.Literal) and pattern.is_string):
        raise malformed(f"unexpected token: '{pattern.sql(dialect=SOQL)}'", offset_of(pattern))
    if left.type not in TEXT_TYPES:
        # Only text is LIKE'd; a quoted value for another type is refused as a comparison refuses it.
        raise _type_mismatch(left, left.type, offset_of(pattern))
    text = _string_value(left, pattern)
    return exp.Escape(
        this=exp.ILike(this=left.sql, expression=exp.Literal.string(text)),
        expression=exp.Literal.string("\\"),
    )


def date_range(op: type, left: exp.Expression, start: exp.Expression, end: exp.Expression) -> exp.Expression:
    """A date literal is the range [start, end): ``=`` inside, ``>`` after the end, ``<`` before the start."""
    inside = exp.And(this=exp.GTE(this=left, expression=start), expression=exp.LT(this=left, expression=end))
    if op is exp.EQ:
        return exp.Paren(this=inside)
    if op is exp.NEQ:
        return two_valued_not(inside)
    if op is exp.LT:
        return exp.LT(this=left, expression=start)
    if op is exp.LTE:
        return exp.LT(this=left, expression=end)
    if op is exp.GT:
        return exp.GTE(this=left, expression=end)
    return exp.GTE(this=left, expression=start)


def includes(left: Typed, values: list[str]) -> exp.Expression:
    """INCLUDES ('a;b', 'c'): the record's selections contain a and b, or contain c (ignoring case)."""
    selections = exp.Anonymous(
        this="string_split", expressions=[exp.Lower(this=left.sql), exp.Literal.string(";")]
    )
    alternatives = []
    for value in values:
        wanted = [v.strip().lower() for v in value.split(";") if v.strip()]
        terms = [
            exp.Anonymous(this="list_contains", expressions=[selections.copy(), exp.Literal.string(w)])
            for w in wanted
        ]
        if terms:
            alternatives.append(exp.and_(*terms) if len(terms) > 1 else terms[0])
    if not alternatives:
        return exp.false()
    return exp.Paren(this=exp.or_(*alternatives)) if len(alternatives) > 1 else alternatives[0]


# ---------------------------------------------------------------------------- comparisons
def comparison(op: type, left: Typed, value: exp.Expression, ctx: CompileContext) -> exp.Expression:
    """``left <op> value`` for one literal value, after checking the value fits the field."""
    if isinstance(value, exp.Null):
        return null_test(op, left.sql)
    typed = typed_literal(left, value, ctx)
    if isinstance(typed, tuple):
        return date_range(op, left.sql, *typed)
    column = case_insensitive(left)
    if op is exp.NEQ:
        return not_equal(column, typed)
    return op(this=column, expression=typed)


def in_list(left: Typed, values: list[exp.Expression], ctx: CompileContext) -> exp.Expression:
    """``f IN (a, b, null)``: any listed value; a null in the list matches null fields."""
    scalars: list[exp.Expression] = []
    extra: list[exp.Expression] = []
    for value in values:
        if isinstance(value, exp.Null):
            extra.append(exp.Is(this=left.sql, expression=exp.Null()))
            continue
        typed = typed_literal(left, value, ctx)
        if isinstance(typed, tuple):
            extra.append(date_range(exp.EQ, left.sql, *typed))
        else:
            scalars.append(typed)
    terms: list[exp.Expression] = []
    if scalars:
        terms.append(exp.In(this=case_insensitive(left), expressions=_unique(scalars)))
    terms.extend(extra)
    if len(terms) == 1:
        return terms[0]
    return exp.Paren(this=exp.or_(*terms))


def _unique(values: list[exp.Expression]) -> list[exp.Expression]:
    seen: dict[str, exp.Expression] = {}
    for v in values:
        seen.setdefault(v.sql(copy=False), v)
    return list(seen.values())


def typed_literal(left: Typed, value: exp.Expression, ctx: CompileContext) -> exp.Expression | Range:
    """The SQL literal for ``value`` compared with ``left``; refuses values of the wrong type like SOQL."""
    kind = left.type
    offset = offset_of(value)
    if kind in ("id", "reference"):
        if not isinstance(value, exp.Literal) or not value.is_string:
            raise _type_mismatch(left, "id", offset, quoted=True)
        normalized = ids.normalize(value.this)
        if normalized is None:
            raise filter_operator(f"invalid ID field: {value.this}", offset)
        return exp.Literal.string(normalized)
    if kind in TEXT_TYPES:
        return exp.Literal.string(_string_value(left, value).lower())
    if kind in NUMBER_TYPES:
        if isinstance(value, nodes.CurrencyValue):
            return number_literal(value.expression, left.field)
        if isinstance(value, exp.Literal) and not value.is_string:
            return number_literal(value, left.field)
        raise _type_mismatch(left, kind, offset)
    if kind == "boolean":
        if isinstance(value, exp.Boolean):
            return value.copy()
        raise _type_mismatch(left, kind, offset)
    if kind in ("date", "datetime"):
        return _date_value(left, value, ctx, offset)
    if kind == "time":
        return exp.Literal.string(_string_value(left, value))
    raise _type_mismatch(left, kind, offset)


def number_literal(value: exp.Literal, field: Field | None = None) -> exp.Expression:
    """A number as DuckDB compares it with a number field: exactly, or as a double past DECIMAL(18)'s
    digits or past the integer digits ``field``'s column leaves beside the decimals it keeps."""
    if too_precise(value.this) or (field is not None and not fits_column(field, value.this)):
        return exp.Cast(this=exp.Literal.string(value.this), to=exp.DataType.build(exp.DataType.Type.DOUBLE))
    return value.copy()


def _string_value(left: Typed, value: exp.Expression) -> str:
    if isinstance(value, exp.Literal) and value.is_string:
        return value.this
    raise _type_mismatch(left, "string", offset_of(value), quoted=True)


def _date_value(left: Typed, value: exp.Expression, ctx: CompileContext, offset: int | None):
    is_datetime = left.type == "datetime"
    if isinstance(value, nodes.RelativeDate):
        n = int(value.expression.name) if value.expression is not None else None
        start, end = relative_range(value.name, n, ctx.today, ctx.fiscal_start)
        if is_datetime:
            return _timestamp(local_midnight_utc(start, ctx.timezone)), _timestamp(
                local_midnight_utc(end, ctx.timezone)
            )
        return _date(start), _date(end)
    if is_datetime and isinstance(value, nodes.DateTimeValue):
        parsed = parse_datetime(value.name.replace("t", "T").replace("z", "Z"))
        if parsed is None:
            raise malformed(f"Invalid datetime: {value.name}", offset)
        return _timestamp(parsed)
    if not is_datetime and isinstance(value, nodes.DateValue):
        return _date(dt.date.fromisoformat(value.name))
    raise _type_mismatch(left, left.type, offset)


def _timestamp(value: dt.datetime) -> exp.Expression:
    return exp.Cast(
        this=exp.Literal.string(value.isoformat(sep=" ")), to=exp.DataType.build(exp.DataType.Type.TIMESTAMP)
    )


def _date(value: dt.date) -> exp.Expression:
    return exp.Cast(this=exp.Literal.string(value.isoformat()), to=exp.DataType.build(exp.DataType.Type.DATE))


def _type_mismatch(left: Typed, kind: str, offset: int | None, quoted: bool = False):
    name = left.field.name if left.field is not None else "expression"
    type_name = _TYPE_NAMES.get(kind, kind)
    if kind in TEXT_TYPES or kind == "string":
        return invalid_field(
            f"value of filter criterion for field '{name}' must be of type string and should be enclosed in quotes",
            offset,
        )
    if kind == "id":
        return invalid_field(
            f"value of filter criterion for field '{name}' must be of type id and should be enclosed in quotes",
            offset,
        )
    return invalid_field(
        f"value of filter criterion for field '{name}' must be of type {type_name} and should not be enclosed "
        "in quotes",
        offset,
    )
