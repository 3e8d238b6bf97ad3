"""SOQL conditions, operands and values: the WHERE/HAVING part of the parser.

Conditions are chains of one logical operator (SOQL refuses ``a AND b OR c`` without
parentheses: "unexpected token: 'OR'", Summer '24 release notes); operands are field
paths or calls of the functions SOQL knows; values are literals, including unquoted
date and dateTime literals, relative date literals (``LAST_N_DAYS:7``) and currency
literals (``USD5000``). Every production returns sqlglot expressions.
"""

from __future__ import annotations

from crmarena_sf.emulator.soql import nodes
from crmarena_sf.emulator.soql.cursor import TokenCursor
from crmarena_sf.emulator.soql.dates import RELATIVE_DATES, RELATIVE_DATES_WITH_N
from crmarena_sf.emulator.soql.functions.registry import FIELD, NUMBER, OPERAND, STRING, SoqlFunction, lookup
from crmarena_sf.emulator.soql.lexer import read_date_literal, starts_date_literal
from crmarena_sf.emulator.soql.limits import checked_count
from crmarena_sf.emulator.soql.nodes import at
from sqlglot import exp
from sqlglot.tokens import TokenType


class ConditionParser(TokenCursor):
    """Operands, conditions and values (the statement grammar builds on it)."""

    def select(self, subquery: bool = False) -> exp.Select:  # pragma: no cover - provided by the parser
        raise NotImplementedError

    def field_path(self) -> nodes.FieldPath:
        first = self.identifier()
        parts = [first]
        while self.is_kind(TokenType.DOT):
            self.advance()
            parts.append(self.identifier())
        return at(nodes.FieldPath(expressions=parts), first.meta["offset"])

    def operand(self) -> exp.Expression:
        """A field path or a function call (``COUNT(Id)``, ``CALENDAR_YEAR(convertTimezone(d))``)."""
        tok = self.peek()
        if tok is not None and tok.kind == TokenType.VAR and self.is_kind(TokenType.L_PAREN, 1):
            spec = lookup(tok.text)
            if spec is None:
                raise self.unexpected(self.peek(1))
            return self.function(spec)
        return self.field_path()

    def function(self, spec: SoqlFunction) -> exp.Expression:
        """A call of a function SOQL knows, its arguments read as its registry entry says."""
        name_tok = self.advance()
        self.advance()  # (
        self.enter()
        args: list[exp.Expression] = []
        required = len(spec.arguments) if spec.min_arguments is None else spec.min_arguments
        for index, kind in enumerate(spec.arguments):
            if index >= required and self.is_kind(TokenType.R_PAREN):
                break
            if index:
                self.expect_kind(TokenType.COMMA)
            args.append(self.argument(kind))
        self.expect_kind(TokenType.R_PAREN)
        self.leave()
        node = exp.Anonymous(this=spec.name, expressions=args)
        node.meta["name"] = name_tok.text
        return at(node, name_tok.start)

    def argument(self, kind: str) -> exp.Expression:
        """One argument of a call: a field, an operand, a (signed) number or a string."""
        if kind == FIELD:
            return self.field_path()
        if kind == OPERAND:
            return self.operand()
        tok = self.peek()
        if (
            kind == NUMBER
            and tok is not None
            and tok.kind in (TokenType.NUMBER, TokenType.DASH, TokenType.PLUS)
        ):
            value = self.value()
            if isinstance(value, exp.Literal) and not value.is_string:
                return value
            raise self.unexpected(tok)
        if kind == STRING and tok is not None and tok.kind == TokenType.STRING:
            return self.value()
        raise self.unexpected()

    # ------------------------------------------------------------------ conditions
    def condition(self) -> exp.Expression:
        """Conditions joined by one kind of operator: SOQL refuses ``a AND b OR c`` without parentheses."""
        left = self.unary()
        joiner = None
        while self.is_word("AND") or self.is_word("OR"):
            tok = self.peek()
            if joiner is not None and tok.upper != joiner:
                raise self.unexpected()
            joiner = tok.upper
            self.advance()
            right = self.unary()
            left = (
                exp.And(this=left, expression=right)
                if joiner == "AND"
                else exp.Or(this=left, expression=right)
            )
        return left

    def unary(self) -> exp.Expression:
        tok = self.peek()
        if self.take_word("NOT"):
            self.enter()
            inner = self.unary()
            self.leave()
            return at(exp.Not(this=inner), tok.start)
        if tok is not None and tok.kind == TokenType.L_PAREN:
            self.advance()
            self.enter()
            inner = self.condition()
            self.leave()
            self.expect_kind(TokenType.R_PAREN)
            return at(exp.Paren(this=inner), tok.start)
        return self.comparison()

    def comparison(self) -> exp.Expression:
        left = self.operand()
        tok = self.peek()
        if tok is None:
            raise self.unexpected()
        ops = {
            TokenType.EQ: exp.EQ,
            TokenType.NEQ: exp.NEQ,
            TokenType.LT: exp.LT,
            TokenType.LTE: exp.LTE,
            TokenType.GT: exp.GT,
            TokenType.GTE: exp.GTE,
        }
        if tok.kind in ops:
            self.advance()
            node = ops[tok.kind](this=left, expression=self.value())
        elif self.is_word("LIKE"):
            self.advance()
            node = exp.Like(this=left, expression=self.value())
        elif self.is_word("IN") or (self.is_word("NOT") and self.is_word("IN", 1)):
            negated = self.take_word("NOT") is not None
            self.advance()
            node = self.in_list(left)
            if negated:
                node = exp.Not(this=node)
                node.meta["not_in"] = True
        elif self.is_word("INCLUDES") or self.is_word("EXCLUDES"):
            kind = nodes.Includes if self.advance().upper == "INCLUDES" else nodes.Excludes
            self.expect_kind(TokenType.L_PAREN)
            values = self.value_list()
            node = kind(this=left, expressions=values)
        else:
            raise self.unexpected()
        node.meta["operator"] = self.text[tok.start : tok.end]
        return at(node, tok.start)

    def in_list(self, left: exp.Expression) -> exp.In:
        paren = self.expect_kind(TokenType.L_PAREN)
        if self.is_word("SELECT"):
            self.enter()
            inner = self.select(subquery=True)
            self.leave()
            self.expect_kind(TokenType.R_PAREN)
            return exp.In(this=left, query=at(exp.Subquery(this=inner), paren.start))
        return exp.In(this=left, expressions=self.value_list())

    def value_list(self) -> list[exp.Expression]:
        """``v1, v2 ... )`` after an opening parenthesis (an empty list is a syntax error)."""
        values = [self.value()]
        while self.is_kind(TokenType.COMMA):
            self.advance()
            values.append(self.value())
        self.expect_kind(TokenType.R_PAREN)
        return values

    # ------------------------------------------------------------------ values
    def value(self) -> exp.Expression:
        tok = self.peek()
        if tok is None:
            raise self.unexpected()
        if tok.kind == TokenType.STRING:
            self.advance()
            return at(exp.Literal.string(tok.text), tok.start)
        if tok.kind in (TokenType.DASH, TokenType.PLUS):
            nxt = self.peek(1)
            if nxt is None or nxt.kind != TokenType.NUMBER or nxt.start != tok.end:
                raise self.unexpected(nxt)
            self.pos += 2
            sign = "-" if tok.kind == TokenType.DASH else ""
            return at(exp.Literal(this=sign + nxt.text, is_string=False), tok.start)
        if tok.kind == TokenType.NUMBER:
            if starts_date_literal(self.tokens, self.pos):
                literal, is_datetime, after = read_date_literal(self.text, self.tokens, self.pos)
                self.pos = after
                node = nodes.DateTimeValue(this=literal) if is_datetime else nodes.DateValue(this=literal)
                return at(node, tok.start)
            self.advance()
            return at(exp.Literal.number(tok.text), tok.start)
        if tok.kind == TokenType.VAR:
            word = tok.upper
            if word == "NULL":
                self.advance()
                return at(exp.Null(), tok.start)
            if word in ("TRUE", "FALSE"):
                self.advance()
                return at(exp.Boolean(this=word == "TRUE"), tok.start)
            if word in RELATIVE_DATES:
                self.advance()
                return at(nodes.RelativeDate(this=word), tok.start)
            if word in RELATIVE_DATES_WITH_N:
                self.advance()
                self.expect_kind(TokenType.COLON)
                n = self.peek()
                if n is None or n.kind != TokenType.NUMBER or not n.text.isdigit():
                    raise self.unexpected(n)
                self.advance()
                count = checked_count(word, int(n.text), n.start)
                return at(nodes.RelativeDate(this=word, expression=exp.Literal.number(count)), tok.start)
            currency = _currency_literal(tok.text)
            if currency is not None:
                self.advance()
                return at(nodes.CurrencyValue(this=currency[0], expression=currency[1]), tok.start)
        raise self.unexpected()


def _currency_literal(text: str) -> tuple[str, exp.Literal] | None:
    """``USD5000`` -> ("USD", 5000): an ISO currency code glued to a number."""
    if len(text) < 4 or not text[:3].isalpha() or not text[:3].isupper() or not text[3:].isdigit():
        return None
    return text[:3], exp.Literal.number(text[3:])
