"""Record text is tokenised in DuckDB (full builds) and in Python (incremental updates, search words): same tokens.

Rules in emulator/sosl/text.py (sforce_api_calls_sosl_find.htm: split on spaces, punctuation
and letter/digit changes, case-insensitive; rich text without tags and entities).
"""

from __future__ import annotations

import duckdb
import pytest
from crmarena_sf.emulator.sosl.text import (
    phone_digits,
    phone_digits_sql,
    searchable_text,
    token_list_sql,
    tokens,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
PIECES = [
    "Women&#39;s",
    "&rsquo;s",
    "&#x27;S",
    "Women's",
    "Kids’",
    "MEN'S",
    "'s",
    "’",
    "XR500",
    "naïve",
    "e\u0301",
    "Ⅻ",
    "²",
    "٣",
    "İ",
    "ß",
    "-",
    " ",
    "&amp;",
    "&#39;",
    "<p>",
    "</b>",
    "<a href='x'>",
    "\n",
    "3-5",
    "(336) 555-1234",
    "日本語",
    "x",
]


@pytest.fixture(scope="module")
def con():
    return duckdb.connect()


def sql_tokens(con, text: str, html: bool) -> list[str]:
    return con.execute(f"SELECT {token_list_sql('?', html)}", [text]).fetchone()[0]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Women's Trail-Jacket XR500", ["women", "trail", "jacket", "xr", "500"]),
        (
            "<p>Returns &amp; refunds within 30&nbsp;days. Women&#39;s items.</p>",
            ["returns", "refunds", "within", "30", "days", "women", "items"],
        ),
        ("joe.smith@acme.com", ["joe", "smith", "acme", "com"]),
        ("Café Zürich", ["café", "zürich"]),
    ],
)
def test_examples(con, text, expected):
    html = "<" in text
    assert tokens(searchable_text(text, html)) == expected
    assert sql_tokens(con, text, html) == expected


@settings(SETTINGS)
@given(st.lists(st.sampled_from(PIECES), max_size=12), st.booleans())
def test_python_and_duckdb_agree_on_tricky_pieces(con, pieces, html):
    text = "".join(pieces)
    assert tokens(searchable_text(text, html)) == sql_tokens(con, text, html)


@settings(SETTINGS)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cn")), max_size=40))
def test_python_and_duckdb_agree_on_any_text(con, text):
    """Characters Python's Unicode tables know (RE2's may be newer: an unassigned code point there is a letter)."""
    assert tokens(text) == sql_tokens(con, text, False)


@pytest.mark.parametrize("number", ["(336) 555-1234", "+1 336.555.1234", "3365551234", "ext 12"])
def test_phone_digits_agree(con, number):
    found = con.execute(
        f"SELECT CASE WHEN regexp_matches(?, '[0-9][^0-9]+[0-9]') THEN {phone_digits_sql('?')} END",
        [number, number],
    ).fetchone()[0]
    assert phone_digits(number) == found
