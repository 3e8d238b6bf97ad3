"""A cursor over SOQL tokens: the helpers every part of the recursive-descent parser shares.

Keywords are read by their text (SOQL's keywords are also field names, so the tokenizer
leaves them as words); only the reserved words of :data:`RESERVED` cannot be names.
Failures are :class:`~crmarena_sf.emulator.soql.errors.SoqlError` at the offending token.
"""

from __future__ import annotations

from crmarena_sf.emulator.soql.errors import SoqlError, too_complicated, unexpected_token
from crmarena_sf.emulator.soql.lexer import Token, tokenize
from crmarena_sf.emulator.soql.nodes import at
from sqlglot import exp
from sqlglot.tokens import TokenType

RESERVED = frozenset(
    "AND ASC DESC EXCLUDES FIRST FROM GROUP HAVING IN INCLUDES LAST LIKE LIMIT NOT NULL NULLS OR "
    "SELECT USING WHERE WITH".split()
)
"""SOQL's reserved keywords (SOQL and SOSL Reference, "Reserved Characters and Keywords")."""

MAX_NESTING = 100
"""Deeper parentheses are refused (QUERY_TOO_COMPLICATED) instead of exhausting the stack."""


class TokenCursor:
    """The tokens of one query and the position of the parser in them."""

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
