"""Parents named by an external id in every JSON write path, and duplicate keys in one upsert.

References: REST API Developer Guide, dome_upsert.htm ("Upsert Records and Associate with a
Foreign Key"), resources_composite_sobjects_collections_*.htm; Bulk API 2.0 Developer Guide,
datafiles_csv_rel_field_header_row.htm; SOAP API Developer Guide, upsert() (duplicate external
ids in one call fail with DUPLICATE_VALUE).
"""

from __future__ import annotations

import json

import pytest
from simple_salesforce.exceptions import SalesforceMalformedRequest

from crmarena_sf import connect


@pytest.fixture
def sf():
    client = connect("blank")
    client.Product2.create({"Name": "Trail Shoe", "External_ID__c": "P-1"})
    client.Product2.create({"Name": "Road Shoe", "External_ID__c": "P-2"})
    return client


def _book(sf) -> str:
    return sf.query("SELECT Id FROM Pricebook2 WHERE IsStandard = true")["records"][0]["Id"]


def _product_of(sf, entry_id: str) -> str:
    return sf.query(f"SELECT Product2.Name FROM PricebookEntry WHERE Id = '{entry_id}'")["records"][0][
        "Product2"
    ]["Name"]


def test_create_and_update_name_the_parent_by_external_id(sf):
    entry = sf.PricebookEntry.create(
        {"Pricebook2Id": _book(sf), "Product2": {"External_ID__c": "P-1"}, "UnitPrice": 10}
    )["id"]
    assert _product_of(sf, entry) == "Trail Shoe"
    first = sf.Contact.create({"LastName": "First", "Email": "first@example.com"})["id"]
    second = sf.Contact.create({"LastName": "Second", "Email": "second@example.com"})["id"]
    case = sf.Case.create(
        {"Subject": "Laces", "Contact": {"attributes": {"type": "Contact"}, "Email": "first@example.com"}}
    )["id"]
    assert sf.Case.get(case)["ContactId"] == first
    sf.Case.update(case, {"Contact": {"Email": "second@example.com"}})
    assert sf.Case.get(case)["ContactId"] == second


def test_an_unknown_parent_key_is_salesforce_foreign_key_error(sf):
    with pytest.raises(SalesforceMalformedRequest) as refused:
        sf.PricebookEntry.create(
            {"Pricebook2Id": _book(sf), "Product2": {"External_ID__c": "P-404"}, "UnitPrice": 1}
        )
    assert refused.value.content == [
        {
            "message": "Foreign key external ID: P-404 not found for field External_ID__c in entity Product2",
            "errorCode": "INVALID_FIELD",
            "fields": [],
        }
    ]
    with pytest.raises(SalesforceMalformedRequest) as not_a_key:
        sf.PricebookEntry.create(
            {"Pricebook2Id": _book(sf), "Product2": {"Name": "Trail Shoe"}, "UnitPrice": 1}
        )
    assert not_a_key.value.content[0]["errorCode"] == "INVALID_FIELD"


def test_id_lookup_fields_and_custom_relationships(sf):
    contact = sf.Contact.create({"LastName": "Doe", "Email": "doe@example.com"})["id"]
    case = sf.Case.create({"Subject": "Boots", "Contact": {"Email": "DOE@example.com"}})["id"]
    record = sf.Case.get(case)
    assert record["ContactId"] == contact
    history = sf.CaseHistory__c.create({"CaseId__r": {"CaseNumber": record["CaseNumber"]}})["id"]
    assert sf.CaseHistory__c.get(history)["CaseId__c"] == case
    owner = sf.query("SELECT Id, Username FROM User")["records"][0]
    sf.Case.update(case, {"Owner": {"attributes": {"type": "User"}, "Username": owner["Username"]}})
    assert sf.Case.get(case)["OwnerId"] == owner["Id"]


def test_upsert_by_external_id_with_a_parent_reference(sf):
    sf.Contact.create({"LastName": "Doe", "Email": "doe@example.com"})
    result = sf.Product2.upsert("External_ID__c/P-3", {"Name": "Trail Runner"})
    assert result == 201
    history = sf.restful(
        "sobjects/Case/Id",
        method="POST",
        data=json.dumps({"Subject": "By upsert", "Contact": {"Email": "doe@example.com"}}),
    )
    assert sf.Case.get(history["id"])["ContactId"] is not None


def test_collections_resolve_parent_references_per_record(sf):
    book = _book(sf)
    created = sf.restful(
        "composite/sobjects",
        method="POST",
        data=json.dumps(
            {
                "records": [
                    {
                        "attributes": {"type": "PricebookEntry"},
                        "Pricebook2Id": book,
                        "Product2": {"External_ID__c": "P-1"},
                        "UnitPrice": 1,
                    },
                    {
                        "attributes": {"type": "PricebookEntry"},
                        "Pricebook2Id": book,
                        "Product2": {"External_ID__c": "nope"},
                        "UnitPrice": 1,
                    },
                ]
            }
        ),
    )
    assert created[0]["success"] is True
    assert created[1]["errors"][0]["statusCode"] == "INVALID_FIELD"
    assert _product_of(sf, created[0]["id"]) == "Trail Shoe"
    contact = sf.Contact.create({"LastName": "Doe", "Email": "doe@example.com"})["id"]
    case = sf.Case.create({"Subject": "Laces"})["id"]
    record = {"attributes": {"type": "Case"}, "Id": case, "Contact": {"Email": "doe@example.com"}}
    updated = sf.restful("composite/sobjects", method="PATCH", data=json.dumps({"records": [record]}))
    assert updated[0]["success"] is True and sf.Case.get(case)["ContactId"] == contact


def test_collection_upsert_fails_every_record_sharing_a_key(sf):
    results = sf.restful(
        "composite/sobjects/Product2/External_ID__c",
        method="PATCH",
        data=json.dumps(
            {
                "records": [
                    {"attributes": {"type": "Product2"}, "External_ID__c": "P-7", "Name": "First"},
                    {"attributes": {"type": "Product2"}, "External_ID__c": "P-7", "Name": "Second"},
                    {"attributes": {"type": "Product2"}, "External_ID__c": "P-1", "Name": "Renamed"},
                ]
            }
        ),
    )
    assert [r["success"] for r in results] == [False, False, True]
    assert results[0]["errors"] == [
        {
            "statusCode": "DUPLICATE_VALUE",
            "message": "Duplicate external id specified: P-7",
            "fields": ["External_ID__c"],
        }
    ]
    assert sf.query("SELECT COUNT() FROM Product2 WHERE External_ID__c = 'P-7'")["totalSize"] == 0


def test_bulk2_csv_headers_and_duplicate_keys(sf):
    [result] = sf.bulk2.Product2.upsert(
        records=[{"External_ID__c": "P-8", "Name": "A"}, {"External_ID__c": "P-8", "Name": "B"}],
        external_id_field="External_ID__c",
        wait=0,
    )
    assert result["numberRecordsFailed"] == 2
    failed = sf.bulk2.Product2.get_failed_records(result["job_id"])
    assert failed.count("DUPLICATE_VALUE:Duplicate external id specified: P-8:External_ID__c --") == 2
