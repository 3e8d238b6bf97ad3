"""Numbers at and past every limit, in every clause: a coded 400 or an answer, never a 500.

Limits (SOQL and SOSL Reference, https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/):
OFFSET at most 2,000 ("OFFSET"), FIELDS(ALL) with a LIMIT of at most 200 ("FIELDS()"), SOSL's
2,000 rows ("SOSL Limits"); SOQL integers (LIMIT, ``LAST_N_DAYS:n``) end at 2,147,483,647 and
numbers compared with fields may have any number of digits. Every boundary number is tried
in every clause that takes a number (exhaustively), and random large ones on top (hypothesis).
"""

from __future__ import annotations

import itertools

import pytest
from crmarena_sf.emulator import soql, sosl
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.soql.dates import RELATIVE_DATES_WITH_N
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

BOUNDARIES = [0, 1, 199, 200, 201, 1999, 2000, 2001, 2**31 - 1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64,
              10**20, 10**38, 10**40]  # fmt: skip
DECIMALS = ["0.5", "1999.999999999999999999", "99999999999999999999999999999999999999999.5",
            "0.000000000000000000000000000000000000001", "123456789012345678.9"]  # fmt: skip

UNSIGNED_CLAUSES = [
    "SELECT Name FROM Account LIMIT {n}",
    "SELECT Name FROM Account OFFSET {n}",
    "SELECT Name FROM Account ORDER BY Name LIMIT {n} OFFSET 1",
    "SELECT COUNT() FROM Account LIMIT {n}",
    "SELECT Industry, COUNT(Id) FROM Account GROUP BY Industry LIMIT {n}",
    "SELECT Name, (SELECT LastName FROM Contacts LIMIT {n}) FROM Account",
    "SELECT Name, (SELECT LastName FROM Contacts ORDER BY LastName LIMIT 1 OFFSET {n}) FROM Account",
    "SELECT Name FROM Account WHERE Id IN (SELECT AccountId FROM Contact LIMIT {n})",
    "SELECT FIELDS(ALL) FROM Account LIMIT {n}",
    "SELECT Name FROM Account WHERE CALENDAR_YEAR(CreatedDate) = {n}",
    "SELECT Industry, COUNT(Id) FROM Account GROUP BY Industry HAVING COUNT(Id) > {n}",
    *(f"SELECT Name FROM Account WHERE CreatedDate = {literal}:{{n}}" for literal in sorted(RELATIVE_DATES_WITH_N)),
    *(f"SELECT LastName FROM Contact WHERE Birthdate < {literal}:{{n}}" for literal in sorted(RELATIVE_DATES_WITH_N)),
]  # fmt: skip
SIGNED_CLAUSES = [
    "SELECT Name FROM Account WHERE NumberOfEmployees = {n}",
    "SELECT Name FROM Account WHERE NumberOfEmployees < {n}",
    "SELECT Name FROM Account WHERE AnnualRevenue >= {n}",
    "SELECT Name FROM Account WHERE AnnualRevenue IN (1, {n})",
    "SELECT Name FROM Survey__c WHERE Score__c != {n}",
    "SELECT Industry, SUM(NumberOfEmployees) FROM Account GROUP BY Industry HAVING SUM(NumberOfEmployees) < {n}",
    "SELECT Name FROM Account WHERE NOT (NumberOfEmployees > {n})",
    "SELECT Name FROM Account WHERE DISTANCE(BillingAddress, GEOLOCATION({n}, 0), 'km') < 5",
    "SELECT Name FROM Account WHERE DISTANCE(BillingAddress, GEOLOCATION(0, {n}), 'mi') > 5",
    "SELECT Name FROM Account WHERE DISTANCE(BillingAddress, GEOLOCATION(1.5, 2.5), 'mi') < {n}",
    "SELECT Name FROM Account ORDER BY DISTANCE(BillingAddress, GEOLOCATION({n}, {n}), 'km')",
]
CURRENCY_CLAUSES = ["SELECT Name FROM Account WHERE AnnualRevenue > USD{n}"]
DATES = ["0001-01-01", "9999-12-31", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00+14:00",
         "0001-01-01T00:00:00-14:00", "9999-12-31T23:59:59-14:00", "9999-12-31T23:59:59+14:00", "0000-01-01",
         "10000-01-01", "2024-02-29", "2023-02-29", "1700-01-01T00:00:00.999999999Z"]  # fmt: skip
DATE_CLAUSES = ["SELECT Name FROM Account WHERE CreatedDate > {d}", "SELECT LastName FROM Contact WHERE Birthdate = {d}",
                "SELECT LastName FROM Contact WHERE Birthdate IN ({d}, 2024-01-01)"]  # fmt: skip
SOSL_CLAUSES = [
    "FIND {{Acme}} RETURNING Account(Name LIMIT {n})",
    "FIND {{Acme}} RETURNING Account(Name OFFSET {n})",
    "FIND {{Acme}} RETURNING Account(Name) LIMIT {n}",
    "FIND {{Acme}} RETURNING Account(Name WHERE NumberOfEmployees < {n})",
    "FIND {{Acme}} RETURNING Account(Name WHERE CreatedDate = LAST_N_WEEKS:{n})",
]


def answers_or_refuses(call) -> None:
    try:
        body = call()
    except SalesforceError as err:
        assert err.status == 400, err.message
        assert err.error_code and err.error_code != "UNKNOWN_EXCEPTION", err.message
    else:
        assert isinstance(body, dict)


def signed(number: int | str) -> list[str]:
    return [str(number), f"-{number}"]


CASES = [
    *(t.format(n=n) for t, n in itertools.product(UNSIGNED_CLAUSES, BOUNDARIES)),
    *(
        t.format(n=v)
        for t, n in itertools.product(SIGNED_CLAUSES, [*BOUNDARIES, *DECIMALS])
        for v in signed(n)
    ),
    *(t.format(n=n) for t, n in itertools.product(CURRENCY_CLAUSES, BOUNDARIES)),
    *(t.format(d=d) for t, d in itertools.product(DATE_CLAUSES, DATES)),
]


@pytest.fixture(scope="module")
def org(built):
    return built[0]


def test_every_boundary_number_in_every_soql_clause(org):
    for text in CASES:
        answers_or_refuses(lambda text=text: soql.query(org, text))


def test_every_boundary_number_in_every_sosl_clause(org):
    for text in (t.format(n=n) for t, n in itertools.product(SOSL_CLAUSES, BOUNDARIES)):
        answers_or_refuses(lambda text=text: sosl.search(org, text))


def test_every_batch_size(org):
    for n in BOUNDARIES:
        answers_or_refuses(lambda n=n: soql.query(org, "SELECT Name FROM Account", batch_size=n))


def test_limits_past_the_integer_range_are_number_outside_valid_range(org):
    for text in ("SELECT Name FROM Account LIMIT 99999999999999999999999", "SELECT COUNT() FROM Account LIMIT 2147483648",
                 "SELECT Name, (SELECT LastName FROM Contacts LIMIT 9223372036854775808) FROM Account"):  # fmt: skip
        with pytest.raises(SalesforceError) as info:
            soql.query(org, text)
        assert (info.value.error_code, info.value.message) == (
            "NUMBER_OUTSIDE_VALID_RANGE",
            "Maximum SOQL limit allowed is 2147483647",
        )
    assert soql.query(org, "SELECT COUNT() FROM Account LIMIT 2147483647")["totalSize"] == 3


def test_a_relative_date_past_the_integer_range_is_refused_and_a_long_one_reaches_the_calendars_end(org):
    with pytest.raises(SalesforceError) as info:
        soql.query(org, "SELECT Name FROM Account WHERE CreatedDate = LAST_N_DAYS:99999999999")
    assert info.value.error_code == "NUMBER_OUTSIDE_VALID_RANGE"
    assert info.value.message.endswith("Maximum SOQL LAST_N_DAYS allowed is 2147483647")
    every = soql.query(org, "SELECT COUNT() FROM Account WHERE CreatedDate = LAST_N_DAYS:2147483647")
    assert every["totalSize"] == 3
    assert (
        soql.query(org, "SELECT COUNT() FROM Account WHERE CreatedDate = NEXT_N_YEARS:2147483647")[
            "totalSize"
        ]
        == 0
    )


def test_numbers_with_more_digits_than_a_decimal_holds_compare_as_numbers(org):
    body = soql.query(
        org, "SELECT Name FROM Account WHERE AnnualRevenue < USD99999999999999999999999999999999999"
    )
    assert [r["Name"] for r in body["records"]] == ["Acme Corp"]


@settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    template=st.sampled_from([*UNSIGNED_CLAUSES, *SIGNED_CLAUSES, *CURRENCY_CLAUSES]),
    number=st.one_of(st.integers(0, 10**45), st.integers(2**31 - 3, 2**31 + 3), st.integers(1990, 2010)),
)
def test_random_large_numbers_answer_or_are_refused(org, template, number):
    answers_or_refuses(lambda: soql.query(org, template.format(n=number)))
