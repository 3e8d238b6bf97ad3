"""sqlglot expression types for what SOQL has and SQL lacks.

The parser builds ordinary sqlglot trees (``exp.Select``, ``exp.EQ``, ``exp.In``,
``exp.Count`` ...) and uses these nodes only where SOQL differs: dotted field paths,
TYPEOF, FIELDS(), unquoted date/dateTime literals, relative date literals
(``LAST_N_DAYS:7``), currency literals (``USD5000``), INCLUDES/EXCLUDES. Every node keeps
the offset of its first character in ``meta["offset"]`` for Salesforce's caret errors. The
WITH and SET OPTIONS clauses are kept as :class:`WithClause` values in the query's ``meta``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp


class FieldPath(exp.Expression):
    """A field reference, possibly through parent relationships: ``Account.Owner.Name``."""

    arg_types = {"expressions": True}

    @property
    def parts(self) -> list[str]:
        return [p.name for p in self.expressions]

    @property
    def text(self) -> str:
        return ".".join(self.parts)


class TypeOf(exp.Expression):
    """``TYPEOF What WHEN Account THEN Name, Phone ... ELSE Name END``."""

    arg_types = {"this": True, "expressions": True, "default": False}


class TypeOfWhen(exp.Expression):
    """One ``WHEN <type> THEN <fields>`` branch of TYPEOF."""

    arg_types = {"this": True, "expressions": True}


class FieldsMacro(exp.Expression):
    """``FIELDS(ALL)``, ``FIELDS(STANDARD)`` or ``FIELDS(CUSTOM)``."""

    arg_types = {"this": True}


class DateValue(exp.Expression):
    """An unquoted date literal ``2024-01-01``."""

    arg_types = {"this": True}


class DateTimeValue(exp.Expression):
    """An unquoted dateTime literal ``2024-01-01T10:00:00Z`` (or ``±hh:mm``)."""

    arg_types = {"this": True}


class RelativeDate(exp.Expression):
    """A date literal naming a range relative to today: ``TODAY``, ``LAST_N_DAYS:7`` ..."""

    arg_types = {"this": True, "expression": False}


class CurrencyValue(exp.Expression):
    """A currency literal with its ISO code: ``USD5000``."""

    arg_types = {"this": True, "expression": True}


class Includes(exp.Expression):
    """``multiPicklist INCLUDES ('a;b', 'c')``: any listed value (``;`` means all of those) is selected."""

    arg_types = {"this": True, "expressions": True}


class Excludes(exp.Expression):
    """``multiPicklist EXCLUDES ('a', 'b;c')``: the negation of INCLUDES."""

    arg_types = {"this": True, "expressions": True}


# ---------------------------------------------------------------------------- clauses kept in meta
ACCESS_MODES = ("SECURITY_ENFORCED", "USER_MODE", "SYSTEM_MODE")
SELECTORS = ("ABOVE_OR_BELOW", "ABOVE", "BELOW", "AT")


@dataclass(frozen=True)
class DataCategorySelection:
    """``Topics__c BELOW (Returns__c, Shipping__c)``: a group, a selector and the categories it names."""

    group: str
    selector: str
    categories: tuple[str, ...]
    offset: int
    category_offsets: tuple[int, ...]


@dataclass(frozen=True)
class WithClause:
    """One WITH clause: its kind (an access mode, ``DATA CATEGORY``, ``UserId``, ``RecordVisibilityContext``)."""

    kind: str
    offset: int
    selections: tuple[DataCategorySelection, ...] = ()
    options: tuple[tuple[str, object], ...] = ()
    """``UserId``'s value, or RecordVisibilityContext's and SET OPTIONS' ``name = value`` pairs."""


def at(node: exp.Expression, offset: int) -> exp.Expression:
    """``node`` with ``offset`` recorded for error messages."""
    node.meta["offset"] = offset
    return node


def offset_of(node: exp.Expression | None) -> int | None:
    """The query offset recorded for ``node`` (or its first descendant that has one)."""
    if node is None:
        return None
    for child in node.walk():
        offset = child.meta.get("offset") if child._meta else None
        if offset is not None:
            return offset
    return None


def conjuncts(condition: exp.Expression | None) -> list[exp.Expression]:
    """The top-level AND operands of ``condition`` (parentheses removed)."""
    if condition is None:
        return []
    while isinstance(condition, exp.Paren):
        condition = condition.this
    if isinstance(condition, exp.And):
        return conjuncts(condition.left) + conjuncts(condition.right)
    return [condition]
