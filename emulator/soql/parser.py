"""SOQL text to a sqlglot tree: a recursive-descent parser over the SOQL dialect's tokens.

sqlglot's own parser is built for SQL; SOQL's grammar differs where it matters for
errors (keywords that are field names, no mixing of AND and OR without parentheses,
child subqueries in the select list, TYPEOF, date literals), so the statement grammar is
hand-written here and every production returns sqlglot expressions (see
:mod:`crmarena_sf.emulator.soql.nodes` for the SOQL-only ones). Failures raise
:class:`~crmarena_sf.emulator.soql.errors.SoqlError` at the offending token, worded like Salesforce
(``unexpected token: 'From'``, ``unexpected token: '<EOF>'``).

Grammar (SOQL and SOSL Reference, "SOQL SELECT Syntax")::

    SELECT fieldList FROM objectType [alias][, relationshipPath alias ...] [USING SCOPE scope]
    [WHERE conditions] [WITH ...] [GROUP BY fields|ROLLUP(..)|CUBE(..)]
    [HAVING conditions] [ORDER BY item [ASC|DESC] [NULLS FIRST|LAST], ...]
    [LIMIT n] [OFFSET n] [FOR VIEW|REFERENCE] [UPDATE TRACKING|VIEWSTAT]
    [SET OPTIONS (name = value, ...)] [FOR UPDATE]

A child subquery's FROM is a child relationship, optionally qualified by the outer object or
its alias (``FROM Account.Contacts``, ``FROM a.Contacts c``); child subqueries nest (the
binder checks how deep). The WITH and SET OPTIONS grammar is :mod:`crmarena_sf.emulator.soql.with_clauses`.
"""

from __future__ import annotations

from dataclasses import dataclass

from crmarena_sf.emulator.soql import nodes
from crmarena_sf.emulator.soql.cursor import RESERVED
from crmarena_sf.emulator.soql.errors import SoqlError, unexpected_token
from crmarena_sf.emulator.soql.lexer import Token
from crmarena_sf.emulator.soql.nodes import at
from crmarena_sf.emulator.soql.selection import RecordSelection
from crmarena_sf.emulator.soql.with_clauses import WithClauseParser
from sqlglot import exp
from sqlglot.tokens import TokenType


def parse(text: str) -> exp.Select:
    """The sqlglot tree of one SOQL query; raises SoqlError (MALFORMED_QUERY ...) on bad input."""
    return _Parser(text).statement()


def parse_selection(selection: RecordSelection) -> exp.Select:
    """The tree of a query given by parts (SOSL's RETURNING clauses, :mod:`crmarena_sf.emulator.soql.selection`).

    Each part is read by the production that reads it inside ``SELECT <fields> FROM <object>
    [WHERE (<where>)] [ORDER BY <order_by>] [LIMIT n] [OFFSET n]``, and sees the token that
    follows it there (``FROM`` after the field list, the parenthesis closing the condition), so
    a part is accepted, refused and worded as in that query; WITH DATA CATEGORY is the clause
    SOSL parsed. Raises SoqlError.
    """
    fields = _Part(selection.fields, after=[_word("FROM")])
    items = fields.select_list(subquery=False)
    fields.read_to_end()
    table = at(exp.Table(this=at(exp.to_identifier(selection.object_name), 0)), 0)
    query = at(exp.Select(expressions=items, from_=exp.From(this=table)), 0)
    if selection.where:
        where = _Part(selection.where, before=[(TokenType.L_PAREN, "(")], after=[(TokenType.R_PAREN, ")")])
        query.set("where", exp.Where(this=where.condition()))
        where.finish()
    if selection.data_category is not None:
        query.meta["with"] = [selection.data_category]
    tail = _Part(
        selection.order_by or "",
        after=[*_limit("LIMIT", selection.limit), *_limit("OFFSET", selection.offset)],
    )
    if selection.order_by:
        query.set("order", at(exp.Order(expressions=tail.order_list()), 0))
    tail.limits(query)
    tail.for_clauses(query)
    tail.finish()
    return query


@dataclass(frozen=True)
class SelectItem:
    """One item of a SELECT list as written: its text and where it stands in the query."""

    text: str
    start: int
    end: int
    subquery: SelectDescription | None = None
    """For a child subquery, ``(SELECT ... FROM Relationship ...)``: its own description."""


@dataclass(frozen=True)
class SelectDescription:
    """What a query selects from where: the object (a child relationship, for a subquery) and the items."""

    object_name: str
    items: tuple[SelectItem, ...]


def describe_select(text: str) -> SelectDescription:
    """The object a query reads and its SELECT list as written, subqueries described in turn; raises SoqlError.

    For what the REST API reports about a query without running it (a Bulk query job's
    ``object`` and the header of a result without rows, ``columns=true``'s display names).
    """
    return _described(parse(text), text)


def _described(select: exp.Select, text: str) -> SelectDescription:
    items = []
    for item in select.expressions:
        start, end = item.meta["offset"], item.meta["end"]
        inner = _described(item.this, text) if isinstance(item, exp.Subquery) else None
        items.append(SelectItem(text[start:end], start, end, inner))
    return SelectDescription(select.args["from_"].this.name, tuple(items))


class _Parser(WithClauseParser):
    """The statement grammar: SELECT list, FROM, clauses (conditions come from ConditionParser)."""

    # ------------------------------------------------------------------ statement
    def statement(self) -> exp.Select:
        select = self.select()
        if self.peek() is not None:
            raise self.unexpected()
        return select

    def select(self, subquery: bool = False) -> exp.Select:
        start = self.expect_word("SELECT")
        items = self.select_list(subquery)
        self.expect_word("FROM")
        table = self.from_object(subquery)
        query = at(exp.Select(expressions=items, from_=exp.From(this=table)), start.start)
        if not subquery and self.is_kind(TokenType.COMMA):
            query.meta["from_paths"] = self.from_paths()
        if self.is_word("USING") and self.is_word("SCOPE", 1):
            self.pos += 2
            query.meta["using_scope"] = self.identifier().name
        if self.take_word("WHERE"):
            query.set("where", exp.Where(this=self.condition()))
        withs = []
        while self.is_word("WITH"):
            withs.append(self.with_clause())
        if withs:
            query.meta["with"] = withs
        if self.is_word("GROUP") and self.is_word("BY", 1):
            query.set("group", self.group_by())
            if self.take_word("HAVING"):
                query.set("having", exp.Having(this=self.condition()))
        if self.is_word("ORDER") and self.is_word("BY", 1):
            query.set("order", self.order_by())
        self.limits(query)
        if not subquery:
            self.for_clauses(query)
        return query

    def limits(self, query: exp.Select) -> None:
        """``[LIMIT n] [OFFSET n]``."""
        if self.is_word("LIMIT"):
            tok = self.advance()
            query.set("limit", at(exp.Limit(expression=self.integer()), tok.start))
        if self.is_word("OFFSET"):
            tok = self.advance()
            query.set("offset", at(exp.Offset(expression=self.integer()), tok.start))

    def from_object(self, subquery: bool = False) -> exp.Table:
        """The object (or, in a child subquery, the relationship) queried, and its alias."""
        name = self.identifier(reserved_ok=True)
        table = at(exp.Table(this=name), name.meta["offset"])
        if subquery and self.is_kind(TokenType.DOT):
            self.advance()
            table.meta["qualifier"] = name
            table.set("this", self.identifier(reserved_ok=True))
        alias = self.alias()
        if alias is not None:
            table.set("alias", exp.TableAlias(this=alias))
        return table

    def alias(self) -> exp.Identifier | None:
        """An alias after a FROM item: a word that is neither reserved nor the start of a clause."""
        tok = self.peek()
        if (
            tok is not None
            and tok.kind == TokenType.VAR
            and tok.upper not in RESERVED
            and not self.starts_clause()
        ):
            return self.identifier()
        return None

    def from_paths(self) -> list[tuple[nodes.FieldPath, exp.Identifier | None]]:
        """``, c.Account a``: relationship paths named in FROM, each with its alias ("Alias Notation")."""
        paths = []
        while self.is_kind(TokenType.COMMA):
            self.advance()
            paths.append((self.field_path(), self.alias()))
        return paths

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
        if self.is_word("SET") and self.is_word("OPTIONS", 1):
            return True
        return self.is_word("UPDATE") and any(self.is_word(w, 1) for w in ("TRACKING", "VIEWSTAT"))

    def for_clauses(self, query: exp.Select) -> None:
        modes = []
        while self.is_word("FOR") or self.is_word("UPDATE") or self.is_word("SET"):
            if self.is_word("SET"):
                query.meta["set_options"] = self.set_options()
            elif self.take_word("FOR"):
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
    def select_list(self, subquery: bool) -> list[exp.Expression]:
        """The items before FROM; each keeps where it ends in ``meta["end"]`` (:func:`describe_select`)."""
        items = [self.select_item(subquery)]
        items[-1].meta["end"] = self.tokens[self.pos - 1].end
        while self.is_kind(TokenType.COMMA):
            self.advance()
            items.append(self.select_item(subquery))
            items[-1].meta["end"] = self.tokens[self.pos - 1].end
        return items

    def select_item(self, subquery: bool) -> exp.Expression:
        tok = self.peek()
        if tok is None:
            raise self.unexpected()
        if tok.kind == TokenType.L_PAREN and self.is_word("SELECT", 1):
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
        return at(exp.Order(expressions=self.order_list()), start.start)

    def order_list(self) -> list[exp.Ordered]:
        items = [self.order_item()]
        while self.is_kind(TokenType.COMMA):
            self.advance()
            items.append(self.order_item())
        return items

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


class _Part(_Parser):
    """One part of a query given by parts, read between the tokens the query has around it.

    ``before`` and ``after`` are those tokens (the parenthesis around a condition, ``FROM``
    after a field list ...): the part's own text is never joined with them, but the grammar
    reads them as it would in the query, and an error at one of them names it.
    """

    def __init__(
        self, text: str, before: list[tuple[TokenType, str]] = (), after: list[tuple[TokenType, str]] = ()
    ) -> None:
        super().__init__(text)
        end = len(text)  # where the tokens after the part stand: past every token of its own
        around = [Token(kind, word, 0, 0) for kind, word in before] + [
            Token(kind, word, end, end) for kind, word in after
        ]
        self._around = {id(token) for token in around}
        self.tokens = [*around[: len(before)], *self.tokens, *around[len(before) :]]

    def unexpected(self, tok: Token | None = None) -> SoqlError:
        tok = tok if tok is not None else self.peek()
        if tok is not None and id(tok) in self._around:
            return unexpected_token(tok.text, None)
        return super().unexpected(tok)

    def read_to_end(self) -> None:
        """Read the tokens the query has after the part; a token of the part's own left before them is unexpected."""
        while self.peek() is not None:
            if id(self.peek()) not in self._around:
                raise self.unexpected()
            self.advance()

    def finish(self) -> None:
        """Nothing left: the query ends here."""
        if self.peek() is not None:
            raise self.unexpected()


def _word(word: str) -> tuple[TokenType, str]:
    return (TokenType.VAR, word)


def _limit(word: str, value: int | None) -> list[tuple[TokenType, str]]:
    """``LIMIT n`` (or OFFSET) as the query's tokens: a negative number is a sign, then digits."""
    if value is None:
        return []
    sign = [(TokenType.DASH, "-")] if value < 0 else []
    return [_word(word), *sign, (TokenType.NUMBER, str(abs(value)))]
