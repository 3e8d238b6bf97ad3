"""The SOQL dialect's tokenizer: sqlglot's tokenizer configured for SOQL, plus SOQL's own literals.

SOQL has one quote (``'``) with backslash escapes (``\\n \\t \\' \\\\``; ``\\%`` and ``\\_``
stay escaped for LIKE), no comments, no quoted identifiers, and keywords that are also
valid field names (``Order`` is an object, ``Type`` a field), so words stay plain
``VAR`` tokens and the parser reads keywords by their text. What sqlglot's tokenizer
cannot express are SOQL's unquoted date and dateTime literals (``2024-01-01``,
``2024-01-01T10:00:00Z``, ``...+02:00``): :func:`read_date_literal` re-reads them from the
source text at the position of their first token.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from dataclasses import dataclass

from crmarena_sf.emulator.soql.dialect import SOQL
from crmarena_sf.emulator.soql.errors import SoqlError, malformed, unexpected_token
from sqlglot.errors import TokenError
from sqlglot.tokens import TokenType

_IDENTIFIER_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_IDENTIFIER_CHARS = _IDENTIFIER_START | frozenset("0123456789_")
_DATE_CHARS = frozenset("0123456789-:.+TZtz")
_DIGITS = frozenset("0123456789")


_TOKENIZERS = threading.local()
"""One sqlglot tokenizer per thread: a tokenizer keeps its position in the text it reads, so two
threads sharing one garble each other's tokens (and the plan cache would keep the error)."""


def _tokenizer():
    tokenizer = getattr(_TOKENIZERS, "tokenizer", None)
    if tokenizer is None:
        tokenizer = _TOKENIZERS.tokenizer = SOQL().tokenizer_class()
    return tokenizer


_ALLOWED_TYPES = frozenset(
    {
        TokenType.VAR,
        TokenType.STRING,
        TokenType.NUMBER,
        TokenType.COMMA,
        TokenType.DOT,
        TokenType.COLON,
        TokenType.L_PAREN,
        TokenType.R_PAREN,
        TokenType.EQ,
        TokenType.NEQ,
        TokenType.LT,
        TokenType.LTE,
        TokenType.GT,
        TokenType.GTE,
        TokenType.DASH,
        TokenType.PLUS,
    }
)


@dataclass(frozen=True, slots=True)
class Token:
    """One SOQL token: its kind, text (unescaped for strings) and where it starts and ends in the query."""

    kind: TokenType
    text: str
    start: int
    end: int
    """Offset just past the token's last character."""

    @property
    def upper(self) -> str:
        return self.text.upper()


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``; a character SOQL does not know raises ``unexpected token``."""
    tokens = _plain_tokens(text)
    if tokens is not None:
        return tokens
    try:
        raw = _tokenizer().tokenize(text)
    except TokenError:
        raise _lexer_failure(text) from None
    out: list[Token] = []
    for tok in raw:
        kind = tok.token_type
        if kind not in _ALLOWED_TYPES:
            raise unexpected_token(text[tok.start], tok.start)
        if kind == TokenType.VAR:
            for i, ch in enumerate(tok.text):
                allowed = _IDENTIFIER_START if i == 0 else _IDENTIFIER_CHARS
                if ch not in allowed:
                    raise unexpected_token(ch, tok.start + i)
        out.append(Token(kind, tok.text, tok.start, tok.end + 1))
    return out


_PLAIN_TOKEN = re.compile(
    r"[ \t\r\n]*(?:(?P<var>[A-Za-z][A-Za-z0-9_]*)|(?P<number>[0-9]+(?:\.[0-9]*)?)"
    r"|'(?P<string>[^'\\]*)'|(?P<op><=|>=|!=|<>|[,.():=<>+-]))"
)
_OPERATORS = {
    "<=": TokenType.LTE,
    ">=": TokenType.GTE,
    "!=": TokenType.NEQ,
    "<>": TokenType.NEQ,
    ",": TokenType.COMMA,
    ".": TokenType.DOT,
    "(": TokenType.L_PAREN,
    ")": TokenType.R_PAREN,
    ":": TokenType.COLON,
    "=": TokenType.EQ,
    "<": TokenType.LT,
    ">": TokenType.GT,
    "+": TokenType.PLUS,
    "-": TokenType.DASH,
}
_AFTER_WORD = frozenset(" \t\r\n,.():=<>+-!'")
"""What may follow a word in plain text: where sqlglot's tokenizer ends a word too (a space or a single-character token)."""


def _plain_tokens(text: str) -> list[Token] | None:
    """The tokens of a query written with SOQL's everyday characters only, as sqlglot's tokenizer makes them.

    Words, numbers without an exponent, strings without a backslash, the operators and
    punctuation SOQL has, separated by spaces, tabs and line breaks: most queries are only
    that, and a regular expression reads them several times faster. Anything else (an escape,
    an exponent, a character SOQL refuses, an unterminated string) gives None, and
    :func:`tokenize` asks sqlglot's tokenizer, whose tokens and errors are the reference.
    """
    out: list[Token] = []
    pos, size = 0, len(text)
    match = _PLAIN_TOKEN.match
    while pos < size:
        m = match(text, pos)
        if m is None:
            return [] if not out and text.isspace() else out if text[pos:].isspace() else None
        kind, end = m.lastgroup, m.end()
        if kind == "var":
            if end < size and text[end] not in _AFTER_WORD:
                return None
            out.append(Token(TokenType.VAR, m.group(kind), m.start(kind), end))
        elif kind == "number":
            if end < size and text[end] in "eE":
                return None  # an exponent: sqlglot's scanner has rules of its own there
            out.append(Token(TokenType.NUMBER, m.group(kind), m.start(kind), end))
        elif kind == "string":
            out.append(Token(TokenType.STRING, m.group(kind), m.start(kind) - 1, end))
        else:
            op = m.group(kind)
            out.append(Token(_OPERATORS[op], op, m.start(kind), end))
        pos = end
    return out


def _lexer_failure(text: str) -> SoqlError:
    """The error for input sqlglot's tokenizer refuses: in SOQL, an unterminated string literal."""
    quote = _unterminated_quote(text)
    if quote is None:
        return malformed("unexpected token: '<EOF>'", len(text))
    line = text.count("\n", 0, len(text)) + 1
    column = len(text) - (text.rfind("\n") + 1)
    return malformed(f"line {line}:{column} mismatched character '<EOF>' expecting '''", quote)


def _unterminated_quote(text: str) -> int | None:
    """Offset of the quote that opens a string never closed, scanning like the tokenizer does."""
    i, n = 0, len(text)
    while i < n:
        if text[i] == "'":
            start = i
            i += 1
            while i < n and text[i] != "'":
                i += 2 if text[i] == "\\" else 1
            if i >= n:
                return start
        i += 1
    return None


# ---------------------------------------------------------------------------- date literals
def starts_date_literal(tokens_: list[Token], index: int) -> bool:
    """True when the token at ``index`` opens an unquoted date literal (``2024-01-01...``)."""
    tok = tokens_[index]
    if tok.kind != TokenType.NUMBER or len(tok.text) != 4 or not set(tok.text) <= _DIGITS:
        return False
    nxt = tokens_[index + 1] if index + 1 < len(tokens_) else None
    return nxt is not None and nxt.kind == TokenType.DASH and nxt.start == tok.end


def read_date_literal(text: str, tokens_: list[Token], index: int) -> tuple[str, bool, int]:
    """Read the date or dateTime literal starting at token ``index``.

    Returns ``(literal text, is_datetime, index of the first token after it)``. The literal
    is the run of date characters from the first token; every token starting inside it
    belongs to it. A malformed one raises Salesforce's ``Invalid date``/``Invalid datetime``.
    """
    start = tokens_[index].start
    end = start
    while end < len(text) and text[end] in _DATE_CHARS:
        end += 1
    after = index
    while after < len(tokens_) and tokens_[after].start < end:
        end = max(end, tokens_[after].end)
        after += 1
    literal = text[start:end]
    is_datetime = len(literal) > 10
    if not _valid_literal(literal):
        kind = "datetime" if is_datetime else "date"
        raise malformed(f"Invalid {kind}: {literal}", start)
    return literal, is_datetime, after


def _valid_literal(literal: str) -> bool:
    """Shape and range check of ``YYYY-MM-DD[Thh:mm:ss[.fff](Z|±hh[:]mm)]`` (no regex: a small scanner)."""

    def digits(s: str) -> bool:
        return bool(s) and set(s) <= _DIGITS

    if len(literal) < 10 or literal[4] != "-" or literal[7] != "-":
        return False
    year, month, day = literal[0:4], literal[5:7], literal[8:10]
    if not (digits(year) and digits(month) and digits(day)):
        return False
    try:
        dt.date(int(year), int(month), int(day))
    except ValueError:
        return False
    rest = literal[10:]
    if not rest:
        return True
    if rest[0] not in "Tt" or len(rest) < 9 or rest[3] != ":" or rest[6] != ":":
        return False
    hour, minute, second = rest[1:3], rest[4:6], rest[7:9]
    if not (digits(hour) and digits(minute) and digits(second)):
        return False
    if int(hour) > 23 or int(minute) > 59 or int(second) > 59:
        return False
    zone = rest[9:]
    if zone.startswith("."):
        i = 1
        while i < len(zone) and zone[i] in _DIGITS:
            i += 1
        if i == 1:
            return False
        zone = zone[i:]
    if zone in ("Z", "z"):
        return True
    if not zone or zone[0] not in "+-":
        return False
    offset = zone[1:].replace(":", "", 1) if len(zone) == 6 and zone[3] == ":" else zone[1:]
    if len(offset) != 4 or not digits(offset):
        return False
    return int(offset[:2]) <= 18 and int(offset[2:]) <= 59
