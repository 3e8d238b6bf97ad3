"""``GET query?explain=``: the plans of a query, a list view or a report, computed from the emulator's own plan.

References: REST API Developer Guide, "Query" (the explain parameter,
https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_query.htm) and
"Get Feedback on Query Performance" (dome_query_explain.htm: plans[] with cardinality, fields,
leadingOperationType, notes, relativeCost, sobjectCardinality, sobjectType, best first); SOQL and
SOSL Reference, "Working with Very Large SOQL Queries" (which fields are indexed, the selectivity
threshold).
"""

from __future__ import annotations

import pytest
from simple_salesforce.exceptions import SalesforceMalformedRequest

from crmarena_sf import connect


@pytest.fixture
def sf():
    sf = connect("blank")
    for i in range(4):
        sf.Account.create({"Name": f"Energy {i}", "Industry": "Energy"})
    sf.Account.create({"Name": "Acme"})
    return sf


def _explain(sf, value: str) -> dict:
    return sf.restful("query", params={"explain": value})


def test_an_indexed_lookup_is_an_index_plan_ahead_of_the_scan(sf):
    plans = _explain(sf, "SELECT Id FROM Account WHERE Name = 'Acme'")["plans"]
    assert [p["leadingOperationType"] for p in plans] == ["Index", "TableScan"]
    index, scan = plans
    assert (index["fields"], index["cardinality"], index["sobjectCardinality"], index["sobjectType"]) == (
        ["Name"], 1, 5, "Account",
    )  # fmt: skip
    assert index["relativeCost"] < 1 < scan["relativeCost"]
    assert set(index) == {
        "cardinality", "fields", "leadingOperationType", "notes", "relativeCost", "sobjectCardinality", "sobjectType",
    }  # fmt: skip


def test_a_filter_on_an_unindexed_field_is_a_table_scan_with_a_note(sf):
    [scan] = _explain(sf, "SELECT Id FROM Account WHERE Industry = 'Energy'")["plans"]
    assert (scan["leadingOperationType"], scan["cardinality"], scan["fields"]) == ("TableScan", 4, [])
    assert scan["notes"] == [
        {
            "description": "Not considering filter for optimization because unindexed",
            "fields": ["Industry"],
            "tableEnumOrId": "Account",
        }
    ]


def test_a_list_view_id_explains_its_query(sf):
    view = sf.restful("sobjects/Account/listviews")["listviews"][0]
    explained = _explain(sf, view["id"])
    described = sf.restful(f"sobjects/Account/listviews/{view['id']}/describe")
    assert explained["sourceQuery"] == described["query"]
    assert explained["plans"][0]["cardinality"] == 5


def test_an_unknown_id_is_invalid_id_and_a_bad_query_is_the_querys_error(sf):
    with pytest.raises(SalesforceMalformedRequest) as unknown:
        _explain(sf, "00B000000000000AAA")
    assert unknown.value.content[0]["errorCode"] == "INVALID_ID"
    with pytest.raises(SalesforceMalformedRequest) as bad:
        _explain(sf, "SELECT Nope FROM Account")
    assert bad.value.content[0]["errorCode"] == "INVALID_FIELD"
