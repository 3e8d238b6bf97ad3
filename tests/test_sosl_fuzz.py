"""Property: any text given to FIND yields a search result or a SalesforceError, never another exception.

Inputs: arbitrary text, statements built from SOSL's pieces (keywords, reserved characters,
braces, quotes, RETURNING specs with SOQL fragments) and search terms of random characters.
Errors must be one of the codes a search can answer (never UNKNOWN_EXCEPTION, the sign of
an engine bug), and a search sends DuckDB nothing but SELECTs once the index exists.
Bounded to a few hundred examples so it runs in seconds.
"""

from __future__ import annotations

import pytest
import sqlglot
from crmarena_sf.emulator import sosl
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.org import Org
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlglot import exp

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    database=None,
)
EXPECTED_CODES = {
    "MALFORMED_SEARCH",
    "INVALID_SEARCH",
    "INVALID_TYPE",
    "INVALID_FIELD",
    "MALFORMED_QUERY",
    "INVALID_QUERY_FILTER_OPERATOR",
    "QUERY_TOO_COMPLICATED",
    "NUMBER_OUTSIDE_VALID_RANGE",
}

PIECES = [
    "FIND",
    "find",
    " ",
    " ",
    "{",
    "}",
    "'",
    '"',
    "(",
    ")",
    ",",
    "\\",
    "*",
    "?",
    "-",
    "&",
    ":",
    "acme",
    "jacket",
    "AND",
    "OR",
    "NOT",
    "IN",
    "ALL",
    "NAME",
    "EMAIL",
    "PHONE",
    "FIELDS",
    "RETURNING",
    "Account",
    "Product2",
    "Knowledge__kav",
    "Contact",
    "Nope__c",
    "Id",
    "Name",
    "Title",
    "WHERE",
    "Name = 'x'",
    "ORDER BY",
    "LIMIT",
    "OFFSET",
    "5",
    "2001",
    "WITH",
    "SNIPPET",
    "UPDATE",
    "VIEWSTAT",
    "\n",
]


@pytest.fixture(scope="module")
def org(recorded):
    org = Org.new()
    org.insert("Account", {"Name": "Acme Corporation", "Phone": "(336) 555-1234"})
    org.insert("Contact", {"LastName": "Smith", "Email": "joe@acme.com"})
    org.insert("Product2", {"Name": "Men's Trail Jacket", "Description": "acme shell"})
    org.insert(
        "Knowledge__kav", {"Title": "Jacket care", "UrlName": "jacket-care", "FAQ_Answer__c": "<p>acme</p>"}
    )
    sosl.ensure_index(org)
    return recorded(org)


def run_and_check(org, text: str) -> None:
    org.con.statements.clear()
    try:
        body = sosl.search(org, text)
    except SalesforceError as err:
        assert err.error_code in EXPECTED_CODES, (text, err)
        assert err.status == 400
    else:
        assert isinstance(body["searchRecords"], list)
        for record in body["searchRecords"]:
            assert set(record["attributes"]) == {"type", "url"}
    for sql in org.con.statements:
        assert isinstance(sqlglot.parse_one(sql, read="duckdb"), (exp.Select, exp.Union)), sql


@SETTINGS
@given(st.text(max_size=80))
def test_arbitrary_text(org, text):
    run_and_check(org, text)


@SETTINGS
@given(st.lists(st.sampled_from(PIECES), max_size=25))
def test_statements_from_sosl_pieces(org, pieces):
    run_and_check(org, "".join(pieces))


@SETTINGS
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40))
def test_any_braced_term(org, term):
    run_and_check(org, "FIND {" + term + "} RETURNING Account(Name), Product2, Knowledge__kav(Title)")


@SETTINGS
@given(st.lists(st.sampled_from(PIECES[5:22] + ["a", "b1", "é", "x*y", "\\'"]), min_size=1, max_size=30))
def test_terms_from_term_pieces(org, pieces):
    run_and_check(org, "FIND {" + "".join(pieces) + "} RETURNING Account(Name), Product2(Name)")
