"""A bound query: what binding found out about a SOQL query, and what translation reads.

The result items say which keys the answer has and where their values come from (a field
of the record or of a parent, an aggregate column, a child subquery, a TYPEOF);
:class:`BoundQuery` holds them with the query's clauses, the join tree of its field paths
and the object it reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crmarena_sf.emulator.soql.resolve import JoinNode, JoinTree, ResolvedField
from crmarena_sf.metadata.model import ChildRelationship, Field, SObject
from sqlglot import exp


@dataclass
class FieldItem:
    """A field of the record (or of a parent record: ``names`` is the relationship path)."""

    resolved: ResolvedField
    key: str
    names: tuple[str, ...]
    call: exp.Anonymous | None = None
    """The function wrapping the field (``toLabel(Status)``), if any."""


@dataclass
class ExprItem:
    """A column of an aggregate result: an aggregate, a date function or a grouped field."""

    node: exp.Expression
    key: str
    field: Field | None


@dataclass
class ChildItem:
    """A child relationship subquery: ``(SELECT LastName FROM Contacts ...)``."""

    key: str
    relationship: ChildRelationship
    query: BoundQuery


@dataclass
class TypeOfItem:
    """``TYPEOF What WHEN Account THEN ... ELSE ... END``: fields chosen by the parent's type."""

    key: str
    node: JoinNode
    branches: dict[str, list[Field]]
    default: list[Field]


Item = FieldItem | ExprItem | ChildItem | TypeOfItem


@dataclass
class BoundQuery:
    """A SOQL query checked against the schema, ready to translate."""

    tree: exp.Select
    obj: SObject
    joins: JoinTree
    items: list[Item] = field(default_factory=list)
    aggregate: bool = False
    count_only: bool = False
    where: exp.Expression | None = None
    group: list[exp.Expression] = field(default_factory=list)
    group_kind: str | None = None
    having: exp.Expression | None = None
    order: list[exp.Ordered] = field(default_factory=list)
    limit: int | None = None
    offset: int | None = None
    scope: str | None = None
    relationship: ChildRelationship | None = None
    categories: list = field(default_factory=list)
    """WITH DATA CATEGORY's filters (:class:`crmarena_sf.emulator.soql.category_filters.CategoryFilter`)."""
