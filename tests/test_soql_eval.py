"""Execution-based comparison of predicted and gold SOQL/SOSL (crmarena_sf.soql_eval): each rule with pairs that
must match and pairs that must not (the BIRD/Spider way: results, not text)."""

from __future__ import annotations

import pytest
from crmarena_sf.loaders.generate import generate
from crmarena_sf.tasks.soql_eval import compare, has_top_level_order_by

import crmarena_sf


@pytest.fixture(scope="module")
def sf(tmp_path_factory):
    dataset = generate(tmp_path_factory.mktemp("eval") / "ds", profile="tiny", seed=0)
    return crmarena_sf.connect(org=str(dataset))


CASES = "FROM Case WHERE Priority = 'High'"

MATCHING = [
    pytest.param(f"SELECT Status, Subject {CASES}", f"SELECT Subject, Status {CASES}", id="field order"),
    pytest.param(
        "SELECT Status s, COUNT(Id) n FROM Case GROUP BY Status",
        "SELECT Status, COUNT(Id) FROM Case GROUP BY Status",
        id="aggregate aliases",
    ),
    pytest.param(
        f"SELECT Subject {CASES} ORDER BY Subject DESC",
        f"SELECT Subject {CASES}",
        id="row order without gold ORDER BY",
    ),
    pytest.param(
        f"SELECT Subject {CASES} ORDER BY CreatedDate",
        f"SELECT Subject {CASES} ORDER BY CreatedDate ASC",
        id="same order",
    ),
    pytest.param("SELECT COUNT(Id) FROM Case", "SELECT COUNT() FROM Case", id="COUNT(Id) for COUNT()"),
    pytest.param("SELECT COUNT() FROM Case", "SELECT COUNT(Id) total FROM Case", id="COUNT() for COUNT(Id)"),
    pytest.param(
        "SELECT (SELECT Subject FROM Cases ORDER BY Subject DESC), Name FROM Account WHERE ShippingState = 'CA'",
        "SELECT Name, (SELECT Subject FROM Cases) FROM Account WHERE ShippingState = 'CA'",
        id="child records as a set per parent",
    ),
    pytest.param(
        "SELECT Account.ShippingState FROM Case WHERE Status = 'New'",
        "SELECT Contact.Account.ShippingState FROM Case WHERE Status = 'New'",
        id="a parent path reached another way",
    ),
    pytest.param(
        "FIND {jacket} IN ALL FIELDS RETURNING Product2(Name, Id)",
        "FIND {jacket} IN ALL FIELDS RETURNING Product2(Id, Name)",
        id="SOSL fields in another order",
    ),
    pytest.param(
        "  select subject from case where priority = 'High'  ",
        f"SELECT Subject {CASES}",
        id="keyword case and spaces",
    ),
]

NOT_MATCHING = [
    pytest.param(
        f"SELECT Subject {CASES}",
        f"SELECT Subject, Status {CASES}",
        "1 column(s) returned, 2 expected",
        id="a missing column",
    ),
    pytest.param(
        f"SELECT Id, Subject {CASES}",
        f"SELECT Subject {CASES}",
        "2 column(s) returned, 1 expected",
        id="an extra column",
    ),
    pytest.param(
        "SELECT Subject FROM Case WHERE Priority = 'Low'",
        f"SELECT Subject {CASES}",
        "row(s) returned",
        id="other rows",
    ),
    pytest.param(
        f"SELECT Subject {CASES} ORDER BY CreatedDate DESC",
        f"SELECT Subject {CASES} ORDER BY CreatedDate",
        "another order",
        id="row order when the gold has ORDER BY",
    ),
    pytest.param(
        "SELECT COUNT() FROM Case WHERE Status = 'New'",
        "SELECT COUNT() FROM Case",
        "count ",
        id="another count",
    ),
    pytest.param(
        "SELECT Subject FROM Case LIMIT 1",
        "SELECT COUNT() FROM Case",
        "a count was expected",
        id="records for a count",
    ),
    pytest.param(
        "SELECT Name, (SELECT Subject FROM Cases LIMIT 1) FROM Account WHERE ShippingState = 'CA'",
        "SELECT Name, (SELECT Subject FROM Cases) FROM Account WHERE ShippingState = 'CA'",
        "",
        id="a child record missing",
    ),
    pytest.param(
        "FIND {jacket} IN ALL FIELDS RETURNING Product2(Name), Knowledge__kav(Title)",
        "FIND {jacket} IN ALL FIELDS RETURNING Product2(Name)",
        "",
        id="SOSL returning more objects",
    ),
    pytest.param(
        "SELECT Nope FROM Case",
        "SELECT Id FROM Case LIMIT 1",
        "INVALID_FIELD: ",
        id="a failing query keeps its error",
    ),
    pytest.param("SELEC Id FROM Case", "SELECT Id FROM Case LIMIT 1", "MALFORMED_QUERY: ", id="malformed"),
    pytest.param("", "SELECT Id FROM Case LIMIT 1", "no query was given", id="no answer"),
]


@pytest.mark.parametrize(("predicted", "gold"), MATCHING)
def test_results_that_are_the_same_match(sf, predicted, gold):
    verdict = compare(sf, predicted, gold)
    assert verdict.match and verdict.reason == "", verdict


@pytest.mark.parametrize(("predicted", "gold", "reason"), NOT_MATCHING)
def test_results_that_differ_do_not_match_and_say_why(sf, predicted, gold, reason):
    verdict = compare(sf, predicted, gold)
    assert not verdict.match and reason in verdict.reason and verdict.reason, verdict


def test_a_gold_query_that_fails_is_a_broken_task(sf):
    from simple_salesforce.exceptions import SalesforceMalformedRequest

    with pytest.raises(SalesforceMalformedRequest):
        compare(sf, "SELECT Id FROM Case", "SELECT Nope FROM Case")


class FakeOrg:
    """Results given by hand, for rules the data rarely shows (numbers, nulls)."""

    def __init__(self, answers):
        self.answers = answers

    def query(self, soql):
        records = self.answers[soql]
        return {"totalSize": len(records), "done": True, "records": records}


def test_numbers_compare_by_value_and_nulls_are_values():
    org = FakeOrg(
        {
            "p": [{"attributes": {}, "expr0": 2, "Account": None}],
            "g": [{"attributes": {}, "total": 2.0, "Account": None}],
            "h": [{"attributes": {}, "total": 2.5, "Account": None}],
        }
    )
    assert compare(org, "p", "g").match
    assert not compare(org, "p", "h").match


def test_only_a_top_level_order_by_makes_row_order_matter():
    assert has_top_level_order_by("SELECT Name FROM Account ORDER BY Name")
    assert not has_top_level_order_by(
        "SELECT Name, (SELECT Subject FROM Cases ORDER BY Subject) FROM Account"
    )
    assert not has_top_level_order_by("SELECT Name FROM Account WHERE Name = 'x ORDER BY y'")
