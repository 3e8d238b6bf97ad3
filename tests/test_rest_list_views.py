"""List views over REST: the standard views a new org has, their describe, their results and the recent ones.

References: REST API Developer Guide, "List Views for an Object"
(https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_listviews.htm),
"List View Describe" (resources_listviewdescribe.htm), "List View Results"
(resources_listviewresults.htm: limit 1-2000, default 25; offset), "Recent List Views"
(resources_recentlistviews.htm); SOAP API Developer Guide, "DescribeSoqlListView" and
"ExecuteListViewResult" for the documents' keys.
"""

from __future__ import annotations

import pytest
from simple_salesforce.exceptions import SalesforceResourceNotFound

from crmarena_sf import connect


@pytest.fixture
def sf():
    return connect("blank")


def _views(sf, name: str) -> dict[str, dict]:
    return {view["developerName"]: view for view in sf.restful(f"sobjects/{name}/listviews")["listviews"]}


def test_a_new_org_has_the_guides_standard_account_list_views(sf):
    listing = sf.restful("sobjects/Account/listviews")
    assert (listing["done"], listing["size"], listing["nextRecordsUrl"]) == (True, 4, None)
    views = _views(sf, "Account")
    assert {name: view["label"] for name, view in views.items()} == {
        "AllAccounts": "All Accounts",
        "MyAccounts": "My Accounts",
        "NewThisWeek": "New This Week",
        "NewLastWeek": "New Last Week",
    }
    view = views["NewThisWeek"]
    assert view["id"].startswith("00B") and view["soqlCompatible"] is True
    assert (
        view["resultsUrl"]
        == f"/services/data/v{sf.sf_version}/sobjects/Account/listviews/{view['id']}/results"
    )
    assert sf.restful(f"sobjects/Account/listviews/{view['id']}")["developerName"] == "NewThisWeek"
    assert {"AllContacts", "AllOpportunities", "AllCases", "AllLeads"} <= {
        name for other in ("Contact", "Opportunity", "Case", "Lead") for name in _views(sf, other)
    }


def test_describe_gives_columns_order_query_scope_and_where_condition(sf):
    views = _views(sf, "Account")
    described = sf.restful(f"sobjects/Account/listviews/{views['NewThisWeek']['id']}/describe")
    assert described["sobjectType"] == "Account" and described["scope"] == "everything"
    assert described["whereCondition"] == {
        "field": "CreatedDate",
        "operator": "equals",
        "values": ["THIS_WEEK"],
    }
    columns = {c["fieldNameOrPath"]: c for c in described["columns"]}
    assert columns["Name"]["sortDirection"] == "ascending" and columns["Name"]["hidden"] is False
    assert columns["Id"]["hidden"] is True and columns["Type"]["selectListItem"] == "toLabel(Type)"
    assert described["orderBy"][0] == {
        "fieldNameOrPath": "Name",
        "nullsPosition": "first",
        "sortDirection": "ascending",
    }
    assert "WHERE CreatedDate = THIS_WEEK" in described["query"]
    # the describe's query is SOQL the org runs
    assert sf.query(described["query"])["totalSize"] == 0
    mine = sf.restful(f"sobjects/Account/listviews/{views['MyAccounts']['id']}/describe")
    assert mine["scope"] == "mine" and "USING SCOPE mine" in mine["query"] and mine["whereCondition"] is None


def test_results_are_the_orgs_rows_as_strings_paged_by_limit_and_offset(sf):
    for name in ("Gamma", "Alpha", "Beta"):
        sf.Account.create({"Name": name, "BillingState": "CA", "Type": "Prospect"})
    view = _views(sf, "Account")["AllAccounts"]
    results = sf.restful(f"sobjects/Account/listviews/{view['id']}/results")
    assert (results["developerName"], results["label"], results["size"], results["done"]) == (
        "AllAccounts", "All Accounts", 3, True,
    )  # fmt: skip
    rows = [{c["fieldNameOrPath"]: c["value"] for c in r["columns"]} for r in results["records"]]
    assert [r["Name"] for r in rows] == ["Alpha", "Beta", "Gamma"]
    assert rows[0]["BillingState"] == "CA" and rows[0]["Owner.Alias"] and rows[0]["Site"] is None
    assert [c["fieldNameOrPath"] for c in results["columns"]] == list(rows[0])
    page = sf.restful(f"sobjects/Account/listviews/{view['id']}/results", params={"limit": 1, "offset": 1})
    assert [r["columns"][0]["value"] for r in page["records"]] == ["Beta"] and page["done"] is False


def test_recent_lists_the_views_used_most_recent_first(sf):
    assert sf.restful("sobjects/Account/listviews/recent")["listviews"] == []
    views = _views(sf, "Account")
    sf.restful(f"sobjects/Account/listviews/{views['AllAccounts']['id']}/results")
    sf.restful(f"sobjects/Account/listviews/{views['NewLastWeek']['id']}/describe")
    recent = sf.restful("sobjects/Account/listviews/recent")
    assert [v["developerName"] for v in recent["listviews"]] == ["NewLastWeek", "AllAccounts"]
    assert sf.restful("sobjects/Contact/listviews/recent")["size"] == 0


def test_unknown_list_views_and_objects_are_not_found(sf):
    contact_view = _views(sf, "Contact")["AllContacts"]["id"]
    for path in (
        "sobjects/Account/listviews/00B000000000000AAA/describe",
        f"sobjects/Account/listviews/{contact_view}/results",  # another object's view
        "sobjects/NoSuchObject__c/listviews",
    ):
        with pytest.raises(SalesforceResourceNotFound):
            sf.restful(path)
