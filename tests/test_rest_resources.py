"""The smaller REST resources clients call: layouts, replication, recent, parameterized search,
composite batch and graph, record counts, the Tooling API at login, query columns, and 404s.

References: REST API Developer Guide resources_sobject_layouts.htm, resources_compact_layouts.htm,
resources_getupdated.htm, resources_getdeleted.htm, resources_recent_items.htm,
resources_search_parameterized.htm, resources_composite_batch.htm, resources_composite_graph.htm,
resources_record_count.htm, resources_composite_sobjects_collections_retrieve.htm,
resources_query.htm; Tooling API Developer Guide intro_rest_resources.htm.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from simple_salesforce.exceptions import SalesforceMalformedRequest, SalesforceResourceNotFound

from crmarena_sf import connect
from crmarena_sf.connection.connect import emulated_org


@pytest.fixture
def sf():
    return connect("blank")


def _post(sf, path: str, body) -> object:
    return sf.restful(path, method="POST", data=json.dumps(body))


def test_layouts_list_fields_related_lists_and_record_type_mappings(sf):
    layouts = sf.restful("sobjects/Contact/describe/layouts")
    [layout] = layouts["layouts"]
    items = [
        item["layoutComponents"][0]["value"]
        for row in layout["detailLayoutSections"][0]["layoutRows"]
        for item in row["layoutItems"]
    ]
    assert "Name" in items and "AccountId" in items and "Id" not in items and "LastName" not in items
    assert {rl["name"] for rl in layout["relatedLists"]} >= {"Cases"}
    [master] = layouts["recordTypeMappings"]
    assert master["master"] is True and master["recordTypeId"] == "012000000000000AAA"
    assert sf.Contact.describe_layout("012000000000000AAA")["id"] == layout["id"]
    compact = sf.restful("sobjects/Contact/describe/compactLayouts")
    assert compact["compactLayouts"][0]["name"] == "SYSTEM"
    assert compact["compactLayouts"][0]["fieldItems"][0]["layoutComponents"][0]["value"] == "Name"
    assert sf.restful("sobjects/Contact/describe/compactLayouts/primary")["objectType"] == "Contact"


def test_updated_and_deleted_cover_the_window(sf):
    org = emulated_org(sf)
    org.clock.freeze(dt.datetime(2026, 3, 2, 12, 0, 30))
    record_id = sf.Account.create({"Name": "Replicated"})["id"]
    start, end = dt.datetime(2026, 3, 2, 11, 0, tzinfo=dt.UTC), dt.datetime(2026, 3, 2, 12, 5, tzinfo=dt.UTC)
    assert sf.Account.updated(start, end) == {
        "ids": [record_id],
        "latestDateCovered": "2026-03-02T12:00:00.000+0000",
    }
    org.clock.freeze(dt.datetime(2026, 3, 2, 12, 1, 10))
    sf.Account.delete(record_id)
    deleted = sf.Account.deleted(start, end)
    assert deleted["deletedRecords"] == [{"id": record_id, "deletedDate": "2026-03-02T12:01:10.000+0000"}]
    assert sf.Account.updated(start, end)["ids"] == []
    with pytest.raises(SalesforceMalformedRequest) as reversed_window:
        sf.Account.updated(end, start)
    assert reversed_window.value.content[0]["errorCode"] == "INVALID_REPLICATION_DATE"
    with pytest.raises(SalesforceMalformedRequest):
        sf.Account.updated(start - dt.timedelta(days=40), end)


def test_recent_and_record_counts(sf):
    sf.Account.create({"Name": "Counted"})
    assert sf.session.get(f"{sf.base_url}recent", headers=sf.headers).json() == []
    counts = sf.restful("limits/recordCount", params={"sObjects": "Account,Contact,Nope"})
    assert counts == {"sObjects": [{"count": 1, "name": "Account"}, {"count": 0, "name": "Contact"}]}
    assert {"count": 1, "name": "Account"} in sf.restful("limits/recordCount")["sObjects"]


def test_parameterized_search_by_get_and_post(sf):
    sf.Account.create({"Name": "Globex Corporation"})
    sf.Contact.create({"LastName": "Globex"})
    found = sf.restful(
        "parameterizedSearch", params={"q": "Globex", "sobject": "Account", "Account.fields": "Id,Name"}
    )
    assert [r["Name"] for r in found["searchRecords"]] == ["Globex Corporation"]
    posted = _post(
        sf,
        "parameterizedSearch",
        {"q": "Glob*", "in": "NAME", "sobjects": [{"name": "Contact", "fields": ["LastName"]}]},
    )
    assert [r["LastName"] for r in posted["searchRecords"]] == ["Globex"]
    braces = sf.restful("parameterizedSearch", params={"q": "a}b", "sobject": "Account"})
    assert braces is None or braces["searchRecords"] == []


def test_composite_batch_runs_each_subrequest_and_halts_on_request(sf):
    record_id = sf.Account.create({"Name": "Batch"})["id"]
    answer = _post(
        sf,
        "composite/batch",
        {
            "batchRequests": [
                {
                    "method": "PATCH",
                    "url": f"v62.0/sobjects/Account/{record_id}",
                    "richInput": {"Name": "Batched"},
                },
                {"method": "GET", "url": f"v62.0/sobjects/Account/{record_id}?fields=Name"},
                {"method": "GET", "url": "v62.0/sobjects/Account/001000000000000AAA"},
            ]
        },
    )
    assert answer["hasErrors"] is True
    assert [r["statusCode"] for r in answer["results"]] == [204, 200, 404]
    assert answer["results"][1]["result"]["Name"] == "Batched"
    halted = _post(
        sf,
        "composite/batch",
        {
            "haltOnError": True,
            "batchRequests": [
                {"method": "POST", "url": "v62.0/sobjects/Account", "richInput": {}},
                {"method": "POST", "url": "v62.0/sobjects/Account", "richInput": {"Name": "Never"}},
            ],
        },
    )
    assert [r["statusCode"] for r in halted["results"]] == [400, 412]
    assert halted["results"][1]["result"] == [
        {"errorCode": "BATCH_PROCESSING_HALTED", "message": "Batch processing halted per request"}
    ]
    assert sf.query("SELECT COUNT() FROM Account")["totalSize"] == 1


def test_composite_graph_keeps_each_graph_all_or_nothing(sf):
    def graph(graph_id, contact):
        return {
            "graphId": graph_id,
            "compositeRequest": [
                {
                    "method": "POST",
                    "url": "/services/data/v62.0/sobjects/Account",
                    "referenceId": "a",
                    "body": {"Name": graph_id},
                },
                {
                    "method": "POST",
                    "url": "/services/data/v62.0/sobjects/Contact",
                    "referenceId": "c",
                    "body": contact,
                },
            ],
        }

    answer = _post(
        sf,
        "composite/graph",
        {
            "graphs": [
                graph("good", {"LastName": "Doe", "AccountId": "@{a.id}"}),
                graph("bad", {"AccountId": "@{a.id}"}),
            ]
        },
    )
    assert [(g["graphId"], g["isSuccessful"]) for g in answer["graphs"]] == [("good", True), ("bad", False)]
    bad = answer["graphs"][1]["graphResponse"]["compositeResponse"]
    assert bad[0]["body"][0]["errorCode"] == "PROCESSING_HALTED"
    assert [r["Name"] for r in sf.query("SELECT Name FROM Account")["records"]] == ["good"]


def test_tooling_query_and_sobjects_answer_login_time_questions(sf):
    sandboxes = sf.toolingexecute("query", params={"q": "SELECT Id, Status FROM SandboxProcess"})
    assert sandboxes == {
        "size": 0,
        "totalSize": 0,
        "done": True,
        "queryLocator": None,
        "entityTypeName": "SandboxProcess",
        "records": [],
    }
    users = sf.toolingexecute("query", params={"q": "SELECT Id, Username FROM User"})
    assert users["entityTypeName"] == "User" and users["records"][0]["attributes"]["url"].startswith(
        "/services/data/v62.0/tooling/sobjects/User/"
    )
    with pytest.raises(SalesforceMalformedRequest) as unknown:
        sf.toolingexecute("query", params={"q": "SELECT Id FROM Nope"})
    assert unknown.value.content[0]["errorCode"] == "INVALID_TYPE"
    assert "SandboxProcess" in {o["name"] for o in sf.toolingexecute("sobjects")["sobjects"]}


def test_query_columns_describe_fields_relationships_subqueries_and_aggregates(sf):
    columns = sf.restful(
        "query",
        params={
            "q": "SELECT Id, Name, Owner.Name, (SELECT LastName FROM Contacts) FROM Account",
            "columns": "true",
        },
    )
    assert (columns["entityName"], columns["idSelected"], columns["keyPrefix"]) == ("Account", True, "001")
    names = [c["columnName"] for c in columns["columnMetadata"]]
    assert names == ["Id", "Name", "Owner", "Contacts"]
    owner, contacts = columns["columnMetadata"][2], columns["columnMetadata"][3]
    assert owner["joinColumns"][0]["columnName"] == "Name" and owner["aggregate"] is False
    assert contacts["aggregate"] is True and contacts["joinColumns"][0]["columnName"] == "LastName"
    grouped = sf.restful(
        "query",
        params={
            "q": "SELECT Industry, COUNT(Id) total, MAX(NumberOfEmployees) FROM Account GROUP BY Industry",
            "columns": "true",
        },
    )
    assert grouped["groupBy"] is True
    assert [(c["columnName"], c["displayName"], c["aggregate"]) for c in grouped["columnMetadata"]] == [
        ("Industry", "Industry", False),
        ("total", "COUNT(Id)", True),
        ("expr0", "MAX(NumberOfEmployees)", True),
    ]
    with pytest.raises(SalesforceMalformedRequest) as bad:
        sf.restful("query", params={"q": "SELECT Nope__c FROM Account", "columns": "true"})
    assert bad.value.content[0]["errorCode"] == "INVALID_FIELD"


def test_collection_retrieve_by_post_and_unknown_sub_resources_are_404(sf):
    record_id = sf.Account.create({"Name": "Posted"})["id"]
    records = _post(
        sf, "composite/sobjects/Account", {"ids": [record_id, "001000000000000AAA"], "fields": ["Name"]}
    )
    assert records[0]["Name"] == "Posted" and records[1] is None
    for path in (
        "sobjects/Account/quickActions",  # quick actions are not emulated
        "sobjects/Account/describe/approvalLayouts/NoSuchProcess",
        f"sobjects/Account/{record_id}/NoSuchThing",
    ):
        with pytest.raises(SalesforceResourceNotFound) as missing:
            sf.restful(path)
        assert missing.value.content == [
            {"message": "The requested resource does not exist", "errorCode": "NOT_FOUND"}
        ]
    with pytest.raises(SalesforceResourceNotFound) as not_a_key:
        sf.restful("sobjects/Account/Nope__c/1")
    assert "Provided external ID field does not exist" in not_a_key.value.content[0]["message"]


def test_relationship_traversal_reads_children_and_the_parent(sf):
    account = sf.Account.create({"Name": "Parent"})["id"]
    contact = sf.Contact.create({"LastName": "Kid", "AccountId": account})["id"]
    children = sf.restful(f"sobjects/Account/{account}/Contacts", params={"fields": "LastName"})
    assert children["totalSize"] == 1 and children["records"][0]["LastName"] == "Kid"
    parent = sf.restful(f"sobjects/Contact/{contact}/Account", params={"fields": "Name"})
    assert parent == {
        "attributes": {"type": "Account", "url": f"/services/data/v62.0/sobjects/Account/{account}"},
        "Name": "Parent",
    }
    orphan = sf.Contact.create({"LastName": "Orphan"})["id"]
    with pytest.raises(SalesforceResourceNotFound):
        sf.restful(f"sobjects/Contact/{orphan}/Account")
