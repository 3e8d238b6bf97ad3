"""The registry of SOQL functions: one entry per function, read by the parser, binder and translator.

Adding a function to SOQL is one :class:`SoqlFunction` registered here (the modules of this
package each register a family). The entry says everything the engine needs:

- the parser reads its :attr:`~SoqlFunction.arguments` (how many, and what each one is: a
  field, an operand that may be another call, a number, a string) and builds one node,
  ``exp.Anonymous(this=<NAME>)``, whatever the function;
- the binder reads where it may appear (:attr:`~SoqlFunction.clauses`), whether it
  aggregates, whether it keeps the field's key in a record (``toLabel(Status)`` answers
  ``Status``) or is a value of its own there (``DISTANCE(...)`` answers ``expr0``) and its
  own argument check (:attr:`~SoqlFunction.check`);
- the translator calls :attr:`~SoqlFunction.translate` for the DuckDB expression, and
  :attr:`~SoqlFunction.convert` for a value built in Python when shaping a record.

A name SOQL does not know is a syntax error at its parenthesis, as on a real org.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from crmarena_sf.emulator.soql.functions.context import CompileContext, Typed
from sqlglot import exp

FIELD = "field"
"""An argument that must be a field path (``GROUPING(Industry)``, ``toLabel(Status)``)."""
OPERAND = "operand"
"""A field path or another function call (``CALENDAR_YEAR(convertTimezone(CreatedDate))``)."""
NUMBER = "number"
"""A numeric literal, with its sign (``GEOLOCATION(37.775, -122.418)``)."""
STRING = "string"
"""A quoted string literal (``DISTANCE(..., 'mi')``, ``FORMULA('Amount - Cost')``)."""

SELECT, WHERE, HAVING, GROUP_BY, ORDER_BY, ARGUMENT = (
    "select",
    "where",
    "having",
    "group by",
    "order by",
    "argument",
)
EVERY_CLAUSE = frozenset({SELECT, WHERE, HAVING, GROUP_BY, ORDER_BY, ARGUMENT})


@dataclass(frozen=True)
class FunctionCall:
    """One call being translated: its node, the org's context and how to translate an argument."""

    node: exp.Anonymous
    ctx: CompileContext
    operand: Callable[[exp.Expression], Typed]

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def arguments(self) -> list[exp.Expression]:
        return list(self.node.expressions)

    def arg(self, index: int = 0) -> Typed:
        """The translated argument ``index`` (a field, or a nested call)."""
        return self.operand(self.node.expressions[index])


@dataclass(frozen=True)
class SoqlFunction:
    """Everything the engine knows about one SOQL function."""

    name: str
    """Upper-case name; SOQL matches function names ignoring case."""
    arguments: tuple[str, ...]
    """What the parser reads for each argument (:data:`FIELD`, :data:`OPERAND`, :data:`NUMBER`, :data:`STRING`)."""
    translate: Callable[[FunctionCall], Typed]
    min_arguments: int | None = None
    """Fewer arguments allowed (``COUNT()``); None means all of :attr:`arguments` are required."""
    aggregate: bool = False
    """Aggregates rows: the query becomes an aggregate query (COUNT, SUM ..., and GROUPING, which reads the grouping)."""
    keeps_field_key: bool = False
    """In a record, ``f(Field)`` is keyed by the field's name (toLabel, FORMAT, convertCurrency)."""
    record_value: bool = False
    """Selected in a records (not aggregate) query, ``f(...)`` is a value of its own, keyed by its
    alias or ``expr0``, ``expr1`` ... as unaliased aggregates are (DISTANCE)."""
    clauses: frozenset[str] = EVERY_CLAUSE
    """Where the function may be written."""
    operators: frozenset[type] | None = None
    """The comparison operators a WHERE clause may apply to the function's value (None: every one)."""
    compound_arguments: bool = False
    """Takes compound fields (a location or an address) as arguments: DISTANCE."""
    check: Callable[[exp.Anonymous, list, Callable[[exp.Expression], bool]], None] | None = None
    """Binding check of a call: ``check(node, fields, is_grouped)`` with the field each argument
    reaches (None for literals) and whether an expression is in the query's GROUP BY; raises SoqlError."""
    convert: Callable[[Typed, CompileContext], Callable] | None = None
    """For a value shaped in Python (FORMAT): the function turning the column into the JSON value."""
    doc: str = field(default="", compare=False)
    """Where Salesforce documents the function."""


_REGISTRY: dict[str, SoqlFunction] = {}


def register(*functions: SoqlFunction) -> None:
    """Add functions to the registry (each module of this package registers its family on import)."""
    for function in functions:
        _REGISTRY[function.name] = function


def lookup(name: str) -> SoqlFunction | None:
    """The function called ``name`` (any case), or None when SOQL has no such function."""
    return _REGISTRY.get(name.upper())


def function_of(node: exp.Expression) -> SoqlFunction | None:
    """The registry entry of a parsed call (None for anything else)."""
    if isinstance(node, exp.Anonymous):
        return _REGISTRY.get(node.name)
    return None


def names() -> frozenset[str]:
    """Every function name SOQL knows."""
    return frozenset(_REGISTRY)
