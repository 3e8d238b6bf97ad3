"""SOQL text to a sqlglot tree: a recursive-descent parser over the SOQL dialect's tokens.

sqlglot's own parser is built for SQL; SOQL's grammar differs where it matters for
errors (keywords that are field names, no mixing of AND and OR without parentheses,
child subqueries in the select list, TYPEOF, date literals), so the statement grammar is
hand-written here and every production returns sqlglot expressions (see
:mod:`emulator.soql.nodes` for the SOQL-only ones). Failures raise
:class:`~emulator.soql.errors.SoqlError` at the offending token, worded like Salesforce
(``unexpected token: 'From'``, ``unexpected token: '<EOF>'``).

Grammar (SOQL and SOSL Reference, "SOQL SELECT Syntax")::

    SELECT fieldList FROM objectType [alias] [USING SCOPE scope] [WHERE conditions]
    [WITH SECURITY_ENFORCED|USER_MODE|SYSTEM_MODE] [GROUP BY fields|ROLLUP(..)|CUBE(..)]
    [HAVING conditions] [ORDER BY item [ASC|DESC] [NULLS FIRST|LAST], ...]
    [LIMIT n] [OFFSET n] [FOR VIEW|REFERENCE|UPDATE] [UPDATE TRACKING|VIEWSTAT]
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.tokens import TokenType

from emulator.soql import nodes
from emulator.soql.dates import RELATIVE_DATES, RELATIVE_DATES_WITH_N
from emulator.soql.errors import SoqlError, too_complicated, unexpected_token
from emulator.soql.lexer import Token, read_date_literal, starts_date_literal, tokenize
from emulator.soql.nodes import at

RESERVED = frozenset(
    "AND ASC DESC EXCLUDES FIRST FROM GROUP HAVING IN INCLUDES LAST LIKE LIMIT NOT NULL NULLS OR "
    "SELECT WHERE WITH".split()
)
"""SOQL's reserved keywords (SOQL and SOSL Reference, "Reserved Characters and Keywords")."""

AGGREGATES = {"COUNT": exp.Count, "SUM": exp.Sum, "AVG": exp.Avg, "MIN": exp.Min, "MAX": exp.Max}
FUNCTIONS = frozenset(
    "COUNT_DISTINCT CALENDAR_MONTH CALENDAR_QUARTER CALENDAR_YEAR DAY_IN_MONTH DAY_IN_WEEK DAY_IN_YEAR "
    "DAY_ONLY FISCAL_MONTH FISCAL_QUARTER FISCAL_YEAR HOUR_IN_DAY WEEK_IN_MONTH WEEK_IN_YEAR "
    "CONVERTTIMEZONE TOLABEL FORMAT CONVERTCURRENCY GROUPING".split()
) | frozenset(AGGREGATES)
"""Functions SOQL knows; any other name followed by ``(`` is a syntax error, as in a real org."""

MAX_NESTING = 100
"""Deeper parentheses are refused (QUERY_TOO_COMPLICATED) instead of exhausting the stack."""


def parse(text: str) -> exp.Select:
    """The sqlglot tree of one SOQL query; raises SoqlError (MALFORMED_QUERY ...) on bad input."""
    return _Parser(text).statement()


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.pos = 0
        self.depth = 0

    # ------------------------------------------------------------------ token helpers
    def peek(self, ahead: int = 0) -> Token | None:
        i = self.pos + ahead
        return self.tokens[i] if i < len(self.tokens) else None

    def advance(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise self.unexpected()
        self.pos += 1
        return tok

    def unexpected(self, tok: Token | None = None) -> SoqlError:
        tok = tok if tok is not None else self.peek()
        if tok is None:
            return unexpected_token(None, len(self.text.rstrip()))
        return unexpected_token(self.text[tok.start : tok.end], tok.start)

    def is_word(self, word: str, ahead: int = 0) -> bool:
        tok = self.peek(ahead)
        return tok is not None and tok.kind == TokenType.VAR and tok.upper == word

    def is_kind(self, kind: TokenType, ahead: int = 0) -> bool:
        tok = self.peek(ahead)
        return tok is not None and tok.kind == kind

    def take_word(self, word: str) -> Token | None:
        if self.is_word(word):
            return self.advance()
        return None

    def expect_word(self, word: str) -> Token:
        if not self.is_word(word):
            raise self.unexpected()
        return self.advance()

    def expect_kind(self, kind: TokenType) -> Token:
        if not self.is_kind(kind):
            raise self.unexpected()
        return self.advance()

    def identifier(self, reserved_ok: bool = False) -> exp.Identifier:
        """A name; reserved words only where SOQL takes an object name (``FROM Group``)."""
        tok = self.peek()
        if tok is None or tok.kind != TokenType.VAR or (tok.upper in RESERVED and not reserved_ok):
            raise self.unexpected()
        self.pos += 1
        return at(exp.to_identifier(tok.text), tok.start)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise too_complicated()

    def leave(self) -> None:
        self.depth -= 1

    # ------------------------------------------------------------------ statement
    def statement(self) -> exp.Select:
        select = self.select()
        if self.peek() is not None:
            raise self.unexpected()
        return select

    def select(self, subquery: bool = False) -> exp.Select:
        start = self.expect_word("SELECT")
        items = [self.select_item(subquery)]
        while self.is_kind(TokenType.COMMA):
            self.advance()
            items.append(self.select_item(subquery))
        self.expect_word("FROM")
        table = self.from_object()
        query = at(exp.Select(expressions=items, from_=exp.From(this=table)), start.start)
        if self.is_word("USING") and self.is_word("SCOPE", 1):
            self.pos += 2
            query.meta["using_scope"] = self.identifier().name
        if self.take_word("WHERE"):
            query.set("where", exp.Where(this=self.condition()))
        if self.is_word("WITH"):
            query.meta["with"] = self.with_clause()
        if self.is_word("GROUP") and self.is_word("BY", 1):
            query.set("group", self.group_by())
            if self.take_word("HAVING"):
                query.set("having", exp.Having(this=self.condition()))
        if self.is_word("ORDER") and self.is_word("BY", 1):
            query.set("order", self.order_by())
        if self.is_word("LIMIT"):
            tok = self.advance()
            query.set("limit", at(exp.Limit(expression=self.integer()), tok.start))
        if self.is_word("OFFSET"):
            tok = self.advance()
            query.set("offset", at(exp.Offset(expression=self.integer()), tok.start))
        if not subquery:
            self.for_clauses(query)
        return query

    def from_object(self) -> exp.Table:
        name = self.identifier(reserved_ok=True)
        table = at(exp.Table(this=name), name.meta["offset"])
        tok = self.peek()
        if (
            tok is not None
            and tok.kind == TokenType.VAR
            and tok.upper not in RESERVED
            and not self.starts_clause()
        ):
            table.set("alias", exp.TableAlias(this=self.identifier()))
        return table

    def starts_clause(self) -> bool:
        """True at ORDER BY, USING SCOPE, OFFSET n, FOR ..., UPDATE ... (words that are not reserved)."""
        if self.is_word("ORDER") and self.is_word("BY", 1):
            return True
        if self.is_word("USING") and self.is_word("SCOPE", 1):
            return True
        if self.is_word("OFFSET") and self.is_kind(TokenType.NUMBER, 1):
            return True
        if self.is_word("FOR") and any(self.is_word(w, 1) for w in ("VIEW", "REFERENCE", "UPDATE")):
            return True
        return self.is_word("UPDATE") and any(self.is_word(w, 1) for w in ("TRACKING", "VIEWSTAT"))

    def with_clause(self) -> str:
        self.expect_word("WITH")
        for mode in ("SECURITY_ENFORCED", "USER_MODE", "SYSTEM_MODE"):
            if self.take_word(mode):
                return mode
        raise self.unexpected()

    def for_clauses(self, query: exp.Select) -> None:
        modes = []
        while self.is_word("FOR") or self.is_word("UPDATE"):
            if self.take_word("FOR"):
                for mode in ("VIEW", "REFERENCE", "UPDATE"):
                    if self.take_word(mode):
                        modes.append(mode)
                        break
                else:
                    raise self.unexpected()
            else:
                self.expect_word("UPDATE")
                for mode in ("TRACKING", "VIEWSTAT"):
                    if self.take_word(mode):
                        modes.append("UPDATE " + mode)
                        break
                else:
                    raise self.unexpected()
        if modes:
            query.meta["for"] = modes

    def integer(self) -> exp.Literal:
        tok = self.peek()
        if tok is None or tok.kind != TokenType.NUMBER or not tok.text.isdigit():
            raise self.unexpected()
        self.pos += 1
        return at(exp.Literal.number(int(tok.text)), tok.start)

    # ------------------------------------------------------------------ select list
    def select_item(self, subquery: bool) -> exp.Expression:
        tok = self.peek()
        if tok is None:
            raise self.unexpected()
        if tok.kind == TokenType.L_PAREN and self.is_word("SELECT", 1) and not subquery:
            self.advance()
            self.enter()
            inner = self.select(subquery=True)
            self.leave()
            self.expect_kind(TokenType.R_PAREN)
            return at(exp.Subquery(this=inner), tok.start)
        if self.is_word("TYPEOF"):
            return self.typeof()
        if self.is_word("FIELDS") and self.is_kind(TokenType.L_PAREN, 1):
            self.pos += 2
            kind = self.peek()
            if kind is None or kind.upper not in ("ALL", "STANDARD", "CUSTOM"):
                raise self.unexpected()
            self.advance()
            self.expect_kind(TokenType.R_PAREN)
            return at(nodes.FieldsMacro(this=kind.upper), tok.start)
        value = self.operand()
        alias = self.peek()
        if alias is not None and alias.kind == TokenType.VAR and alias.upper not in RESERVED:
            ident = self.identifier()
            return at(exp.Alias(this=value, alias=ident), tok.start)
        return value

    def typeof(self) -> nodes.TypeOf:
        start = self.expect_word("TYPEOF")
        field = self.field_path()
        branches = []
        while self.take_word("WHEN"):
            type_name = self.identifier(reserved_ok=True)
            self.expect_word("THEN")
            branches.append(nodes.TypeOfWhen(this=type_name, expressions=self.path_list()))
        if not branches:
            raise self.unexpected()
        default = self.path_list() if self.take_word("ELSE") else None
        self.expect_word("END")
        node = nodes.TypeOf(this=field, expressions=branches)
        if default is not None:
            node.set("default", default)
        return at(node, start.start)

    def path_list(self) -> list[exp.Expression]:
        paths = [self.field_path()]
        while self.is_kind(TokenType.COMMA):
            self.advance()
            paths.append(self.field_path())
        return paths

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
            if tok.upper not in FUNCTIONS:
                raise self.unexpected(self.peek(1))
            return self.function()
        return self.field_path()

    def function(self) -> exp.Expression:
        name_tok = self.advance()
        self.advance()  # (
        self.enter()
        name = name_tok.upper
        args: list[exp.Expression] = []
        if not self.is_kind(TokenType.R_PAREN):
            args.append(self.operand())
            while self.is_kind(TokenType.COMMA):
                self.advance()
                args.append(self.function_argument())
        self.expect_kind(TokenType.R_PAREN)
        self.leave()
        if name in AGGREGATES:
            if len(args) > 1:
                raise self.unexpected()
            node = AGGREGATES[name](this=args[0]) if args else exp.Count()
        elif name == "COUNT_DISTINCT":
            if len(args) != 1:
                raise self.unexpected()
            node = exp.Count(this=exp.Distinct(expressions=args))
        else:
            node = exp.Anonymous(this=name, expressions=args)
        node.meta["name"] = name_tok.text
        return at(node, name_tok.start)

    def function_argument(self) -> exp.Expression:
        """Later arguments may also be literals (``FORMAT`` has none; geolocation functions do)."""
        tok = self.peek()
        if tok is not None and tok.kind in (TokenType.STRING, TokenType.NUMBER):
            return self.value()
        return self.operand()

    # ------------------------------------------------------------------ GROUP BY, ORDER BY
    def group_by(self) -> exp.Group:
        start = self.expect_word("GROUP")
        self.expect_word("BY")
        for kind, node_type in (("ROLLUP", exp.Rollup), ("CUBE", exp.Cube)):
            if self.is_word(kind) and self.is_kind(TokenType.L_PAREN, 1):
                self.pos += 2
                items = [self.operand()]
                while self.is_kind(TokenType.COMMA):
                    self.advance()
                    items.append(self.operand())
                self.expect_kind(TokenType.R_PAREN)
                return at(exp.Group(expressions=[node_type(expressions=items)]), start.start)
        items = [self.operand()]
        while self.is_kind(TokenType.COMMA):
            self.advance()
            items.append(self.operand())
        return at(exp.Group(expressions=items), start.start)

    def order_by(self) -> exp.Order:
        start = self.expect_word("ORDER")
        self.expect_word("BY")
        items = [self.order_item()]
        while self.is_kind(TokenType.COMMA):
            self.advance()
            items.append(self.order_item())
        return at(exp.Order(expressions=items), start.start)

    def order_item(self) -> exp.Ordered:
        value = self.operand()
        desc = False
        if self.take_word("DESC"):
            desc = True
        else:
            self.take_word("ASC")
        ordered = exp.Ordered(this=value, desc=desc, nulls_first=not desc)
        if self.take_word("NULLS"):
            if self.take_word("FIRST"):
                ordered.set("nulls_first", True)
            else:
                self.expect_word("LAST")
                ordered.set("nulls_first", False)
        return at(ordered, nodes.offset_of(value) or 0)

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
                return at(
                    nodes.RelativeDate(this=word, expression=exp.Literal.number(int(n.text))), tok.start
                )
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
