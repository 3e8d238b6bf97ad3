"""SOQL functions: one registry entry that the parser, binder and translator all read.

Sources: SOQL and SOSL Reference, "Aggregate Functions", "Date Functions", "FORMAT()"
(https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_soql_select_format.htm:
``SELECT FORMAT(MIN(closedate)) Amt FROM opportunity``), "toLabel()".
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import soql
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.soql.functions import Typed, lookup, registry
from crmarena_sf.emulator.soql.plans import clear_caches
from sqlglot import exp


def error_of(org, text: str) -> SalesforceError:
    with pytest.raises(SalesforceError) as info:
        soql.query(org, text)
    assert info.value.status == 400
    return info.value


@pytest.fixture
def negate(monkeypatch):
    """A function SOQL lacks, added for one test as a single registry entry."""
    entries = dict(registry._REGISTRY)
    monkeypatch.setattr(registry, "_REGISTRY", entries)

    def translate(call: registry.Call) -> Typed:
        inner = call.arg()
        return Typed(exp.Neg(this=inner.sql), inner.type, inner.field)

    registry.register(registry.SoqlFunction("TEST_NEGATE", (registry.OPERAND,), translate))
    clear_caches()
    yield
    clear_caches()


def test_a_new_function_is_one_registry_entry(built, negate):
    org, _ = built
    body = soql.query(org, "SELECT Name FROM Account WHERE test_negate(NumberOfEmployees) < -100")
    assert [r["Name"] for r in body["records"]] == ["Acme Corp"]
    body = soql.query(org, "SELECT Name FROM Account ORDER BY TEST_NEGATE(NumberOfEmployees) NULLS LAST")
    assert [r["Name"] for r in body["records"]][0] == "Acme Corp"


def test_a_name_outside_the_registry_is_a_syntax_error_at_its_parenthesis(built):
    org, _ = built
    assert lookup("test_negate") is None
    err = error_of(org, "SELECT Name FROM Account WHERE TEST_NEGATE(NumberOfEmployees) < -100")
    assert err.message.endswith("unexpected token: '('")


@pytest.mark.parametrize(
    "text, token",
    [
        ("SELECT CALENDAR_YEAR() FROM Case", ")"),
        ("SELECT COUNT(Id, Subject) FROM Case", ","),
        ("SELECT toLabel(COUNT(Id)) FROM Case", "("),
        ("SELECT Subject FROM Case WHERE CALENDAR_YEAR(MAX(CreatedDate)) > 1", "("),
    ],
)
def test_arguments_the_entry_does_not_take_are_syntax_errors(built, text, token):
    org, _ = built
    assert error_of(org, text).message.endswith(f"unexpected token: '{token}'")


def test_format_of_an_aggregate_is_formatted_like_the_reference_example(built):
    org, _ = built
    record = soql.query(org, "SELECT FORMAT(MIN(CreatedDate)) Amt, FORMAT(SUM(AnnualRevenue)) FROM Account")[
        "records"
    ][0]
    assert record == {
        "attributes": {"type": "AggregateResult"},
        "Amt": "5/15/2024, 12:00 PM",
        "expr0": "$1,501.00",
    }


def test_every_function_of_the_reference_is_registered():
    documented = (
        "COUNT COUNT_DISTINCT SUM AVG MIN MAX GROUPING CALENDAR_MONTH CALENDAR_QUARTER CALENDAR_YEAR "
        "DAY_IN_MONTH DAY_IN_WEEK DAY_IN_YEAR DAY_ONLY FISCAL_MONTH FISCAL_QUARTER FISCAL_YEAR HOUR_IN_DAY "
        "WEEK_IN_MONTH WEEK_IN_YEAR convertTimezone toLabel FORMAT convertCurrency DISTANCE GEOLOCATION FORMULA"
    ).split()
    assert all(lookup(name) is not None for name in documented)
