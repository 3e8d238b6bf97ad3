"""The partner SOAP API's calls after login, raw over HTTP as jsforce's ``conn.soap`` sends them.

SOAP API Developer Guide: "undelete()", "merge()", "convertLead()" (and "LeadConvert"),
"getUserInfo()", "getServerTimestamp()", "describeTabs()"
(https://developer.salesforce.com/docs/atlas.en-us.api.meta/api/sforce_api_calls_list.htm). An
operation the org does not serve is the SOAP engine's "No operation available for request
{urn:partner.soap.sforce.com}<operation>" fault, never INVALID_LOGIN.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from crmarena_sf import connect

NS = {"s": "http://schemas.xmlsoap.org/soap/envelope/", "p": "urn:partner.soap.sforce.com"}


@pytest.fixture
def sf():
    return connect("blank")


def _soap(sf, operation: str, inner: str = "", session: str | None = None) -> tuple[int, ET.Element]:
    """POST one partner call the way jsforce's SOAP client writes it; the status and the parsed envelope."""
    session = sf.session_id if session is None else session
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"'
        ' xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        '<soapenv:Header xmlns="urn:partner.soap.sforce.com">'
        f"<SessionHeader><sessionId>{session}</sessionId></SessionHeader></soapenv:Header>"
        f'<soapenv:Body xmlns="urn:partner.soap.sforce.com"><{operation}>{inner}</{operation}></soapenv:Body>'
        "</soapenv:Envelope>"
    )
    response = sf.session.post(
        f"https://{sf.sf_instance}/services/Soap/u/62.0",
        data=body.encode(),
        headers={"Content-Type": "text/xml", "SOAPAction": '""'},
    )
    return response.status_code, ET.fromstring(response.content)


def _results(envelope: ET.Element) -> list[ET.Element]:
    return envelope.findall(".//p:result", NS)


def _fault(envelope: ET.Element) -> tuple[str, str]:
    fault = envelope.find(".//s:Fault", NS)
    return fault.findtext("faultcode"), fault.findtext("faultstring")


def test_an_operation_the_org_does_not_serve_is_no_operation_available_not_a_failed_login(sf):
    status, envelope = _soap(sf, "executeAnonymous", "<String>System.debug(1);</String>")
    assert status == 500
    assert _fault(envelope) == (
        "soapenv:Client",
        "No operation available for request {urn:partner.soap.sforce.com}executeAnonymous",
    )


def test_a_call_without_a_session_is_invalid_session_id(sf):
    status, envelope = _soap(sf, "getUserInfo", session="not-a-session")
    assert status == 500
    assert _fault(envelope)[0] == "sf:INVALID_SESSION_ID"


def test_get_user_info_and_server_timestamp(sf):
    status, envelope = _soap(sf, "getUserInfo")
    assert status == 200
    [info] = _results(envelope)
    assert info.findtext("p:userName", namespaces=NS) == "admin@crmarena-sf.example.com"
    assert info.findtext("p:organizationId", namespaces=NS).startswith("00D")
    status, envelope = _soap(sf, "getServerTimestamp")
    assert status == 200
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", envelope.findtext(".//p:timestamp", namespaces=NS)
    )


def test_describe_tabs_lists_apps_and_the_rest_tabs_and_theme_agree(sf):
    status, envelope = _soap(sf, "describeTabs")
    assert status == 200
    apps = {r.findtext("p:label", namespaces=NS): r for r in _results(envelope)}
    assert {"Sales", "Service"} <= set(apps)
    sales_tabs = [t.findtext("p:sobjectName", namespaces=NS) for t in apps["Sales"].findall("p:tabs", NS)]
    assert sales_tabs[:4] == ["Account", "Contact", "Lead", "Opportunity"]
    tabs = sf.restful("tabs")  # REST API Developer Guide, "Tabs"
    account = next(t for t in tabs if t["sobjectName"] == "Account")
    assert account["name"] == "standard-Account" and account["url"].endswith("/001/o")
    theme = sf.restful("theme")  # REST API Developer Guide, "Themes"
    assert {"Account", "Case"} <= {item["name"] for item in theme["themeItems"]}
    assert theme["themeItems"][0]["colors"][0]["context"] == "primary"


def test_undelete_restores_a_deleted_record_and_reports_each_id(sf):
    account = sf.Account.create({"Name": "Gone"})["id"]
    sf.Account.delete(account)
    status, envelope = _soap(sf, "undelete", f"<ids>{account}</ids><ids>001000000000000AAA</ids>")
    assert status == 200
    first, second = _results(envelope)
    assert first.findtext("p:success", namespaces=NS) == "true"
    assert first.findtext("p:id", namespaces=NS) == account
    assert second.findtext("p:success", namespaces=NS) == "false"
    assert sf.Account.get(account)["Name"] == "Gone"


def test_merge_reparents_children_deletes_the_others_and_names_the_master(sf):
    master = sf.Account.create({"Name": "Master"})["id"]
    victim = sf.Account.create({"Name": "Victim"})["id"]
    contact = sf.Contact.create({"LastName": "Moved", "AccountId": victim})["id"]
    case = sf.Case.create({"Subject": "Moved too", "AccountId": victim})["id"]
    status, envelope = _soap(
        sf,
        "merge",
        f"<request><masterRecord><type>Account</type><Id>{master}</Id><Description>kept</Description>"
        f"</masterRecord><recordToMergeIds>{victim}</recordToMergeIds></request>",
    )
    assert status == 200
    [result] = _results(envelope)
    assert result.findtext("p:success", namespaces=NS) == "true"
    assert [e.text for e in result.findall("p:mergedRecordIds", NS)] == [victim]
    assert {e.text for e in result.findall("p:updatedRelatedIds", NS)} == {contact, case}
    assert sf.Contact.get(contact)["AccountId"] == master
    assert sf.Case.get(case)["AccountId"] == master
    assert sf.Account.get(master)["Description"] == "kept"
    gone = sf.query_all(
        f"SELECT IsDeleted, MasterRecordId FROM Account WHERE Id = '{victim}'", include_deleted=True
    )
    assert [(r["IsDeleted"], r["MasterRecordId"]) for r in gone["records"]] == [(True, master)]


def test_merge_refuses_more_than_three_records_and_objects_that_cannot_merge(sf):
    ids = [sf.Lead.create({"LastName": f"L{n}", "Company": "C"})["id"] for n in range(4)]
    status, envelope = _soap(
        sf,
        "merge",
        f"<request><masterRecord><type>Lead</type><Id>{ids[0]}</Id></masterRecord>"
        + "".join(f"<recordToMergeIds>{i}</recordToMergeIds>" for i in ids[1:])
        + "</request>",
    )
    assert status == 200
    [result] = _results(envelope)
    assert result.findtext("p:success", namespaces=NS) == "false"
    assert result.findtext("p:errors/p:statusCode", namespaces=NS) == "LIMIT_EXCEEDED"
    assert sf.query("SELECT COUNT() FROM Lead")["totalSize"] == 4
    case = sf.Case.create({"Subject": "x"})["id"]
    status, envelope = _soap(
        sf, "merge", f"<request><masterRecord><type>Case</type><Id>{case}</Id></masterRecord></request>"
    )
    assert status == 500
    assert _fault(envelope) == (
        "sf:INVALID_TYPE_FOR_OPERATION",
        "INVALID_TYPE_FOR_OPERATION: entity type does not support merge",
    )


def test_convert_lead_creates_account_contact_opportunity_and_marks_the_lead(sf):
    [status_row] = sf.query("SELECT MasterLabel FROM LeadStatus WHERE IsConverted = true")["records"]
    converted = status_row["MasterLabel"]
    lead = sf.Lead.create(
        {
            "FirstName": "Ada",
            "LastName": "Lovelace",
            "Company": "Engines Ltd",
            "Email": "ada@example.com",
            "City": "London",
            "LeadSource": "Web",
        }
    )["id"]
    task = sf.Task.create({"Subject": "Call", "WhoId": lead})["id"]
    status, envelope = _soap(
        sf,
        "convertLead",
        f"<leadConverts><convertedStatus>{converted}</convertedStatus><doNotCreateOpportunity>false"
        f"</doNotCreateOpportunity><leadId>{lead}</leadId><overwriteLeadSource>false</overwriteLeadSource>"
        "<sendNotificationEmail>false</sendNotificationEmail></leadConverts>",
    )
    assert status == 200
    [result] = _results(envelope)
    assert result.findtext("p:success", namespaces=NS) == "true"
    account = result.findtext("p:accountId", namespaces=NS)
    contact = result.findtext("p:contactId", namespaces=NS)
    opportunity = result.findtext("p:opportunityId", namespaces=NS)
    assert sf.Account.get(account)["Name"] == "Engines Ltd"
    assert sf.Account.get(account)["BillingCity"] == "London"
    made = sf.Contact.get(contact)
    assert (made["FirstName"], made["LastName"], made["Email"], made["AccountId"]) == (
        "Ada",
        "Lovelace",
        "ada@example.com",
        account,
    )
    deal = sf.Opportunity.get(opportunity)
    assert (deal["Name"], deal["AccountId"], deal["LeadSource"]) == ("Engines Ltd", account, "Web")
    marked = sf.Lead.get(lead)
    assert marked["IsConverted"] is True and marked["Status"] == converted
    assert (marked["ConvertedAccountId"], marked["ConvertedContactId"], marked["ConvertedOpportunityId"]) == (
        account,
        contact,
        opportunity,
    )
    assert sf.Task.get(task)["WhoId"] == contact
    # A converted lead is read-only and cannot be converted again.
    with pytest.raises(Exception, match="CANNOT_UPDATE_CONVERTED_LEAD"):
        sf.Lead.update(lead, {"Title": "Countess"})
    status, envelope = _soap(
        sf,
        "convertLead",
        f"<leadConverts><convertedStatus>{converted}</convertedStatus><leadId>{lead}</leadId></leadConverts>",
    )
    [again] = _results(envelope)
    assert again.findtext("p:errors/p:statusCode", namespaces=NS) == "CANNOT_UPDATE_CONVERTED_LEAD"


def test_convert_lead_needs_a_converted_status_and_writes_nothing_when_refused(sf):
    lead = sf.Lead.create({"LastName": "Babbage", "Company": "Analytical"})["id"]
    status, envelope = _soap(
        sf,
        "convertLead",
        f"<leadConverts><convertedStatus>Working - Contacted</convertedStatus><leadId>{lead}</leadId>"
        "<doNotCreateOpportunity>true</doNotCreateOpportunity></leadConverts>",
    )
    [result] = _results(envelope)
    assert result.findtext("p:success", namespaces=NS) == "false"
    assert result.findtext("p:errors/p:statusCode", namespaces=NS) == "INVALID_STATUS"
    assert (
        result.findtext("p:errors/p:message", namespaces=NS) == "invalid convertedStatus: Working - Contacted"
    )
    assert sf.query("SELECT COUNT() FROM Account")["totalSize"] == 0
    existing = sf.Account.create({"Name": "Existing"})["id"]
    status, envelope = _soap(
        sf,
        "convertLead",
        f"<leadConverts><accountId>{existing}</accountId><convertedStatus>Closed - Converted</convertedStatus>"
        f"<doNotCreateOpportunity>true</doNotCreateOpportunity><leadId>{lead}</leadId></leadConverts>",
    )
    [result] = _results(envelope)
    assert result.findtext("p:accountId", namespaces=NS) == existing
    assert result.find("p:opportunityId", NS).get("{http://www.w3.org/2001/XMLSchema-instance}nil") == "true"
    assert sf.query("SELECT COUNT() FROM Opportunity")["totalSize"] == 0
