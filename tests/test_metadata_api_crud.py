"""The Metadata API's CRUD calls on an org's own objects and fields, through simple-salesforce's ``sf.mdapi``.

References: Metadata API Developer Guide
(https://developer.salesforce.com/docs/atlas.en-us.api_meta.meta/api_meta/), "updateMetadata()",
"upsertMetadata()" (UpsertResult.created), "renameMetadata()", "deleteMetadata()", "readMetadata()",
"CustomObject", "CustomField", "Layout" (a type stored as sent).
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator.rest.transport.messages import INSTANCE_URL
from simple_salesforce import Salesforce
from simple_salesforce.exceptions import SalesforceMalformedRequest

import crmarena_sf


@pytest.fixture
def sf():
    with crmarena_sf.mock_salesforce(org="blank", strict_sessions=True) as mock:
        yield Salesforce(instance_url=INSTANCE_URL, session_id=mock.session_id)


def _text_field(md, full_name: str, label: str, length: int = 20):
    return md.CustomField(fullName=full_name, label=label, type=md.FieldType("Text"), length=length)


def _field(sf, object_name: str, name: str) -> dict | None:
    return next((f for f in getattr(sf, object_name).describe()["fields"] if f["name"] == name), None)


def test_update_relabels_and_resizes_a_custom_field_keeping_its_values(sf):
    md = sf.mdapi
    md.CustomField.create([_text_field(md, "Account.Tier__c", "Tier")])
    account = sf.Account.create({"Name": "Acme", "Tier__c": "Gold"})["id"]
    md.CustomField.update([_text_field(md, "Account.Tier__c", "Service Tier", length=40)])
    field = _field(sf, "Account", "Tier__c")
    assert (field["label"], field["length"]) == ("Service Tier", 40)
    assert sf.Account.get(account)["Tier__c"] == "Gold"
    assert md.CustomField.read("Account.Tier__c").label == "Service Tier"
    with pytest.raises(Exception, match="INVALID_CROSS_REFERENCE_KEY"):
        md.CustomField.update([_text_field(md, "Account.Missing__c", "Missing")])


def test_upsert_creates_then_updates_and_says_which(sf):
    md = sf.mdapi
    header = [md._session_header]
    first = md._service.upsertMetadata(
        [_text_field(md, "Contact.Nickname__c", "Nickname")], _soapheaders=header
    )
    second = md._service.upsertMetadata(
        [_text_field(md, "Contact.Nickname__c", "Alias")], _soapheaders=header
    )
    assert (first[0].success, first[0].created) == (True, True)
    assert (second[0].success, second[0].created) == (True, False)
    assert _field(sf, "Contact", "Nickname__c")["label"] == "Alias"


def test_rename_keeps_the_data_and_delete_removes_field_and_object(sf):
    md = sf.mdapi
    md.CustomField.create([_text_field(md, "Account.Code__c", "Code")])
    account = sf.Account.create({"Name": "Acme", "Code__c": "A1"})["id"]
    md.CustomField.rename("Account.Code__c", "Account.Ref__c")
    assert _field(sf, "Account", "Code__c") is None
    assert sf.Account.get(account)["Ref__c"] == "A1"
    md.CustomField.delete(["Account.Ref__c"])
    assert _field(sf, "Account", "Ref__c") is None
    with pytest.raises(SalesforceMalformedRequest, match="INVALID_FIELD"):
        sf.query("SELECT Ref__c FROM Account")
    md.CustomObject.create(
        [
            md.CustomObject(
                fullName="Gadget__c", label="Gadget", pluralLabel="Gadgets",
                nameField=md.CustomField(label="Gadget Name", type=md.FieldType("Text")),
                deploymentStatus=md.DeploymentStatus("Deployed"), sharingModel=md.SharingModel("ReadWrite"),
            )
        ]
    )  # fmt: skip
    sf.Gadget__c.create({"Name": "g"})
    md.CustomObject.delete(["Gadget__c"])
    assert "Gadget__c" not in {o["name"] for o in sf.describe()["sobjects"]}
    with pytest.raises(Exception, match="INVALID_CROSS_REFERENCE_KEY"):
        md.CustomField.delete(["Account.Name"])  # standard fields stay


def test_a_type_the_emulator_does_not_model_is_kept_as_sent(sf):
    md = sf.mdapi
    layout = md.Layout(fullName="Account-Custom Layout", layoutSections=[md.LayoutSection(label="Info", style="TwoColumnsTopToBottom")])  # fmt: skip
    md.Layout.create([layout])
    listed = md.list_metadata([md.ListMetadataQuery(type="Layout")])
    assert [p.fullName for p in listed] == ["Account-Custom Layout"]
    read = md.Layout.read("Account-Custom Layout")
    assert read.fullName == "Account-Custom Layout" and read.layoutSections[0].label == "Info"
    md.Layout.rename("Account-Custom Layout", "Account-Renamed Layout")
    md.Layout.delete(["Account-Renamed Layout"])
    assert md.list_metadata([md.ListMetadataQuery(type="Layout")]) == []
    # the describe-built layout REST answers stays what it was
    assert sf.restful("sobjects/Account/describe/layouts")["layouts"][0]["id"].startswith("00h")
