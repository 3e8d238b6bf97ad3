"""The Metadata API beyond createMetadata, through simple-salesforce's ``sf.mdapi``: describe, list, read,
deploy and retrieve with zip files.

References: Metadata API Developer Guide
(https://developer.salesforce.com/docs/atlas.en-us.api_meta.meta/api_meta/), "describeMetadata()",
"listMetadata()" (FileProperties), "readMetadata()" (an unknown name reads as an empty record),
"deploy()" / "checkDeployStatus()" (DeployResult, DeployMessage; "No package.xml found"),
"retrieve()" / "checkRetrieveStatus()" (RetrieveResult), "CustomField" (valueSet) and
"StandardValueSet" (a standard value's ``converted``); Object Reference, "ApexClass".
"""

from __future__ import annotations

import io
import zipfile

import pytest
from crmarena_sf.emulator.rest.transport.messages import INSTANCE_URL
from simple_salesforce import Salesforce

import crmarena_sf

NS = "http://soap.sforce.com/2006/04/metadata"
PACKAGE = (
    f'<?xml version="1.0" encoding="UTF-8"?><Package xmlns="{NS}">'
    "<fullName>Widgets</fullName>"
    "<types><members>Hello</members><name>ApexClass</name></types>"
    "<types><members>Widget__c</members><name>CustomObject</name></types>"
    "<version>62.0</version></Package>"
)
WIDGET = (
    f'<?xml version="1.0" encoding="UTF-8"?><CustomObject xmlns="{NS}">'
    "<deploymentStatus>Deployed</deploymentStatus>"
    "<fields><fullName>Size__c</fullName><label>Size</label><type>Number</type>"
    "<precision>18</precision><scale>0</scale></fields>"
    "<label>Widget</label><nameField><label>Widget Name</label><type>Text</type></nameField>"
    "<pluralLabel>Widgets</pluralLabel><sharingModel>ReadWrite</sharingModel></CustomObject>"
)
HELLO_META = f'<?xml version="1.0" encoding="UTF-8"?><ApexClass xmlns="{NS}"><apiVersion>62.0</apiVersion><status>Active</status></ApexClass>'


@pytest.fixture
def sf():
    with crmarena_sf.mock_salesforce(org="blank", strict_sessions=True) as mock:
        yield Salesforce(instance_url=INSTANCE_URL, session_id=mock.session_id)


def _zip(files: dict[str, str]) -> io.BytesIO:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer


def _deploy(sf, files: dict[str, str], **options):
    job, state = sf.mdapi.deploy(_zip(files), sandbox=False, **options)
    assert job.startswith("0Af") and state == "Queued"
    return job, sf.mdapi.check_deploy_status(job)


def test_describe_and_list_metadata_name_the_orgs_types_and_objects(sf):
    described = sf.mdapi.describe_metadata()
    types = {o.xmlName: o for o in described.metadataObjects}
    assert (
        types["CustomObject"].directoryName == "objects"
        and "CustomField" in types["CustomObject"].childXmlNames
    )
    assert (types["ApexClass"].suffix, types["ApexClass"].metaFile) == ("cls", True)
    assert types["Report"].inFolder is True
    listed = sf.mdapi.list_metadata([sf.mdapi.ListMetadataQuery(type="CustomObject")])
    names = {p.fullName: p for p in listed}
    assert {"Account", "Issue__c"} <= set(names)
    assert names["Issue__c"].fileName == "objects/Issue__c.object" and names["Issue__c"].id.startswith("01I")
    fields = sf.mdapi.list_metadata([sf.mdapi.ListMetadataQuery(type="CustomField")])
    assert all(p.fullName.endswith("__c") for p in fields) and fields


def test_read_metadata_answers_objects_and_fields_from_the_describes(sf):
    issue = sf.mdapi.CustomObject.read("Issue__c")
    assert (issue.fullName, issue.label, issue.deploymentStatus, issue.sharingModel) == (
        "Issue__c", sf.Issue__c.describe()["label"], "Deployed", "ReadWrite",
    )  # fmt: skip
    assert issue.nameField.type == "Text"
    status = sf.mdapi.CustomField.read("Lead.Status")
    values = {v.fullName: v.converted for v in status.valueSet.valueSetDefinition.value}
    assert values["Closed - Converted"] is True and values["Open - Not Contacted"] is False
    missing = sf.mdapi.CustomObject.read("NoSuchThing__c")
    assert missing.fullName is None


def test_a_deploy_creates_objects_stores_apex_and_a_retrieve_gives_them_back(sf):
    job, (state, _detail, deployed, tests) = _deploy(
        sf,
        {
            "package.xml": PACKAGE,
            "classes/Hello.cls": "public class Hello { }",
            "classes/Hello.cls-meta.xml": HELLO_META,
            "objects/Widget__c.object": WIDGET,
        },
        testLevel="RunLocalTests",
    )
    # Apex tests are not run (Apex is not emulated): the deploy succeeds and counts none; the
    # class, the object and the object's field are each a component
    assert (state, deployed["deployed_count"], deployed["failed_count"]) == ("Succeeded", "3", "0")
    assert tests["total_count"] == "0"
    widget = sf.Widget__c.create({"Name": "Bolt", "Size__c": 3})["id"]
    assert sf.Widget__c.get(widget)["Size__c"] == 3
    [apex] = sf.query("SELECT Name, Body, ApiVersion, Status FROM ApexClass")["records"]
    assert (apex["Name"], apex["Body"], apex["ApiVersion"], apex["Status"]) == (
        "Hello", "public class Hello { }", 62.0, "Active",
    )  # fmt: skip
    assert sf.restful("tooling/query", params={"q": "SELECT Name FROM ApexClass"})["totalSize"] == 1
    listed = sf.mdapi.list_metadata([sf.mdapi.ListMetadataQuery(type="ApexClass")])
    assert [(p.fullName, p.fileName) for p in listed] == [("Hello", "classes/Hello.cls")]

    retrieval, _state = sf.mdapi.retrieve(
        "unused", unpackaged={"ApexClass": ["Hello"], "CustomObject": ["Widget__c"]}
    )
    state, error, messages, data = sf.mdapi.retrieve_zip(retrieval)
    assert (state, error, messages) == ("Succeeded", None, [])
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert set(archive.namelist()) == {
        "package.xml", "classes/Hello.cls", "classes/Hello.cls-meta.xml", "objects/Widget__c.object",
    }  # fmt: skip
    assert archive.read("classes/Hello.cls") == b"public class Hello { }"
    assert b"<fullName>Size__c</fullName>" in archive.read("objects/Widget__c.object")


def test_a_retrieve_by_package_name_returns_what_that_package_deployed(sf):
    _deploy(
        sf,
        {
            "package.xml": PACKAGE,
            "classes/Hello.cls": "public class Hello { }",
            "classes/Hello.cls-meta.xml": HELLO_META,
        },
    )
    body = (
        '<?xml version="1.0" encoding="utf-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" '
        f'xmlns:met="{NS}"><soapenv:Header><met:SessionHeader><met:sessionId>{sf.session_id}</met:sessionId>'
        "</met:SessionHeader></soapenv:Header><soapenv:Body><met:retrieve><met:retrieveRequest>"
        "<met:apiVersion>62.0</met:apiVersion><met:packageNames>Widgets</met:packageNames>"
        "</met:retrieveRequest></met:retrieve></soapenv:Body></soapenv:Envelope>"
    )
    answer = sf.session.post(
        f"{INSTANCE_URL}/services/Soap/m/62.0",
        data=body,
        headers={"Content-Type": "text/xml", "SOAPAction": "retrieve"},
    )
    assert answer.status_code == 200
    job = answer.text.split("<id>")[1].split("</id>")[0]
    state, _error, _messages, data = sf.mdapi.retrieve_zip(job)
    assert state == "Succeeded"
    assert "unpackaged/classes/Hello.cls" in zipfile.ZipFile(io.BytesIO(data)).namelist()


def test_a_deploy_without_package_xml_fails_and_a_bad_component_applies_nothing(sf):
    _job, (state, _detail, deployed, _tests) = _deploy(sf, {"classes/Hello.cls": "public class Hello { }"})
    assert state == "Failed" and deployed["errors"][0]["message"] == "No package.xml found"
    bad_field = WIDGET.replace("<type>Number</type>", "<type>Hologram</type>")
    _job, (state, _detail, deployed, _tests) = _deploy(
        sf,
        {
            "package.xml": PACKAGE,
            "classes/Hello.cls": "public class Hello { }",
            "classes/Hello.cls-meta.xml": HELLO_META,
            "objects/Widget__c.object": bad_field,
        },
    )
    assert state == "Failed" and deployed["failed_count"] == "1"
    assert "Unsupported field type" in deployed["errors"][0]["message"]
    # rollbackOnError (every production deploy): nothing of it was applied
    assert sf.query("SELECT COUNT() FROM ApexClass")["totalSize"] == 0
    assert "Widget__c" not in {o["name"] for o in sf.describe()["sobjects"]}


def test_a_check_only_deploy_validates_without_applying(sf):
    _job, (state, *_rest) = _deploy(
        sf, {"package.xml": PACKAGE, "objects/Widget__c.object": WIDGET}, checkOnly=True
    )
    assert state == "Succeeded"
    assert "Widget__c" not in {o["name"] for o in sf.describe()["sobjects"]}


def test_a_rest_deploy_request_deploys_the_zip_and_reports_its_status(sf):
    # Metadata API Developer Guide, "Deploy Metadata with Apex Testing Using REST" and
    # "Check the Status of Your Deployment Using REST"
    files = {"package.xml": PACKAGE, "objects/Widget__c.object": WIDGET}
    answer = sf.session.post(
        f"{INSTANCE_URL}/services/data/v62.0/metadata/deployRequest",
        headers={"Authorization": f"Bearer {sf.session_id}"},
        files={
            "json": (
                None,
                '{"deployOptions": {"singlePackage": true, "testLevel": "RunLocalTests"}}',
                "application/json",
            ),
            "file": ("deploy.zip", _zip(files).getvalue(), "application/zip"),
        },
    )
    assert answer.status_code == 201
    created = answer.json()
    assert created["id"].startswith("0Af") and created["deployOptions"]["testLevel"] == "RunLocalTests"
    status = sf.restful(f"metadata/deployRequest/{created['id']}", params={"includeDetails": "true"})
    result = status["deployResult"]
    assert (result["status"], result["success"], result["done"], result["numberTestsTotal"]) == (
        "Succeeded",
        True,
        True,
        0,
    )
    assert {s["fullName"] for s in result["details"]["componentSuccesses"]} >= {"Widget__c"}
    assert sf.Widget__c.describe()["label"] == "Widget"
