"""The SOQL dialect for sqlglot: its tokenizer settings and a generator that writes SOQL back.

Like sqlglot's own dialects, a small class: the tokenizer knows SOQL's single quote with
backslash escapes, has no comments, no quoted identifiers and no keywords (SOQL's
keywords are valid field names: ``Order``, ``Type``), only the two-character operators.
The generator renders the SOQL-only nodes of :mod:`crmarena_sf.emulator.soql.nodes`, so a parsed tree
prints back as SOQL (``tree.sql(dialect=SOQL)``), which tests and error reports use.
"""

from __future__ import annotations

from crmarena_sf.emulator.soql import nodes
from sqlglot import exp, generator, tokens
from sqlglot.dialects.dialect import Dialect
from sqlglot.tokens import TokenType


def _typeof_sql(self: generator.Generator, node: nodes.TypeOf) -> str:
    branches = " ".join(
        f"WHEN {self.sql(b, 'this')} THEN {self.expressions(b, flat=True)}" for b in node.expressions
    )
    default = node.args.get("default")
    tail = f" ELSE {', '.join(self.sql(d) for d in default)}" if default else ""
    return f"TYPEOF {self.sql(node, 'this')} {branches}{tail} END"


class SOQL(Dialect):
    """sqlglot dialect of Salesforce's SOQL (parsing itself is :mod:`crmarena_sf.emulator.soql.parser`)."""

    class Tokenizer(tokens.Tokenizer):
        QUOTES = ["'"]
        STRING_ESCAPES = ["\\"]
        IDENTIFIERS = ["`"]  # SOQL has none; sqlglot needs one, and the lexer refuses a backquote
        COMMENTS: list = []
        KEYWORDS = {
            "<=": TokenType.LTE,
            ">=": TokenType.GTE,
            "!=": TokenType.NEQ,
            "<>": TokenType.NEQ,
        }

    class Generator(generator.Generator):
        TRANSFORMS = {
            **generator.Generator.TRANSFORMS,
            nodes.FieldPath: lambda self, e: ".".join(e.parts),
            nodes.FieldsMacro: lambda self, e: f"FIELDS({e.name})",
            nodes.DateValue: lambda self, e: e.name,
            nodes.DateTimeValue: lambda self, e: e.name,
            nodes.RelativeDate: lambda self, e: (
                e.name + (f":{self.sql(e, 'expression')}" if e.args.get("expression") else "")
            ),
            nodes.CurrencyValue: lambda self, e: f"{e.name}{self.sql(e, 'expression')}",
            nodes.Includes: lambda self, e: (
                f"{self.sql(e, 'this')} INCLUDES ({self.expressions(e, flat=True)})"
            ),
            nodes.Excludes: lambda self, e: (
                f"{self.sql(e, 'this')} EXCLUDES ({self.expressions(e, flat=True)})"
            ),
            nodes.TypeOf: _typeof_sql,
            exp.Alias: lambda self, e: f"{self.sql(e, 'this')} {self.sql(e, 'alias')}",
        }
