"""A live org's schema grows: new custom objects and fields reach describe, DML, SOQL, SOSL, forks
and the org file, and never leak into the orgs that share the old schema."""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import soql, sosl
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.org import Org
from crmarena_sf.emulator.store.schema_changes import add_custom_field, add_custom_object

ISSUE_NAME = {"type": "string", "label": "Issue Name", "length": 80}


@pytest.fixture
def org():
    return Org.new("standard")


def test_a_new_object_and_lookup_work_in_dml_soql_and_sosl(org):
    add_custom_object(org, "Issue__c", "Issue", "Issues", ISSUE_NAME)
    add_custom_field(
        org,
        "Issue__c",
        {"name": "Description__c", "type": "textarea", "label": "Description", "length": 32768},
    )
    add_custom_field(
        org,
        "Case",
        {"name": "IssueId__c", "type": "reference", "label": "Issue", "to": "Issue__c", "child": "Cases__r"},
    )
    issue = org.insert("Issue__c", {"Name": "Billing problem", "Description__c": "refunds"})
    org.insert("Case", {"Subject": "Charged twice", "IssueId__c": issue})
    obj = org.schema.get("Issue__c")
    assert obj.custom and obj.keyPrefix == "a00" and issue.startswith("a00")
    assert [f.name for f in obj.fields][:4] == ["Id", "OwnerId", "IsDeleted", "Name"]
    rows = soql.query(org, "SELECT Name, (SELECT Subject FROM Cases__r) FROM Issue__c")["records"]
    assert rows[0]["Cases__r"]["records"][0]["Subject"] == "Charged twice"
    assert (
        soql.query(org, "SELECT IssueId__r.Name FROM Case")["records"][0]["IssueId__r"]["Name"]
        == "Billing problem"
    )
    found = sosl.search(org, "FIND {refunds} RETURNING Issue__c(Name)")["searchRecords"]
    assert [r["Name"] for r in found] == ["Billing problem"]


def test_listeners_hear_the_schema_grow_for_the_new_object_and_the_object_that_gained_a_field(org):
    """store/events.py: "schema grown" names the object, without Ids, once the new schema is in place."""
    heard = []
    org.listeners.append(
        lambda o, name, ids, kind: heard.append((name, tuple(ids), kind, o.schema.get(name) is not None))
    )
    add_custom_object(org, "Issue__c", "Issue", "Issues", ISSUE_NAME)
    add_custom_field(
        org,
        "Case",
        {"name": "IssueId__c", "type": "reference", "label": "Issue", "to": "Issue__c", "child": "Cases__r"},
    )
    assert heard == [("Issue__c", (), "schema grown", True), ("Case", (), "schema grown", True)]


def test_an_indexed_object_gaining_a_field_is_searchable_by_it(org):
    org.insert("Product2", {"Name": "Trail Jacket"})
    assert sosl.search(org, "FIND {Trail} RETURNING Product2(Name)")["searchRecords"]
    add_custom_field(
        org,
        "Product2",
        {"name": "Key__c", "type": "string", "label": "Key", "length": 64, "externalId": True},
    )
    add_custom_object(org, "Issue__c", "Issue", "Issues", ISSUE_NAME)
    org.insert("Product2", {"Name": "Trail Shoe", "Key__c": "K17"})
    org.insert("Issue__c", {"Name": "Trail wear"})
    names = {
        r["Name"]
        for r in sosl.search(org, "FIND {Trail} RETURNING Product2(Name), Issue__c(Name)")["searchRecords"]
    }
    assert names == {"Trail Jacket", "Trail Shoe", "Trail wear"}
    assert [r["Name"] for r in sosl.search(org, "FIND {K17} RETURNING Product2(Name)")["searchRecords"]] == [
        "Trail Shoe"
    ]


def test_forks_and_other_orgs_keep_their_schema(org):
    before = org.fork()
    add_custom_field(org, "Account", {"name": "Key__c", "type": "string", "label": "Key", "length": 64})
    after = org.fork()
    assert before.schema.get("Account").field("Key__c") is None
    assert Org.new("standard").schema.get("Account").field("Key__c") is None
    after.insert("Account", {"Name": "Acme", "Key__c": "k"})
    assert soql.query(after, "SELECT Key__c FROM Account")["records"][0]["Key__c"] == "k"
    assert before.count("Account") == 0 and org.count("Account") == 0


def test_the_org_file_keeps_the_new_schema(org, tmp_path):
    add_custom_object(org, "Issue__c", "Issue", "Issues", ISSUE_NAME)
    add_custom_field(
        org,
        "Case",
        {"name": "IssueId__c", "type": "reference", "label": "Issue", "to": "Issue__c", "child": "Cases__r"},
    )
    org.insert("Issue__c", {"Name": "Kept"})
    org.save(tmp_path / "org.duckdb")
    reopened = Org.open(tmp_path / "org.duckdb")
    assert reopened.schema.get("Case").field("IssueId__c").referenceTo == ["Issue__c"]
    assert reopened.schema.get("Issue__c").child_relationship("Cases__r") is not None
    assert (
        reopened.insert("Issue__c", {"Name": "Second"}).startswith("a00") and reopened.count("Issue__c") == 2
    )


def test_duplicates_and_missing_targets_are_refused_and_change_nothing(org):
    add_custom_object(org, "Issue__c", "Issue", "Issues", ISSUE_NAME)
    with pytest.raises(SalesforceError) as duplicate:
        add_custom_object(org, "Issue__c", "Issue", "Issues", ISSUE_NAME)
    assert duplicate.value.error_code == "DUPLICATE_DEVELOPER_NAME"
    with pytest.raises(SalesforceError) as field_twice:
        add_custom_field(org, "Issue__c", {"name": "Name", "type": "string", "label": "Name"})
    assert field_twice.value.error_code == "DUPLICATE_DEVELOPER_NAME"
    with pytest.raises(SalesforceError) as dangling:
        add_custom_field(
            org, "Case", {"name": "Gone__c", "type": "reference", "label": "Gone", "to": "Nowhere__c"}
        )
    assert dangling.value.error_code == "INVALID_CROSS_REFERENCE_KEY"
    assert org.schema.get("Case").field("Gone__c") is None
    assert "Gone__c" not in [r[0] for r in org.con.execute('DESCRIBE "Case"').fetchall()]
