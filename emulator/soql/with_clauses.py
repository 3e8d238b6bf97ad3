"""The WITH and SET OPTIONS clauses of SOQL: their grammar, and what parsing them keeps.

SOQL and SOSL Reference (https://developer.salesforce.com/docs/platform/salesforce-soql-sosl/guide/):

- ``WITH SECURITY_ENFORCED | USER_MODE | SYSTEM_MODE`` (sforce-api-calls-soql-select-with-security-enforced);
- ``WITH DATA CATEGORY group selector category [AND group selector (category, ...)]``, the
  selectors AT, ABOVE, BELOW and ABOVE_OR_BELOW; groups are joined by AND only, several
  categories of one group go in parentheses (sforce-api-calls-soql-select-with-datacategory,
  ...-with-datacategory-catselection);
- ``WITH UserId = '005...'`` for UserProfileFeed (sforce-api-calls-soql-select-with);
- ``WITH RecordVisibilityContext (name = value, ...)``, at least one option
  (sforce-api-calls-soql-select-with-recordvisibilitycontext);
- ``SET OPTIONS (name = value, ...)`` (sforce-api-calls-soql-select-set-options).

The parser keeps them as :class:`~crmarena_sf.emulator.soql.nodes.WithClause` values in the query's ``meta["with"]`` and
``meta["set_options"]``; the binder decides what each means for this org.
"""

from __future__ import annotations

from crmarena_sf.emulator.soql.conditions import ConditionParser
from crmarena_sf.emulator.soql.nodes import ACCESS_MODES, SELECTORS, DataCategorySelection, WithClause
from sqlglot import exp
from sqlglot.tokens import TokenType


class WithClauseParser(ConditionParser):
    """WITH ... and SET OPTIONS (...) (the statement grammar builds on it)."""

    def with_clause(self) -> WithClause:
        start = self.expect_word("WITH")
        for mode in ACCESS_MODES:
            if self.take_word(mode):
                return WithClause(mode, start.start)
        if self.is_word("DATA") and self.is_word("CATEGORY", 1):
            self.pos += 2
            selections = [self.data_category_selection()]
            while self.take_word("AND"):
                selections.append(self.data_category_selection())
            return WithClause("DATA CATEGORY", start.start, tuple(selections))
        if self.is_word("USERID"):
            self.advance()
            self.expect_kind(TokenType.EQ)
            value = self.peek()
            if value is None or value.kind != TokenType.STRING:
                raise self.unexpected()
            self.advance()
            return WithClause("UserId", start.start, options=(("UserId", value.text),))
        if self.is_word("RECORDVISIBILITYCONTEXT"):
            self.advance()
            return WithClause("RecordVisibilityContext", start.start, options=self.option_list())
        raise self.unexpected()

    def data_category_selection(self) -> DataCategorySelection:
        group = self.identifier()
        tok = self.peek()
        if tok is None or tok.kind != TokenType.VAR or tok.upper not in SELECTORS:
            raise self.unexpected()
        self.advance()
        names: list[exp.Identifier] = []
        if self.is_kind(TokenType.L_PAREN):
            self.advance()
            names.append(self.identifier())
            while self.is_kind(TokenType.COMMA):
                self.advance()
                names.append(self.identifier())
            self.expect_kind(TokenType.R_PAREN)
        else:
            names.append(self.identifier())
        return DataCategorySelection(
            group.name,
            tok.upper,
            tuple(n.name for n in names),
            group.meta["offset"],
            tuple(n.meta["offset"] for n in names),
        )

    def set_options(self) -> WithClause:
        start = self.expect_word("SET")
        self.expect_word("OPTIONS")
        return WithClause("SET OPTIONS", start.start, options=self.option_list())

    def option_list(self) -> tuple[tuple[str, object], ...]:
        """``(name = value, ...)``: at least one option; values are strings, numbers or booleans."""
        self.expect_kind(TokenType.L_PAREN)
        options = [self.option()]
        while self.is_kind(TokenType.COMMA):
            self.advance()
            options.append(self.option())
        self.expect_kind(TokenType.R_PAREN)
        return tuple(options)

    def option(self) -> tuple[str, object]:
        name = self.identifier()
        self.expect_kind(TokenType.EQ)
        value = self.value()
        if isinstance(value, exp.Boolean):
            return name.name, value.this
        if isinstance(value, exp.Literal):
            return name.name, value.this
        raise self.unexpected(self.tokens[self.pos - 1])
