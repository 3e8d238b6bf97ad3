"""What translating a SOQL expression works with: the org's context and typed DuckDB expressions."""

from __future__ import annotations

from dataclasses import dataclass

from crmarena_sf.metadata.model import Field
from sqlglot import exp

TEXT_TYPES = frozenset(
    "string textarea picklist multipicklist combobox email phone url encryptedstring datacategorygroupreference".split()
)
"""Describe types holding text: compared ignoring case, sorted ignoring case."""
NUMBER_TYPES = frozenset({"int", "long", "double", "currency", "percent"})
"""Describe types holding numbers."""


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


def call(name: str, *args: exp.Expression) -> exp.Expression:
    """A DuckDB function call ``name(args...)``."""
    return exp.Anonymous(this=name, expressions=list(args))


def integer(value: int) -> exp.Literal:
    return exp.Literal.number(value)
