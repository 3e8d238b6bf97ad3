"""SOSL statement text to a :class:`Statement`: a hand-written recursive-descent parser.

Grammar (SOQL and SOSL Reference, "SOSL Syntax", sforce_api_calls_sosl_syntax.htm, and the
pages of each clause)::

    FIND {SearchQuery} | FIND 'SearchQuery'
    [IN ALL|NAME|EMAIL|PHONE|SIDEBAR FIELDS]
    [RETURNING ObjectTypeName [(FieldList [WHERE ...] [USING ListView=name]
               [ORDER BY ...] [LIMIT n] [OFFSET n])] [, ...]]
    [WITH DIVISION|DATA CATEGORY|NETWORK|SNIPPET|HIGHLIGHT|SPELL_CORRECTION|METADATA|PricebookId ...]...
    [LIMIT n]
    [UPDATE TRACKING|VIEWSTAT [, ...]]

The parser knows no schema: RETURNING's field list, WHERE and ORDER BY are kept as the
SOQL text they are (with their offsets) for the SOQL engine; objects are checked by
:mod:`crmarena_sf.emulator.sosl.returning`. ``WITH DATA CATEGORY`` filters the articles returned
(:mod:`crmarena_sf.emulator.sosl.data_category`); the other ``WITH`` clauses are accepted and have no
effect on an emulated org (no divisions, networks or snippets).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.soql.nodes import WithClause
from crmarena_sf.emulator.sosl.data_category import parse_data_category
from crmarena_sf.emulator.sosl.errors import (
    MAX_OFFSET,
    SoslSyntaxError,
    no_search_term,
    offset_out_of_range,
    term_too_short,
    unexpected_token,
)
from crmarena_sf.emulator.sosl.scanner import Scanner
from crmarena_sf.emulator.sosl.terms import (
    SearchTerm,
    parse_term,
    read_braced_term,
    searchable_length,
    unescape_backslashes,
)

SEARCH_GROUPS = ("ALL", "NAME", "EMAIL", "PHONE", "SIDEBAR")
MAX_ROWS = 2000
"""The most rows one search returns (API version 28.0 and later; sforce_api_calls_sosl_limit.htm)."""

WITH_CLAUSES = (
    "DIVISION",
    "DATA",
    "NETWORK",
    "SNIPPET",
    "HIGHLIGHT",
    "SPELL_CORRECTION",
    "METADATA",
    "PRICEBOOKID",
    "USER_MODE",
    "SYSTEM_MODE",
    "SECURITY_ENFORCED",
)
_FIELD_LIST_END = ("WHERE", "USING", "ORDER", "LIMIT", "OFFSET")
_WITH_END = ("WITH", "LIMIT", "UPDATE")


@dataclass
class Returning:
    """One ``ObjectTypeName[(...)]`` of RETURNING; texts are the user's SOQL, offsets into the statement."""

    name: str
    offset: int
    fields_text: str | None = None
    fields_offset: int | None = None
    where_text: str | None = None
    order_text: str | None = None
    limit: int | None = None
    offset_rows: int | None = None


@dataclass
class Statement:
    """A parsed SOSL statement."""

    term: SearchTerm
    group: str = "ALL"
    returning: list[Returning] = field(default_factory=list)
    limit: int | None = None
    data_category: WithClause | None = None
    """WITH DATA CATEGORY's selections (:mod:`crmarena_sf.emulator.sosl.data_category`)."""


def parse(text: str) -> Statement:
    """The statement ``text`` holds; raises SalesforceError (MALFORMED_SEARCH, INVALID_SEARCH)."""
    try:
        return _parse(text)
    except SoslSyntaxError as exc:
        raise exc.render(text) from None


def _parse(text: str) -> Statement:
    sc = Scanner(text)
    if sc.take_word("FIND") is None:
        token, _ = sc.next_token()
        raise unexpected_token(text, token, 0).without_caret()
    term = _search_term(sc)
    statement = Statement(term)
    if sc.take_word("IN"):
        statement.group = sc.expect_word(*SEARCH_GROUPS)
        sc.expect_word("FIELDS")
    if sc.take_word("RETURNING"):
        statement.returning.append(_returning(sc))
        while sc.take_char(","):
            statement.returning.append(_returning(sc))
    while sc.peek_word() == "WITH":
        with_offset = sc.pos
        sc.take_word("WITH")
        token, clause_offset = sc.next_token()
        if sc.expect_word(*WITH_CLAUSES) == "DATA":
            if statement.data_category is not None:  # one clause: its groups are joined by AND
                raise unexpected_token(text, token, clause_offset)
            sc.expect_word("CATEGORY")
            sc.skip_space()
            start = sc.pos
            end = sc.skip_balanced_until(_WITH_END)
            statement.data_category = parse_data_category(text, start, end, with_offset)
        else:
            sc.skip_balanced_until(_WITH_END)
    if sc.take_word("LIMIT"):
        statement.limit = min(sc.integer()[0], MAX_ROWS)
    if sc.take_word("UPDATE"):
        sc.expect_word("TRACKING", "VIEWSTAT")
        while sc.take_char(","):
            sc.expect_word("TRACKING", "VIEWSTAT")
    if not sc.at_end():
        raise sc.unexpected()
    return statement


def _search_term(sc: Scanner) -> SearchTerm:
    """The braced (or, as Apex writes it, single-quoted) search term after FIND."""
    first = sc.peek_char()
    if first == "{":
        start = sc.pos
        chars, sc.pos = read_braced_term(sc.text, start)
        raw = sc.text[start + 1 : sc.pos - 1]
    elif first == "'":
        raw, _ = sc.string_literal()
        chars = unescape_backslashes(raw)
    else:
        raise _NoSearchTerm()
    term = parse_term(chars)
    if not term.finds_nothing and searchable_length(term) < 2:
        raise _TooShort(raw.strip())
    return term


def _returning(sc: Scanner) -> Returning:
    name, offset = sc.identifier()
    spec = Returning(name, offset)
    if not sc.take_char("("):
        return spec
    text = sc.text
    sc.skip_space()
    start = sc.pos
    sc.skip_balanced_until(_FIELD_LIST_END)
    spec.fields_text = text[start : sc.pos].strip()
    spec.fields_offset = start
    if not spec.fields_text:
        raise sc.unexpected()
    if sc.take_word("WHERE"):
        spec.where_text = _clause_text(sc, ("USING", "ORDER", "LIMIT", "OFFSET"))
    if sc.take_word("USING"):
        sc.expect_word("LISTVIEW")
        sc.expect_char("=")
        sc.identifier()
    if sc.take_word("ORDER"):
        sc.expect_word("BY")
        spec.order_text = _clause_text(sc, ("LIMIT", "OFFSET"))
    if sc.take_word("LIMIT"):
        spec.limit = sc.integer()[0]
    if sc.take_word("OFFSET"):
        rows, at = sc.integer()
        if rows > MAX_OFFSET:
            raise offset_out_of_range(at)
        spec.offset_rows = rows
    sc.expect_char(")")
    return spec


def _clause_text(sc: Scanner, stop_words: tuple[str, ...]) -> str:
    sc.skip_space()
    start = sc.pos
    sc.skip_balanced_until(stop_words)
    body = sc.text[start : sc.pos].strip()
    if not body:
        raise sc.unexpected()
    return body


class _NoSearchTerm(SoslSyntaxError):
    def __init__(self) -> None:
        super().__init__("MALFORMED_SEARCH", "", None)

    def render(self, text: str) -> SalesforceError:
        return no_search_term()


class _TooShort(SoslSyntaxError):
    def __init__(self, term: str) -> None:
        super().__init__("INVALID_SEARCH", term, None)

    def render(self, text: str) -> SalesforceError:
        return term_too_short(self.message)
