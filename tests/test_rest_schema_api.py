"""The calls a push makes that only change an org's setup: the Metadata API's createMetadata through
simple-salesforce's ``sf.mdapi`` (zeep over SOAP), Knowledge publishing, storage in ``limits`` and
the running user's identity URL. Each change is checked through describe, DML, SOQL and SOSL."""

from __future__ import annotations

import pytest
from crmarena_sf.emulator.rest.transport.messages import INSTANCE_URL
from simple_salesforce import Salesforce
from zeep.exceptions import Fault

import crmarena_sf

INSTANCE = INSTANCE_URL


@pytest.fixture
def mock():
    with crmarena_sf.mock_salesforce(org="standard", strict_sessions=True) as mock:
        yield mock


@pytest.fixture
def sf(mock):
    return Salesforce(instance_url=INSTANCE, session_id=mock.session_id)


def _issue_object(md):
    return md.CustomObject(
        fullName="Issue__c",
        label="Issue",
        pluralLabel="Issues",
        nameField=md.CustomField(label="Issue Name", type=md.FieldType("Text")),
        deploymentStatus=md.DeploymentStatus("Deployed"),
        sharingModel=md.SharingModel("ReadWrite"),
    )


def test_mdapi_creates_objects_and_fields_that_describe_dml_and_soql_see(sf):
    md = sf.mdapi
    assert "Issue__c" not in {o["name"] for o in sf.describe()["sobjects"]}
    md.CustomObject.create([_issue_object(md)])
    md.CustomField.create(
        [
            md.CustomField(
                fullName="Case.IssueId__c",
                label="Issue",
                type=md.FieldType("Lookup"),
                referenceTo="Issue__c",
                relationshipName="Cases",
                deleteConstraint=md.DeleteConstraint("SetNull"),
            ),
            md.CustomField(
                fullName="Issue__c.Description__c", label="Description", type=md.FieldType("LongTextArea"),
                length=32768, visibleLines=3,
            ),
            md.CustomField(
                fullName="Account.Key__c", label="Key", type=md.FieldType("Text"), length=64,
                externalId=True, unique=True,
            ),
            md.CustomField(
                fullName="Case.Kind__c",
                label="Kind",
                type=md.FieldType("Picklist"),
                valueSet=md.ValueSet(
                    valueSetDefinition=md.ValueSetValuesDefinition(
                        sorted=False,
                        value=[md.CustomValue(fullName="Web", default=True, label="Web"),
                               md.CustomValue(fullName="Phone", default=False, label="Phone")],
                    )
                ),
            ),
        ]
    )  # fmt: skip
    assert "Issue__c" in {o["name"] for o in sf.describe()["sobjects"]}
    issue_field = next(f for f in sf.Case.describe()["fields"] if f["name"] == "IssueId__c")
    assert (issue_field["type"], issue_field["referenceTo"], issue_field["relationshipName"]) == (
        "reference", ["Issue__c"], "IssueId__r",
    )  # fmt: skip
    assert [c["relationshipName"] for c in sf.Issue__c.describe()["childRelationships"]] == ["Cases__r"]
    key = next(f for f in sf.Account.describe()["fields"] if f["name"] == "Key__c")
    assert key["externalId"] and key["idLookup"] and key["unique"] and key["custom"]
    kind = next(f for f in sf.Case.describe()["fields"] if f["name"] == "Kind__c")
    assert [v["value"] for v in kind["picklistValues"]] == ["Web", "Phone"] and kind["defaultValue"] == "Web"

    issue = sf.Issue__c.create({"Name": "Billing", "Description__c": "Charged twice"})["id"]
    sf.Case.create({"Subject": "Refund please", "IssueId__c": issue})
    row = sf.query("SELECT Subject, Kind__c, IssueId__r.Name FROM Case")["records"][0]
    assert (row["Kind__c"], row["IssueId__r"]["Name"]) == ("Web", "Billing")
    assert sf.Account.upsert("Key__c/K1", {"Name": "Acme"}) == 201
    assert sf.query("SELECT Name FROM Account WHERE Key__c = 'K1'")["totalSize"] == 1
    found = sf.search("FIND {Charged} RETURNING Issue__c(Name)")["searchRecords"]
    assert [r["Name"] for r in found] == ["Billing"]


def test_mdapi_reports_each_component_and_saves_the_good_ones(sf):
    md = sf.mdapi
    md.CustomObject.create([_issue_object(md)])
    with pytest.raises(Exception) as refused:
        md.CustomField.create(
            [
                md.CustomField(fullName="Issue__c.Ok__c", label="Ok", type=md.FieldType("Text"), length=10),
                md.CustomField(fullName="Case.Gone__c", label="Gone", type=md.FieldType("Lookup"),
                               referenceTo="Nowhere__c", relationshipName="Gones"),
            ]
        )  # fmt: skip
    assert "Case.Gone__c: (INVALID_CROSS_REFERENCE_KEY" in str(refused.value)
    assert "Issue__c.Ok__c" not in str(refused.value)
    assert any(f["name"] == "Ok__c" for f in sf.Issue__c.describe()["fields"])
    with pytest.raises(Exception, match="DUPLICATE_DEVELOPER_NAME"):
        md.CustomObject.create([_issue_object(md)])


def test_mdapi_needs_a_session_the_org_issued(mock):
    stranger = Salesforce(instance_url=INSTANCE, session_id="00D!not-a-session")
    md = stranger.mdapi
    with pytest.raises(Fault) as fault:
        md.CustomObject.create([_issue_object(md)])
    assert fault.value.code == "sf:INVALID_SESSION_ID"
    assert "Invalid Session ID found in SessionHeader" in fault.value.message
    assert mock.org.schema.get("Issue__c") is None


def test_an_unserved_metadata_operation_is_a_fault(sf):
    with pytest.raises(Fault, match="No operation available for request"):
        sf.mdapi.CustomObject.describe()  # describeValueType is not served


def test_article_drafts_are_published_once_and_then_searchable(sf):
    version = sf.Knowledge__kav.create(
        {"Title": "Refund policy", "UrlName": "refund-policy", "Language": "en_US"}
    )["id"]
    assert sf.Knowledge__kav.get(version)["PublishStatus"] == "Draft"
    online = "FIND {refund} RETURNING Knowledge__kav(Title WHERE PublishStatus='Online' AND Language='en_US')"
    assert sf.search(online)["searchRecords"] == []
    body = {"inputs": [{"articleVersionIdList": [version]}]}
    result = sf.restful("actions/standard/publishKnowledgeArticles", method="POST", json=body)
    assert result == [
        {"actionName": "publishKnowledgeArticles", "errors": None, "isSuccess": True,
         "outputValues": {version[:15]: "Success"}}
    ]  # fmt: skip
    assert [r["Title"] for r in sf.search(online)["searchRecords"]] == ["Refund policy"]
    again = sf.restful("actions/standard/publishKnowledgeArticles", method="POST", json=body)[0]
    assert again["isSuccess"] is False and again["errors"][0]["statusCode"] == "INVALID_OPERATION"


def test_limits_report_data_storage_that_shrinks_as_records_arrive(sf, mock):
    assert sf.limits()["DataStorageMB"] == {"Max": 5, "Remaining": 5}
    records = [{"attributes": {"type": "Case"}, "Subject": f"case {i}"} for i in range(200)]
    for _ in range(3):
        sf.restful("composite/sobjects", method="POST", json={"allOrNone": False, "records": records})
    assert sf.limits()["DataStorageMB"] == {"Max": 5, "Remaining": 3}  # 600 cases x 2 KB = 1.17 MB


def test_the_resource_list_names_the_running_user(sf, mock):
    identity = sf.restful("")["identity"]
    assert identity.startswith(f"{INSTANCE}/id/")
    org_id, user_id = identity.rsplit("/", 2)[-2:]
    assert org_id.startswith("00D") and user_id == mock.org.user_id
