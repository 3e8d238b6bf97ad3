"""composite, composite/sobjects and composite/tree through ``sf.restful`` (simple-salesforce has no composite API).

References: REST API Developer Guide resources_composite_composite.htm and
resources_composite_subrequest_result.htm (references, allOrNone, PROCESSING_HALTED),
resources_composite_sobjects_collections_*.htm (SaveResults, EXCEEDED_ID_LIMIT,
ALL_OR_NONE_OPERATION_ROLLED_BACK), resources_composite_sobject_tree.htm.
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator.store.org import Org
from simple_salesforce.exceptions import SalesforceMalformedRequest

from crmarena_sf import connect
from crmarena_sf.connection.connect import emulated_org

V = "/services/data/v62.0"


@pytest.fixture
def sf():
    return connect("blank")


def _composite(sf, subrequests, all_or_none=False):
    return sf.restful(
        "composite", method="POST", json={"allOrNone": all_or_none, "compositeRequest": subrequests}
    )["compositeResponse"]


def test_composite_resolves_references_between_subrequests(sf):
    results = _composite(
        sf,
        [
            {
                "method": "POST",
                "url": f"{V}/sobjects/Account",
                "referenceId": "acct",
                "body": {"Name": "Acme"},
            },
            {"method": "GET", "url": f"{V}/sobjects/Account/@{{acct.id}}?fields=Name", "referenceId": "read"},
            {
                "method": "POST",
                "url": f"{V}/sobjects/Contact",
                "referenceId": "person",
                "body": {"LastName": "@{read.Name} Owner", "AccountId": "@{acct.id}"},
            },
        ],
    )
    created, read, person = results
    assert created["httpStatusCode"] == 201 and created["referenceId"] == "acct"
    assert created["httpHeaders"] == {"Location": f"{V}/sobjects/Account/{created['body']['id']}"}
    assert read["httpStatusCode"] == 200 and read["body"]["Name"] == "Acme" and read["httpHeaders"] == {}
    contact = sf.Contact.get(person["body"]["id"])
    assert contact["LastName"] == "Acme Owner" and contact["AccountId"] == created["body"]["id"]


def test_a_reference_to_a_failed_subrequest_is_processing_halted(sf):
    results = _composite(
        sf,
        [
            {"method": "POST", "url": f"{V}/sobjects/Account", "referenceId": "bad", "body": {"Nme": "typo"}},
            {
                "method": "POST",
                "url": f"{V}/sobjects/Contact",
                "referenceId": "c",
                "body": {"LastName": "x", "AccountId": "@{bad.id}"},
            },
            {"method": "POST", "url": f"{V}/sobjects/Account", "referenceId": "ok", "body": {"Name": "Kept"}},
        ],
    )
    assert results[0]["httpStatusCode"] == 400 and results[0]["body"][0]["errorCode"] == "INVALID_FIELD"
    assert results[1]["httpStatusCode"] == 400
    assert results[1]["body"][0]["errorCode"] == "PROCESSING_HALTED"
    assert (
        results[1]["body"][0]["message"] == "Invalid reference specified. No value for bad.id found in bad."
    )
    assert results[2]["httpStatusCode"] == 201
    assert emulated_org(sf).count("Account") == 1


@pytest.mark.parametrize("forked", [False, True], ids=["new org", "fork of an org"])
def test_all_or_none_rolls_everything_back_and_halts_the_others(forked):
    base = Org.new()
    org = base.fork() if forked else base
    sf = connect(org)
    results = _composite(
        sf,
        [
            {"method": "POST", "url": f"{V}/sobjects/Account", "referenceId": "a1", "body": {"Name": "One"}},
            {
                "method": "POST",
                "url": f"{V}/sobjects/Contact",
                "referenceId": "c1",
                "body": {"LastName": "L", "AccountId": "@{a1.id}"},
            },
            {
                "method": "POST",
                "url": f"{V}/sobjects/Contact",
                "referenceId": "bad",
                "body": {"Email": "not an email", "LastName": "x"},
            },
            {
                "method": "POST",
                "url": f"{V}/sobjects/Account",
                "referenceId": "a2",
                "body": {"Name": "Never"},
            },
        ],
        all_or_none=True,
    )
    codes = [r["httpStatusCode"] for r in results]
    assert codes == [400, 400, 400, 400]
    assert results[2]["body"][0]["errorCode"] == "INVALID_EMAIL_ADDRESS"
    for index in (0, 1, 3):
        assert results[index]["body"] == [
            {
                "message": "The transaction was rolled back since another operation in the same transaction failed.",
                "errorCode": "PROCESSING_HALTED",
            }
        ]
    assert org.count("Account") == 0 and org.count("Contact") == 0
    # The org stays usable after the rollback (a fork reads its parent's tables again).
    assert sf.Account.create({"Name": "After"})["success"] is True
    assert org.count("Account") == 1 and base.count("Account") == (0 if forked else 1)


def test_composite_can_query_and_use_the_rows(sf):
    sf.Account.create({"Name": "Queried"})
    results = _composite(
        sf,
        [
            {
                "method": "GET",
                "url": f"{V}/query?q=SELECT+Id+FROM+Account+WHERE+Name+%3D+'Queried'",
                "referenceId": "q",
            },
            {
                "method": "PATCH",
                "url": f"{V}/sobjects/Account/@{{q.records[0].Id}}",
                "referenceId": "u",
                "body": {"Name": "Renamed"},
            },
        ],
    )
    assert [r["httpStatusCode"] for r in results] == [200, 204]
    assert results[1]["body"] is None


# ---------------------------------------------------------------------------- collections
def test_collection_create_update_retrieve_delete(sf):
    created = sf.restful(
        "composite/sobjects",
        method="POST",
        json={
            "allOrNone": False,
            "records": [
                {"attributes": {"type": "Account"}, "Name": "A"},
                {"attributes": {"type": "Contact"}, "LastName": "B"},
                {"attributes": {"type": "Contact"}, "FirstName": "no last name"},
            ],
        },
    )
    assert created[0]["success"] and created[1]["success"]
    assert created[2] == {
        "success": False,
        "errors": [
            {
                "statusCode": "REQUIRED_FIELD_MISSING",
                "message": "Required fields are missing: [LastName]",
                "fields": ["LastName"],
            }
        ],
    }
    account_id, contact_id = created[0]["id"], created[1]["id"]
    updated = sf.restful(
        "composite/sobjects",
        method="PATCH",
        json={"records": [{"attributes": {"type": "Account"}, "Id": account_id, "Name": "A2"}]},
    )
    assert updated == [{"id": account_id, "success": True, "errors": []}]
    fetched = sf.restful(
        "composite/sobjects/Account", params={"ids": f"{account_id},001Em000000099ZIAQ", "fields": "Name"}
    )
    assert fetched[0]["Name"] == "A2" and fetched[0]["attributes"]["type"] == "Account" and fetched[1] is None
    deleted = sf.restful("composite/sobjects", method="DELETE", params={"ids": f"{account_id},{contact_id}"})
    assert [d["success"] for d in deleted] == [True, True]
    assert emulated_org(sf).count("Account") == 0


def test_collection_all_or_none_rolls_back_with_salesforces_error(sf):
    results = sf.restful(
        "composite/sobjects",
        method="POST",
        json={
            "allOrNone": True,
            "records": [
                {"attributes": {"type": "Account"}, "Name": "Kept?"},
                {"attributes": {"type": "Account"}},
            ],
        },
    )
    assert results[0]["success"] is False
    assert results[0]["errors"][0]["statusCode"] == "ALL_OR_NONE_OPERATION_ROLLED_BACK"
    assert results[1]["errors"][0]["statusCode"] == "REQUIRED_FIELD_MISSING"
    assert emulated_org(sf).count("Account") == 0


def test_collection_limit_is_200_records(sf):
    records = [{"attributes": {"type": "Account"}, "Name": f"n{i}"} for i in range(201)]
    with pytest.raises(SalesforceMalformedRequest) as refused:
        sf.restful("composite/sobjects", method="POST", json={"records": records})
    assert refused.value.content[0]["errorCode"] == "EXCEEDED_ID_LIMIT"
    assert (
        refused.value.content[0]["message"]
        == "record limit reached. cannot submit more than 200 records into this call"
    )
    assert emulated_org(sf).count("Account") == 0


def test_collection_upsert_by_external_id(sf):
    first = sf.restful(
        "composite/sobjects/Product2/External_ID__c",
        method="PATCH",
        json={"records": [{"attributes": {"type": "Product2"}, "External_ID__c": "S1", "Name": "Shoe"}]},
    )
    second = sf.restful(
        "composite/sobjects/Product2/External_ID__c",
        method="PATCH",
        json={
            "records": [
                {"attributes": {"type": "Product2"}, "External_ID__c": "S1", "Name": "Shoe v2"},
                {"attributes": {"type": "Product2"}, "External_ID__c": "S2", "Name": "Sock"},
            ]
        },
    )
    assert first[0]["created"] is True
    assert second[0] == {"id": first[0]["id"], "success": True, "errors": [], "created": False}
    assert second[1]["created"] is True
    assert sf.Product2.get(first[0]["id"])["Name"] == "Shoe v2"


@pytest.mark.parametrize("all_or_none", [True, False])
def test_a_failed_collection_upsert_says_created_as_every_upsert_result_does(sf, all_or_none):
    # SOAP API Developer Guide, "UpsertResult": created is one of its keys; jsforce's integration
    # tests against a real org read created: true on the results an allOrNone upsert rolled back
    results = sf.restful(
        "composite/sobjects/Product2/External_ID__c",
        method="PATCH",
        json={
            "allOrNone": all_or_none,
            "records": [
                {"attributes": {"type": "Product2"}, "External_ID__c": "N1", "Name": "New"},
                {"attributes": {"type": "Product2"}, "External_ID__c": "N2", "Name": None},
            ],
        },
    )
    assert [r["success"] for r in results] == [not all_or_none, False]
    assert [r["created"] for r in results] == [True, False]
    assert results[1]["errors"][0]["statusCode"] == "REQUIRED_FIELD_MISSING"
    if all_or_none:
        assert results[0]["errors"][0]["statusCode"] == "ALL_OR_NONE_OPERATION_ROLLED_BACK"
        assert emulated_org(sf).count("Product2") == 0


# ---------------------------------------------------------------------------- tree
def test_tree_creates_parents_with_children_in_request_order(sf):
    body = {
        "records": [
            {
                "attributes": {"type": "Account", "referenceId": "ref1"},
                "Name": "Parent",
                "Contacts": {
                    "records": [
                        {"attributes": {"type": "Contact", "referenceId": "ref2"}, "LastName": "Kid"},
                        {"attributes": {"type": "Contact", "referenceId": "ref3"}, "LastName": "Kid2"},
                    ]
                },
            },
            {"attributes": {"type": "Account", "referenceId": "ref4"}, "Name": "Lonely"},
        ]
    }
    result = sf.restful("composite/tree/Account", method="POST", json=body)
    assert result["hasErrors"] is False
    assert [r["referenceId"] for r in result["results"]] == ["ref1", "ref2", "ref3", "ref4"]
    ids = {r["referenceId"]: r["id"] for r in result["results"]}
    assert sf.Contact.get(ids["ref2"])["AccountId"] == ids["ref1"]


def test_tree_with_one_bad_record_creates_nothing_and_reports_only_it(sf):
    body = {
        "records": [
            {
                "attributes": {"type": "Account", "referenceId": "ref1"},
                "Name": "Parent",
                "Contacts": {
                    "records": [
                        {
                            "attributes": {"type": "Contact", "referenceId": "ref2"},
                            "Email": "bad",
                            "LastName": "x",
                        }
                    ]
                },
            }
        ]
    }
    response = sf.session.post(sf.base_url + "composite/tree/Account", json=body, headers=sf.headers)
    assert response.status_code == 400
    assert response.json() == {
        "hasErrors": True,
        "results": [
            {
                "referenceId": "ref2",
                "errors": [
                    {
                        "statusCode": "INVALID_EMAIL_ADDRESS",
                        "message": "Email: invalid email address: bad",
                        "fields": ["Email"],
                    }
                ],
            }
        ],
    }
    assert emulated_org(sf).count("Account") == 0


def test_all_or_none_composite_applies_to_its_collection_subrequests(sf):
    results = _composite(
        sf,
        [
            {
                "method": "POST",
                "url": f"{V}/composite/sobjects",
                "referenceId": "accounts",
                "body": {
                    "allOrNone": False,
                    "records": [
                        {"attributes": {"type": "Account"}, "Name": "Good"},
                        {"attributes": {"type": "Account"}},
                    ],
                },
            },
            {
                "method": "POST",
                "url": f"{V}/sobjects/Contact",
                "referenceId": "person",
                "body": {"LastName": "Lee"},
            },
        ],
        all_or_none=True,
    )
    saved = results[0]["body"]
    assert [r["success"] for r in saved] == [False, False]
    assert saved[0]["errors"][0]["statusCode"] == "ALL_OR_NONE_OPERATION_ROLLED_BACK"
    assert results[1]["body"][0]["errorCode"] == "PROCESSING_HALTED"
    org = emulated_org(sf)
    assert org.count("Account") == 0 and org.count("Contact") == 0
