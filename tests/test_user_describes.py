"""Your own objects: describe documents passed as ``connect(describes=DIR)``, ``mock_salesforce(describes=DIR)``
and ``crmarena-sf serve --describes DIR`` add objects, fields and relationships to the org.

A custom object gets the standard fields every custom object has (Object Reference, "Custom
Objects"); a custom lookup's child relationship is named by the parent's describe or, by
default, after the child's plural label plus ``__r`` (SOQL and SOSL Reference, "Understanding
Relationship Names, Custom Objects, and Custom Fields").
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import requests
from crmarena_sf.emulator.store.org import Org
from crmarena_sf.metadata import load_schema
from crmarena_sf.metadata.build import build_describes, render
from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, owner_field
from crmarena_sf.metadata.user_describes import DescribesError
from simple_salesforce import Salesforce
from simple_salesforce.exceptions import SalesforceMalformedRequest, SalesforceResourceNotFound

import crmarena_sf
from crmarena_sf import mock_salesforce
from crmarena_sf.connection.connect import emulated_org
from crmarena_sf.connection.orgs import resolve_org

WIDGET = {
    "name": "Widget__c",
    "label": "Widget",
    "labelPlural": "Widgets",
    "fields": [
        {"name": "Size__c", "type": "double", "label": "Size", "precision": 6, "scale": 1},
        {"name": "Color__c", "type": "picklist", "label": "Color", "picklistValues": ["Red", "Blue"]},
        {"name": "Account__c", "type": "reference", "label": "Account", "referenceTo": ["Account"]},
        {"name": "Notes__c", "type": "textarea", "label": "Notes", "length": 1000},
    ],
}
"""A hand-written describe: only what the object adds; the rest is filled in as a real org reports it."""

ACCOUNT_TIER = {
    "name": "Account",
    "fields": [
        {"name": "Tier__c", "type": "picklist", "label": "Tier", "picklistValues": ["Gold", "Silver"]}
    ],
}
"""A custom field on a standard object the org already has."""


@pytest.fixture
def describes(tmp_path):
    directory = tmp_path / "describes"
    directory.mkdir()
    (directory / "Widget__c.json").write_text(json.dumps(WIDGET), encoding="utf-8")
    (directory / "Account.json").write_text(json.dumps(ACCOUNT_TIER), encoding="utf-8")
    return directory


def _use_the_widget(sf: Salesforce) -> None:
    """Create, query both ways and describe: what a user's integration code does with its own object."""
    account = sf.Account.create({"Name": "Acme", "Tier__c": "Gold"})["id"]
    widget = sf.Widget__c.create({"Name": "W-1", "Size__c": 2.5, "Color__c": "Red", "Account__c": account})
    assert widget["success"] and widget["id"].startswith("a00")
    row = sf.query("SELECT Name, Size__c, Color__c, Account__r.Name, Account__r.Tier__c FROM Widget__c")
    assert row["totalSize"] == 1
    record = row["records"][0]
    assert (record["Name"], record["Size__c"], record["Color__c"]) == ("W-1", 2.5, "Red")
    assert (record["Account__r"]["Name"], record["Account__r"]["Tier__c"]) == ("Acme", "Gold")
    parent = sf.query(f"SELECT Name, (SELECT Name FROM Widgets__r) FROM Account WHERE Id = '{account}'")
    assert [w["Name"] for w in parent["records"][0]["Widgets__r"]["records"]] == ["W-1"]

    described = sf.Widget__c.describe()
    assert described["custom"] and described["keyPrefix"] == "a00" and described["labelPlural"] == "Widgets"
    fields = {f["name"]: f for f in described["fields"]}
    assert {"Id", "OwnerId", "Name", "CreatedDate", "IsDeleted"} <= set(fields)
    lookup = fields["Account__c"]
    assert (lookup["referenceTo"], lookup["relationshipName"], lookup["soapType"]) == (
        ["Account"],
        "Account__r",
        "tns:ID",
    )
    assert [v["value"] for v in fields["Color__c"]["picklistValues"]] == ["Red", "Blue"]
    assert fields["Notes__c"]["length"] == 1000 and fields["Size__c"]["scale"] == 1
    children = {r["relationshipName"]: r for r in sf.Account.describe()["childRelationships"]}
    assert (
        children["Widgets__r"]["childSObject"] == "Widget__c"
        and children["Widgets__r"]["field"] == "Account__c"
    )
    assert "Widget__c" in {o["name"] for o in sf.describe()["sobjects"]}
    with pytest.raises(SalesforceMalformedRequest) as refused:
        sf.Widget__c.create({"Name": "W-2", "Account__c": widget["id"]})
    assert refused.value.content[0]["errorCode"] == "FIELD_INTEGRITY_EXCEPTION"


# ------------------------------------------------------------------ the three entry points
@pytest.mark.parametrize("org", ["blank", "standard"])
def test_connect_adds_your_objects_to_a_new_org(describes, org):
    _use_the_widget(crmarena_sf.connect(org, describes=describes))


def test_connect_adds_your_objects_to_the_crmarena_org_and_only_to_that_connection(describes):
    sf = crmarena_sf.connect(describes=describes)
    cases = sf.query("SELECT COUNT() FROM Case")["totalSize"]
    assert cases > 0
    existing = sf.query("SELECT Id, Tier__c FROM Account LIMIT 1")["records"][0]
    assert existing["Tier__c"] is None  # a new field is empty on every existing record
    sf.Account.update(existing["Id"], {"Tier__c": "Silver"})
    _use_the_widget(sf)
    assert sf.query("SELECT COUNT() FROM Case")["totalSize"] == cases

    plain = crmarena_sf.connect()
    with pytest.raises(SalesforceResourceNotFound):
        plain.Widget__c.describe()
    with pytest.raises(SalesforceMalformedRequest) as refused:
        plain.query("SELECT Tier__c FROM Account LIMIT 1")
    assert refused.value.content[0]["errorCode"] == "INVALID_FIELD"


def test_mock_salesforce_adds_your_objects(describes):
    with mock_salesforce(describes=describes) as mock:
        sf = Salesforce(username="u@example.com", password="pw", security_token="tok")
        _use_the_widget(sf)
        assert mock.org.count("Widget__c") == 1


def test_mock_salesforce_decorator_with_describes_and_a_forked_org_object(describes):
    org = Org.new()

    @mock_salesforce(org=org, fork=True, describes=describes)
    def integration_test():
        sf = Salesforce(instance_url="https://x.my.salesforce.com", session_id="s")
        _use_the_widget(sf)

    integration_test()
    integration_test()  # a fresh fork each time: the same Ids, the same single widget
    assert org.schema.get("Widget__c") is None


def test_serve_adds_your_objects(describes, tmp_path):
    process = subprocess.Popen(
        [
            sys.executable, "-m", "crmarena_sf.cli.main", "serve", "--org", "blank", "--port", "0",
            "--describes", str(describes), "--cert-dir", str(tmp_path / "tls"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        printed = dict(process.stdout.readline().rstrip("\n").split(": ", 1) for _ in range(3))
        sf = crmarena_sf.connect(
            backend="salesforce",
            instance_url=printed["instance_url"],
            session_id=printed["session_id"],
            verify=printed["certificate"],
        )
        _use_the_widget(sf)
        response = requests.get(
            f"{printed['instance_url']}/services/data/v62.0/sobjects/Widget__c/describe",
            headers={"Authorization": f"Bearer {printed['session_id']}"},
            verify=printed["certificate"],
            timeout=10,
        )
        assert response.json()["name"] == "Widget__c"
    finally:
        process.terminate()
        process.wait(timeout=20)


# ------------------------------------------------------------------ what the documents may say
def test_a_pulled_describe_keeps_its_own_names_and_key_prefix(tmp_path):
    """A full document as ``crmarena-sf metadata pull`` writes it, with the parent naming the child relationship."""
    survey = sobject(
        "Survey__c",
        "Survey",
        "Surveys",
        "a0S",
        [
            id_field("Record ID"),
            owner_field(),
            is_deleted(),
            field("Name", "string", "Survey Name", nameField=True),
            *audit_fields(),
            field("Contact__c", "reference", "Contact", to="Contact", child="Feedback__r"),
        ],
    )
    docs = build_describes([survey])
    (tmp_path / "Survey__c.json").write_text(render(docs["Survey__c"]), encoding="utf-8")
    contact = {"name": "Contact", "childRelationships": [{"childSObject": "Survey__c", "field": "Contact__c", "relationshipName": "Feedback__r"}]}  # fmt: skip
    (tmp_path / "Contact.json").write_text(json.dumps(contact), encoding="utf-8")
    sf = crmarena_sf.connect("blank", describes=tmp_path)
    assert sf.Survey__c.describe()["keyPrefix"] == "a0S"
    person = sf.Contact.create({"LastName": "Lee"})["id"]
    sf.Survey__c.create({"Name": "S-1", "Contact__c": person})
    found = sf.query(f"SELECT (SELECT Name FROM Feedback__r) FROM Contact WHERE Id = '{person}'")
    assert found["records"][0]["Feedback__r"]["records"][0]["Name"] == "S-1"


def test_lookups_to_objects_the_org_lacks(tmp_path):
    """A standard field pointing only outside the org is left out; a custom lookup there is an error naming it."""
    gadget = {
        "name": "Gadget__c",
        "fields": [
            {"name": "TerritoryId", "type": "reference", "label": "Territory", "referenceTo": ["Territory2"]},
            {
                "name": "Owner2Id",
                "type": "reference",
                "label": "Owner",
                "referenceTo": ["User", "Territory2"],
            },
        ],
    }
    (tmp_path / "Gadget__c.json").write_text(json.dumps(gadget), encoding="utf-8")
    schema = load_schema("standard", (str(tmp_path),))
    obj = schema.get("Gadget__c")
    assert obj.field("TerritoryId") is None and obj.field("Owner2Id").referenceTo == ["User"]
    assert obj.label == "Gadget" and obj.labelPlural == "Gadgets"

    gadget["fields"].append(
        {"name": "Zone__c", "type": "reference", "label": "Zone", "referenceTo": ["Zone__c"]}
    )
    (tmp_path / "Gadget__c.json").write_text(json.dumps(gadget), encoding="utf-8")
    with pytest.raises(DescribesError, match=r"Gadget__c\.Zone__c looks up Zone__c"):
        crmarena_sf.connect("blank", describes=tmp_path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not a JSON describe document"),
        ('{"fields": []}', "'name' is an object's API name"),
        ('{"name": "X__c", "fields": [{"name": "A__c", "type": "varchar"}]}', "unknown type 'varchar'"),
        ('{"name": "X__c", "fields": [{"name": "A__c", "type": "reference"}]}', "without 'referenceTo'"),
        ('{"name": "X__c", "keyPrefix": "001", "fields": []}', "keyPrefix 001 is already Account's"),
    ],
)
def test_an_unusable_document_is_refused_with_the_file_and_the_reason(tmp_path, content, message):
    (tmp_path / "X__c.json").write_text(content, encoding="utf-8")
    with pytest.raises(DescribesError, match=message):
        crmarena_sf.connect("blank", describes=tmp_path)


def test_serve_refuses_a_missing_directory_in_one_line(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "crmarena_sf.cli.main",
            "serve",
            "--org",
            "blank",
            "--describes",
            str(tmp_path / "nope"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0 and result.stderr.count("\n") == 1
    assert "is not a directory of describe documents" in result.stderr


def test_a_writable_org_file_keeps_your_objects(describes, tmp_path):
    path = tmp_path / "crm.duckdb"
    Org.new(path=path).close()
    sf = crmarena_sf.connect(str(path), writable=True, describes=describes)
    sf.Widget__c.create({"Name": "Kept"})
    emulated_org(sf).close()
    for document in describes.iterdir():  # the file keeps the documents, not a path to them
        document.unlink()
    with Org.open(path) as reopened:
        assert reopened.schema.get("Widget__c") is not None
        assert reopened.count("Widget__c") == 1
        assert reopened.schema.get("Account").child_relationship("Widgets__r") is not None


def test_the_same_documents_twice_change_nothing(describes):
    org = Org.new()
    first = resolve_org(org, describes=describes)
    schema = first.schema
    second = resolve_org(org, describes=describes)
    assert second is org and second.schema is schema


def test_the_readme_example_is_enough(tmp_path):
    readme_example = {
        "name": "Widget__c",
        "labelPlural": "Widgets",
        "fields": [
            {"name": "Size__c", "type": "double", "precision": 6, "scale": 1},
            {"name": "Account__c", "type": "reference", "referenceTo": ["Account"]},
        ],
    }
    (tmp_path / "Widget__c.json").write_text(json.dumps(readme_example), encoding="utf-8")
    sf = crmarena_sf.connect("blank", describes=tmp_path)
    account = sf.Account.create({"Name": "Acme"})["id"]
    sf.Widget__c.create({"Name": "W", "Size__c": 1.5, "Account__c": account})
    found = sf.query("SELECT Size__c, Account__r.Name FROM Widget__c")
    assert found["records"][0]["Size__c"] == 1.5 and found["records"][0]["Account__r"]["Name"] == "Acme"
    parent = sf.query("SELECT (SELECT Name FROM Widgets__r) FROM Account")
    assert parent["records"][0]["Widgets__r"]["records"][0]["Name"] == "W"
    labels = {f["name"]: f["label"] for f in sf.Widget__c.describe()["fields"]}
    assert labels["Size__c"] == "Size" and labels["Name"] == "Widget Name"
