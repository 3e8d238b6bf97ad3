"""FORMULA(): arithmetic on two fields in a WHERE clause (beta), parsed and refused as the org lacks it.

SOQL and SOSL Reference, "FORMULA() (Beta)"
(https://developer.salesforce.com/docs/platform/salesforce-soql-sosl/guide/sforce-api-calls-soql-select-formula.html):
``WHERE FORMULA('fieldName op fieldName') comparisonOperator literalValue``, ``op`` being ``+``
or ``-``, fields of dotted paths; "not supported in the SELECT clause". The formula text is
checked for that shape (anything else is a syntax error at the string), then the query is
answered as an org without the beta answers (:mod:`crmarena_sf.emulator.soql.features`).
"""

from __future__ import annotations

from crmarena_sf.emulator.soql.errors import malformed
from crmarena_sf.emulator.soql.features import not_enabled
from crmarena_sf.emulator.soql.functions.context import Typed
from crmarena_sf.emulator.soql.functions.registry import STRING, WHERE, FunctionCall, SoqlFunction, register
from crmarena_sf.emulator.soql.nodes import offset_of
from sqlglot import exp

_IDENTIFIER_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_IDENTIFIER = _IDENTIFIER_START | frozenset("0123456789_")


def formula_operands(text: str) -> tuple[str, str, str] | None:
    """``('Amount', '-', 'ExpectedRevenue')`` for ``'Amount - ExpectedRevenue'``; None for any other shape."""
    for op in "+-":
        left, sep, right = text.partition(op)
        if sep and _is_path(left.strip()) and _is_path(right.strip()):
            return left.strip(), op, right.strip()
    return None


def _is_path(text: str) -> bool:
    parts = text.split(".")
    return all(p and p[0] in _IDENTIFIER_START and set(p) <= _IDENTIFIER for p in parts)


def _check(node: exp.Anonymous, fields: list, is_grouped) -> None:
    argument = node.expressions[0]
    if formula_operands(argument.this) is None:
        raise malformed(f"unexpected token: '{argument.this}'", offset_of(argument))
    raise not_enabled("FORMULA", offset_of(node))


def _translate(call: FunctionCall) -> Typed:  # pragma: no cover - binding refuses every FORMULA() first
    raise not_enabled("FORMULA", offset_of(call.node))


register(
    SoqlFunction(
        "FORMULA",
        (STRING,),
        _translate,
        clauses=frozenset({WHERE}),
        check=_check,
        doc="sforce-api-calls-soql-select-formula",
    )
)
