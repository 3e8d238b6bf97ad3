"""The SOQL lexer reads plain queries itself and gives exactly the tokens and errors of sqlglot's tokenizer.

Most queries are words, numbers, strings without escapes and SOQL's operators; the lexer
reads those with one regular expression (emulator.soql.lexer._plain_tokens) and leaves
everything else to sqlglot's tokenizer. Both paths must agree on every input: the same
tokens (kind, text, offsets), the same ``unexpected token`` and unterminated-string errors
(SOQL and SOSL Reference, "Quoted String Escape Sequences", "Reserved Characters").
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator.soql import lexer
from crmarena_sf.emulator.soql.errors import SoqlError
from hypothesis import given, settings
from hypothesis import strategies as st

PIECES = [
    "SELECT", "Id", "Name", "a_b", "_x", "x1", "USD5000", "5000", "0", "00", "0x1F", "0b1", "1.", "1.5",
    "1.2.3", ".5", "1e5", "2E", "e", "2021-01-01", "2021-01-01T00:00:00Z", "T00", "00.5Z", "+02:00",
    "'", "''", "'abc'", "'a\\'b'", "'\\\\'", "'x y'", ",", ".", "(", ")", ":", "::", "=", "==", "<", ">",
    "<=", ">=", "<>", "!=", "!", "+", "-", "*", ";", "$", "#", "@", "é", "\x0b", "\u00a0", "`", '"', "%",
    "LAST_N_DAYS:7", "Account.Name", "COUNT()", "IN ('a','b')", "LIKE '%x%'", "5_000", "a$b", "9a",
    " ", "  ", "\t", "\n", "\r\n",
]  # fmt: skip


def by_sqlglot(text: str):
    """What the lexer answers when sqlglot's tokenizer reads ``text`` (the reference)."""
    plain = lexer._plain_tokens
    lexer._plain_tokens = lambda _text: None
    try:
        return outcome(text)
    finally:
        lexer._plain_tokens = plain


def outcome(text: str):
    try:
        return lexer.tokenize(text)
    except SoqlError as err:
        return (err.error_code, err.message, err.offset)


@settings(max_examples=2000, deadline=None, database=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join))
def test_plain_queries_read_as_sqlglot_reads_them(text):
    assert outcome(text) == by_sqlglot(text)


@settings(max_examples=2000, deadline=None, database=None)
@given(st.text(alphabet="abzAZ09_ \t\n\r,.():=<>+-!'\\eExX$é\x0b*;\"`", max_size=20))
def test_any_characters_read_as_sqlglot_reads_them(text):
    assert outcome(text) == by_sqlglot(text)


@pytest.mark.parametrize(
    "text",
    [
        "SELECT Id, Name FROM Account WHERE Name != 'x' AND CreatedDate >= 2021-01-01T00:00:00Z LIMIT 5",
        "SELECT COUNT() FROM Case WHERE Id IN ('500Em0000000001IAA','500Em0000000002IAA') AND Amount > USD5000",
        "SELECT Name FROM Account WHERE CreatedDate = LAST_N_DAYS:7 OR Rating <> null\n ORDER BY Name DESC",
    ],
)
def test_everyday_queries_take_the_plain_path(text):
    assert lexer._plain_tokens(text) is not None
    assert outcome(text) == by_sqlglot(text)
