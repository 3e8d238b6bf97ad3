"""The Tooling API's EntityDefinition, FieldDefinition, CustomObject and CustomField, and its describes.

References: Tooling API Developer Guide
(https://developer.salesforce.com/docs/atlas.en-us.api_tooling.meta/api_tooling/), "EntityDefinition",
"FieldDefinition" (``WHERE EntityDefinition.QualifiedApiName = 'Account'``), "CustomObject",
"CustomField", "SObject Describe" and "SObject Rows" (tooling/sobjects/<Object>/describe, /<Id>).
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator.rest.transport.messages import INSTANCE_URL
from simple_salesforce import Salesforce
from simple_salesforce.exceptions import SalesforceResourceNotFound

import crmarena_sf


@pytest.fixture
def sf():
    with crmarena_sf.mock_salesforce(org="blank", strict_sessions=True) as mock:
        yield Salesforce(instance_url=INSTANCE_URL, session_id=mock.session_id)


def _tooling(sf, soql: str) -> dict:
    return sf.restful("tooling/query", params={"q": soql})


def test_field_definitions_of_an_object_through_the_entity_relationship(sf):
    answer = _tooling(
        sf,
        "SELECT QualifiedApiName, DataType, Label FROM FieldDefinition "
        "WHERE EntityDefinition.QualifiedApiName = 'Account' AND QualifiedApiName IN ('Name', 'ParentId', 'AnnualRevenue')",
    )
    assert answer["entityTypeName"] == "FieldDefinition"
    found = {r["QualifiedApiName"]: r["DataType"] for r in answer["records"]}
    assert found == {"Name": "Text(255)", "ParentId": "Lookup(Account)", "AnnualRevenue": "Currency(18, 0)"}


def test_entity_definitions_and_custom_objects_describe_the_orgs_objects(sf):
    [issue] = _tooling(sf, "SELECT Id, DurableId, QualifiedApiName, KeyPrefix, Label FROM EntityDefinition WHERE QualifiedApiName = 'Issue__c'")["records"]  # fmt: skip
    assert issue["KeyPrefix"] == sf.Issue__c.describe()["keyPrefix"] and issue["Id"].startswith("01I")
    [account] = _tooling(sf, "SELECT DurableId FROM EntityDefinition WHERE QualifiedApiName = 'Account'")[
        "records"
    ]
    assert account["DurableId"] == "Account"
    [custom] = _tooling(sf, "SELECT Id, DeveloperName FROM CustomObject WHERE DeveloperName = 'Issue'")[
        "records"
    ]
    assert custom["Id"] == issue["Id"]
    record = sf.restful(f"tooling/sobjects/CustomObject/{custom['Id']}")
    assert record["DeveloperName"] == "Issue" and record["ManageableState"] == "unmanaged"


def test_a_field_made_through_the_metadata_api_is_a_custom_field_at_once(sf):
    md = sf.mdapi
    md.CustomField.create(
        [md.CustomField(fullName="Account.Tier__c", label="Tier", type=md.FieldType("Text"), length=20)]
    )
    [field] = _tooling(sf, "SELECT Id, DeveloperName, TableEnumOrId, FullName FROM CustomField WHERE DeveloperName = 'Tier'")["records"]  # fmt: skip
    assert (field["TableEnumOrId"], field["FullName"]) == ("Account", "Account.Tier__c")
    [definition] = _tooling(
        sf,
        "SELECT DataType FROM FieldDefinition WHERE EntityDefinition.QualifiedApiName = 'Account' AND QualifiedApiName = 'Tier__c'",
    )["records"]
    assert definition["DataType"] == "Text(20)"


def test_tooling_describes_and_unknown_objects(sf):
    described = sf.restful("tooling/sobjects/FieldDefinition/describe")
    assert described["name"] == "FieldDefinition"
    assert {"QualifiedApiName", "DataType", "EntityDefinitionId"} <= {f["name"] for f in described["fields"]}
    assert sf.restful("tooling/sobjects/Account/describe")["name"] == "Account"
    with pytest.raises(SalesforceResourceNotFound):
        sf.restful("tooling/sobjects/NoSuchThing/describe")
    with pytest.raises(SalesforceResourceNotFound):
        sf.restful("tooling/sobjects/CustomField/00N000000000000AAA")
