"""Property: any input yields a REST body or a SalesforceError, and only SELECTs over the org's tables run.

Inputs are arbitrary text, queries generated from a small SOQL grammar over the schema,
and those queries mutated (characters dropped, duplicated or replaced, tokens spliced).
Every statement the engine sends to DuckDB is recorded and must parse as one SELECT
whose tables all belong to the org (no function tables, pragmas, ATTACH, COPY, second
statements). Bounded to a few hundred examples so it runs in seconds.
"""

from __future__ import annotations

import pytest
import sqlglot
from crmarena_sf.emulator import soql
from crmarena_sf.emulator.errors import SalesforceError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlglot import exp

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    database=None,
)


@pytest.fixture(scope="module")
def org(built, recorded):
    """The small org (a fork of it), recording every statement sent to DuckDB."""
    return recorded(built[0])


def run_and_check(org, text: str) -> None:
    org.con.statements.clear()
    try:
        body = soql.query(org, text)
    except SalesforceError as err:
        assert err.error_code and isinstance(err.message, str) and err.status in (400, 500)
        assert err.status == 400, f"engine failure for {text!r}: {err.message}"
    else:
        assert isinstance(body, dict) and {"totalSize", "done", "records"} <= set(body)
    tables = {name.lower() for name in org.schema.names}
    for statement in org.con.statements:
        parsed = sqlglot.parse(statement, read="duckdb")
        assert len(parsed) == 1 and isinstance(parsed[0], exp.Select), statement
        for table in parsed[0].find_all(exp.Table):
            if table.name:
                assert table.name.lower() in tables, statement
        assert not list(parsed[0].find_all(exp.Command)), statement


# ---------------------------------------------------------------------------- a small SOQL grammar
FIELDS = {
    "Account": ["Id", "Name", "Industry", "NumberOfEmployees", "AnnualRevenue", "CreatedDate", "BillingCity",
                "Owner.Name", "Parent.Name", "BillingAddress", "Type"],
    "Contact": ["Id", "LastName", "Name", "Email", "Birthdate", "Account.Name", "Account.Owner.Email"],
    "Case": ["Id", "Subject", "Status", "Priority", "IsClosed", "CreatedDate", "ClosedDate", "Account.Name",
             "Owner.Name", "Contact.Account.Industry", "OwnerId", "AccountId"],
}  # fmt: skip
VALUES = ["'x'", "'Acme%'", "null", "true", "5", "-2.5", "2024-01-01", "2024-01-01T00:00:00Z", "TODAY",
          "LAST_N_DAYS:3", "THIS_FISCAL_YEAR", "'001Em0000000001IAA'", "USD100", "('a', 'b')"]  # fmt: skip
OPERATORS = ["=", "!=", "<>", "<", "<=", ">", ">=", "LIKE", "IN", "NOT IN", "INCLUDES", "EXCLUDES"]
FUNCTIONS = ["COUNT", "COUNT_DISTINCT", "SUM", "AVG", "MIN", "MAX", "CALENDAR_YEAR", "DAY_ONLY", "toLabel",
             "FORMAT", "convertCurrency", "WEEK_IN_YEAR", "FISCAL_QUARTER", "GROUPING", "HOUR_IN_DAY"]  # fmt: skip
TYPEOF = "TYPEOF Owner WHEN User THEN Name, Email WHEN Group THEN Name ELSE Name END"


@st.composite
def soql_queries(draw) -> str:
    obj = draw(st.sampled_from(sorted(FIELDS)))
    fields = FIELDS[obj]
    field = st.sampled_from(fields)
    select = draw(st.lists(field, min_size=1, max_size=4, unique=True))
    if draw(st.booleans()):
        select.append(f"{draw(st.sampled_from(FUNCTIONS))}({draw(field)})")
    if obj == "Account" and draw(st.booleans()):
        select.append("(SELECT LastName FROM Contacts ORDER BY LastName LIMIT 2)")
    if obj == "Case" and draw(st.booleans()):
        select.append(TYPEOF)
    text = f"SELECT {', '.join(select)} FROM {obj}"
    conditions = [
        f"{draw(field)} {draw(st.sampled_from(OPERATORS))} {draw(st.sampled_from(VALUES))}"
        for _ in range(draw(st.integers(0, 3)))
    ]
    if conditions:
        joiner = draw(st.sampled_from([" AND ", " OR "]))
        text += " WHERE " + joiner.join(("NOT " if draw(st.booleans()) else "") + c for c in conditions)
    if draw(st.booleans()):
        grouped = draw(field)
        text += f" GROUP BY {draw(st.sampled_from([grouped, f'ROLLUP({grouped})', f'CUBE({grouped})']))}"
    if draw(st.booleans()):
        ordered = draw(
            st.one_of(field, st.builds(lambda fn, f: f"{fn}({f})", st.sampled_from(FUNCTIONS), field))
        )
        text += f" ORDER BY {ordered} {draw(st.sampled_from(['', 'ASC', 'DESC NULLS LAST']))}"
    if draw(st.booleans()):
        text += f" LIMIT {draw(st.integers(0, 3000))}"
    if draw(st.booleans()):
        text += f" OFFSET {draw(st.integers(0, 2500))}"
    return text


@st.composite
def mutated(draw) -> str:
    text = draw(soql_queries())
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        i = draw(st.integers(0, 10**6)) % len(text)  # spread over the text, not only its start
        kind = draw(st.sampled_from(["drop", "dup", "replace", "splice"]))
        if kind == "drop":
            text = text[:i] + text[i + 1 :]
        elif kind == "dup":
            text = text[:i] + text[i] * draw(st.integers(2, 5)) + text[i:]
        elif kind == "replace":
            text = text[:i] + draw(st.characters()) + text[i + 1 :]
        else:
            piece = draw(st.sampled_from(["(", ")", "'", ",", ".", ":", "SELECT", "FROM", "; DROP TABLE Case",
                                          "\\", "\x00", "FOR UPDATE", "AND", "read_csv('x')"]))  # fmt: skip
            text = text[:i] + piece + text[i:]
    return text


def test_generated_queries_answer_or_fail_cleanly(org):

    @SETTINGS
    @given(soql_queries())
    def check(text):
        run_and_check(org, text)

    check()


def test_mutated_queries_answer_or_fail_cleanly(org):

    @SETTINGS
    @given(mutated())
    def check(text):
        run_and_check(org, text)

    check()


def test_arbitrary_text_answers_or_fails_cleanly(org):

    @settings(max_examples=50, deadline=None, database=None)
    @given(st.text(max_size=200))
    def check(text):
        run_and_check(org, text)

    check()
