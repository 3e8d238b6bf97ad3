"""SOQL functions: a registry of entries the parser, binder and translator all read.

:mod:`.registry` defines an entry (:class:`~.registry.SoqlFunction`); each family registers
its entries on import: :mod:`.aggregates` (COUNT ... GROUPING), :mod:`.date_functions`
(CALENDAR_YEAR ... and convertTimezone), :mod:`.display` (toLabel, FORMAT,
convertCurrency), :mod:`.location` (DISTANCE, GEOLOCATION), :mod:`.formula` (FORMULA,
refused as this org lacks the beta).
:func:`translate_function` turns any parsed call into DuckDB.
"""

from __future__ import annotations

from collections.abc import Callable

from crmarena_sf.emulator.soql.errors import malformed
from crmarena_sf.emulator.soql.functions import (  # noqa: F401 -- each registers its family
    aggregates,
    date_functions,
    display,
    formula,
    location,
)
from crmarena_sf.emulator.soql.functions.context import NUMBER_TYPES, TEXT_TYPES, CompileContext, Typed
from crmarena_sf.emulator.soql.functions.display import picklist_label
from crmarena_sf.emulator.soql.functions.registry import FunctionCall, SoqlFunction, function_of, lookup
from crmarena_sf.emulator.soql.nodes import FieldPath, offset_of
from sqlglot import exp

__all__ = [
    "NUMBER_TYPES",
    "TEXT_TYPES",
    "CompileContext",
    "SoqlFunction",
    "Typed",
    "function_of",
    "lookup",
    "picklist_label",
    "translate_function",
]


def translate_function(
    node: exp.Expression, ctx: CompileContext, field_sql: Callable[[FieldPath], Typed]
) -> Typed:
    """The DuckDB expression of a field path or a SOQL function call (its registry entry translates it)."""
    if isinstance(node, FieldPath):
        return field_sql(node)
    spec = function_of(node)
    if spec is None:
        raise malformed("unexpected token: '('", offset_of(node))
    return spec.translate(
        FunctionCall(node, ctx, lambda argument: translate_function(argument, ctx, field_sql))
    )
