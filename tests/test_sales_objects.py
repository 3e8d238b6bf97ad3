"""The standard sales objects every new org has, empty: Lead, Opportunity, OpportunityLineItem, Campaign,
CampaignMember, Task, Event, Quote, QuoteLineItem (Object Reference for each; key prefixes are
Salesforce's). CRMArena's own tool descriptions give ``SELECT COUNT() FROM Opportunity`` and
``FIND {Joe Smith} IN NAME FIELDS RETURNING Lead(Name, Phone)`` as examples (CRMArena repository,
crm_sandbox/agents/prompts.py): on the CRMArena org they answer with no rows, not INVALID_TYPE.
"""

from __future__ import annotations

import datetime as dt

import pytest
from crmarena_sf.emulator.store.org import Org
from crmarena_sf.metadata import load_schema
from simple_salesforce.exceptions import SalesforceMalformedRequest

import crmarena_sf
from crmarena_sf.connection.connect import emulated_org

SALES_OBJECTS = {
    "Lead": "00Q",
    "Opportunity": "006",
    "OpportunityLineItem": "00k",
    "Campaign": "701",
    "CampaignMember": "00v",
    "Task": "00T",
    "Event": "00U",
    "Quote": "0Q0",
    "QuoteLineItem": "0QL",
}


@pytest.mark.parametrize("profile", ["crmarena", "standard"])
def test_every_new_org_has_the_sales_objects_with_salesforces_key_prefixes(profile):
    schema = load_schema(profile)
    assert {name: schema.get(name).keyPrefix for name in SALES_OBJECTS} == SALES_OBJECTS
    org = Org.new(profile)
    assert all(org.count(name) == 0 for name in SALES_OBJECTS)


def test_crmarenas_example_queries_answer_with_no_rows_on_the_crmarena_org():
    sf = crmarena_sf.connect()
    assert sf.query("SELECT COUNT() FROM Opportunity")["totalSize"] == 0
    assert sf.search("FIND {Joe Smith} IN NAME FIELDS RETURNING Lead(Name, Phone)")["searchRecords"] == []
    assert sf.query("SELECT Id, StageName FROM Opportunity WHERE IsClosed = false")["records"] == []
    assert sf.query("SELECT COUNT() FROM Case")["totalSize"] > 0


def test_relationships_between_the_sales_objects_and_the_crmarena_ones():
    schema = load_schema()
    account, contact, lead = schema.get("Account"), schema.get("Contact"), schema.get("Lead")
    assert account.child_relationship("Opportunities").childSObject == "Opportunity"
    assert account.child_relationship("Tasks").field == "WhatId"  # as in a real Account describe
    assert contact.child_relationship("CampaignMembers").field == "ContactId"
    assert lead.child_relationship("Tasks").field == "WhoId"
    assert schema.get("Task").field("WhoId").referenceTo == ["Contact", "Lead"]
    assert schema.get("Task").parent_relationship("What").polymorphicForeignKey
    assert schema.get("Opportunity").child_relationship("OpportunityLineItems").cascadeDelete
    assert schema.get("Quote").child_relationship("QuoteLineItems").cascadeDelete
    assert schema.get("OrderItem").field("QuoteLineItemId").referenceTo == ["QuoteLineItem"]
    assert schema.get("EmailMessage").field("ActivityId").referenceTo == ["Task"]
    assert schema.get("LiveChatTranscript").field("LeadId").referenceTo == ["Lead"]
    assert {"Opportunity", "Quote"} <= set(schema.get("EmailMessage").field("RelatedToId").referenceTo)
    assert [f.name for f in schema.get("Opportunity").required_fields] == ["Name", "StageName", "CloseDate"]
    assert {f.name for f in schema.get("Lead").required_fields} == {"LastName", "Company"}


@pytest.fixture
def sf():
    return crmarena_sf.connect("blank")


def test_a_lead_gets_its_name_and_status(sf):
    lead = sf.Lead.create(
        {"FirstName": "Ann", "LastName": "Lee", "Company": "Lee Co", "Email": "ann@lee.example"}
    )
    record = sf.Lead.get(lead["id"])
    assert (record["Name"], record["Status"], record["IsConverted"]) == (
        "Ann Lee",
        "Open - Not Contacted",
        False,
    )
    with pytest.raises(SalesforceMalformedRequest) as refused:
        sf.Lead.create({"LastName": "No company"})
    assert refused.value.content[0]["errorCode"] == "REQUIRED_FIELD_MISSING"
    assert refused.value.content[0]["fields"] == ["Company"]


def test_the_stage_decides_what_an_opportunity_is(sf):
    account = sf.Account.create({"Name": "Acme"})["id"]
    opportunity = sf.Opportunity.create(
        {"Name": "Deal", "StageName": "Negotiation/Review", "CloseDate": "2024-05-20", "Amount": 1000, "AccountId": account}
    )["id"]  # fmt: skip
    record = sf.Opportunity.get(opportunity)
    assert (record["IsClosed"], record["IsWon"], record["Probability"], record["ExpectedRevenue"]) == (
        False,
        False,
        90,
        900,
    )
    assert (record["ForecastCategory"], record["ForecastCategoryName"]) == ("Pipeline", "Pipeline")
    assert (record["FiscalYear"], record["FiscalQuarter"], record["Fiscal"]) == (2024, 2, "2024 2")
    sf.Opportunity.update(opportunity, {"StageName": "Closed Won"})
    record = sf.Opportunity.get(opportunity)
    assert (record["IsClosed"], record["IsWon"], record["Probability"], record["ForecastCategory"]) == (
        True,
        True,
        100,
        "Closed",
    )
    sf.Opportunity.update(opportunity, {"StageName": "Closed Lost", "Probability": 5})
    record = sf.Opportunity.get(opportunity)
    assert (record["IsClosed"], record["IsWon"], record["Probability"], record["ForecastCategoryName"]) == (
        True,
        False,
        5,
        "Omitted",
    )
    found = sf.query("SELECT Name, Account.Name FROM Opportunity WHERE IsClosed = true AND IsWon = false")
    assert [(r["Name"], r["Account"]["Name"]) for r in found["records"]] == [("Deal", "Acme")]


def test_line_items_take_their_prices_from_the_price_book_and_go_with_their_parent(sf):
    product = sf.Product2.create({"Name": "Trail shoe", "ProductCode": "TS-1"})["id"]
    book = sf.query("SELECT Id FROM Pricebook2 WHERE IsStandard = true")["records"][0]["Id"]
    entry = sf.PricebookEntry.create(
        {"Pricebook2Id": book, "Product2Id": product, "UnitPrice": 50, "IsActive": True}
    )["id"]
    opportunity = sf.Opportunity.create(
        {"Name": "Deal", "StageName": "Prospecting", "CloseDate": "2024-06-01"}
    )["id"]
    item = sf.OpportunityLineItem.create(
        {"OpportunityId": opportunity, "PricebookEntryId": entry, "Quantity": 3, "UnitPrice": 45}
    )
    line = sf.OpportunityLineItem.get(item["id"])
    assert (line["ListPrice"], line["TotalPrice"], line["Product2Id"], line["ProductCode"]) == (
        50,
        135,
        product,
        "TS-1",
    )
    quote = sf.Quote.create({"Name": "Q-1", "OpportunityId": opportunity})["id"]
    quote_line = sf.QuoteLineItem.create(
        {"QuoteId": quote, "PricebookEntryId": entry, "Quantity": 2, "UnitPrice": 40, "Discount": 10}
    )
    record = sf.QuoteLineItem.get(quote_line["id"])
    assert (record["Subtotal"], record["TotalPrice"], record["ListPrice"]) == (80, 72, 50)
    assert sf.Quote.get(quote)["QuoteNumber"] == "00000001"
    children = sf.query(
        f"SELECT (SELECT Quantity FROM OpportunityLineItems), (SELECT Name FROM Quotes) FROM Opportunity WHERE Id = '{opportunity}'"
    )["records"][0]  # fmt: skip
    assert (
        children["OpportunityLineItems"]["totalSize"] == 1
        and children["Quotes"]["records"][0]["Name"] == "Q-1"
    )
    sf.Opportunity.delete(opportunity)
    assert sf.query("SELECT COUNT() FROM OpportunityLineItem")["totalSize"] == 0
    assert sf.query("SELECT COUNT() FROM QuoteLineItem")["totalSize"] == 0


def test_activities_point_at_whom_and_what_they_are_about(sf):
    account = sf.Account.create({"Name": "Acme"})["id"]
    lead = sf.Lead.create({"LastName": "Lee", "Company": "Lee Co"})["id"]
    task = sf.Task.create(
        {"Subject": "Call", "WhoId": lead, "WhatId": account, "Status": "Completed", "Priority": "High"}
    )
    record = sf.Task.get(task["id"])
    assert (record["IsClosed"], record["IsHighPriority"]) == (True, True) and record["CompletedDateTime"]
    assert sf.Task.get(sf.Task.create({"Subject": "Later"})["id"])["Status"] == "Not Started"
    event = sf.Event.create(
        {
            "Subject": "Meeting",
            "WhatId": account,
            "ActivityDateTime": "2024-05-20T10:00:00Z",
            "DurationInMinutes": 90,
        }
    )
    record = sf.Event.get(event["id"])
    assert record["EndDateTime"].startswith("2024-05-20T11:30:00") and record["ActivityDate"] == "2024-05-20"
    found = sf.query("SELECT Subject, Who.Name, What.Name, What.Type FROM Task WHERE IsClosed = true")[
        "records"
    ][0]
    assert (found["Who"]["Name"], found["What"]["Name"]) == ("Lee", "Acme")
    # What.Type is the Name entity's Type, the related record's object, never the Account's own
    # Type field: https://developer.salesforce.com/docs/atlas.en-us.api.meta/api/sforce_api_objects_name.htm
    assert found["What"]["Type"] == "Account"
    typed = sf.query("SELECT Subject FROM Task WHERE What.Type = 'Account' AND IsClosed = true")
    assert [r["Subject"] for r in typed["records"]] == [found["Subject"]]
    parent = sf.query(
        f"SELECT (SELECT Subject FROM Tasks), (SELECT Subject FROM Events) FROM Account WHERE Id = '{account}'"
    )
    assert (
        parent["records"][0]["Tasks"]["totalSize"] == 1 and parent["records"][0]["Events"]["totalSize"] == 1
    )
    with pytest.raises(SalesforceMalformedRequest) as refused:
        sf.Task.create({"Subject": "Wrong", "WhoId": account})
    assert refused.value.content[0]["errorCode"] == "FIELD_INTEGRITY_EXCEPTION"


def test_campaign_members_respond(sf):
    campaign = sf.Campaign.create({"Name": "Spring launch", "Status": "In Progress"})["id"]
    contact = sf.Contact.create({"LastName": "Smith"})["id"]
    member = sf.CampaignMember.create({"CampaignId": campaign, "ContactId": contact})["id"]
    record = sf.CampaignMember.get(member)
    assert (record["Status"], record["HasResponded"], record["Type"], record["LeadOrContactId"]) == (
        "Sent",
        False,
        "Contact",
        contact,
    )
    sf.CampaignMember.update(member, {"Status": "Responded"})
    record = sf.CampaignMember.get(member)
    assert record["HasResponded"] and dt.date.fromisoformat(record["FirstRespondedDate"])
    found = sf.query(
        "SELECT Name, (SELECT Contact.LastName FROM CampaignMembers WHERE HasResponded = true) FROM Campaign"
    )
    assert found["records"][0]["CampaignMembers"]["records"][0]["Contact"]["LastName"] == "Smith"


def _older_org_file(path):
    import duckdb

    Org.new(path=path).close()
    with duckdb.connect(str(path)) as older:  # as a file written before the schema had them
        for name in SALES_OBJECTS:
            older.execute(f'DROP TABLE "{name}"')
    return path


def test_an_org_file_written_before_the_sales_objects_still_opens_with_them(tmp_path):
    sf = crmarena_sf.connect(str(_older_org_file(tmp_path / "read.duckdb")))
    assert sf.query("SELECT COUNT() FROM Opportunity")["totalSize"] == 0
    assert sf.Lead.create({"LastName": "Lee", "Company": "Lee Co"})["success"]  # in this connection's fork

    path = _older_org_file(tmp_path / "write.duckdb")
    writable = crmarena_sf.connect(str(path), writable=True)
    assert writable.Lead.create({"LastName": "Lee", "Company": "Lee Co"})[
        "success"
    ]  # the file gains the table
    emulated_org(writable).close()
    assert crmarena_sf.connect(str(path)).query("SELECT Name FROM Lead")["records"][0]["Name"] == "Lee"
