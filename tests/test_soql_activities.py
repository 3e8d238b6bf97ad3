"""ActivityHistories and OpenActivities: a record's closed and open activities, as SOQL subqueries only.

Object Reference, "ActivityHistory" and "OpenActivity"
(https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_activityhistory.htm,
sforce_api_objects_openactivity.htm): both are read-only, listed as child relationships of the
objects that have activities, queried only as a subquery of their parent (a direct query is
refused), built from Task and Event; an account's include its contacts' activities.
"""

from __future__ import annotations

import pytest
from simple_salesforce.exceptions import SalesforceMalformedRequest

from crmarena_sf import connect

WITH_ACTIVITIES = (
    "Account", "Contact", "Lead", "Opportunity", "Case", "Asset", "Campaign", "Contract", "Order", "Product2", "Quote",
)  # fmt: skip


@pytest.fixture
def sf():
    return connect("blank")


@pytest.mark.parametrize("name", WITH_ACTIVITIES)
def test_the_describe_lists_both_relationships(sf, name):
    relationships = {
        r["relationshipName"]: r["childSObject"] for r in getattr(sf, name).describe()["childRelationships"]
    }
    assert relationships["ActivityHistories"] == "ActivityHistory"
    assert relationships["OpenActivities"] == "OpenActivity"


def test_an_accounts_lists_hold_its_own_its_contacts_and_its_deals_activities(sf):
    account = sf.Account.create({"Name": "Acme"})["id"]
    contact = sf.Contact.create({"LastName": "Doe", "AccountId": account})["id"]
    deal = sf.Opportunity.create(
        {"Name": "Deal", "AccountId": account, "StageName": "Prospecting", "CloseDate": "2030-01-01"}
    )["id"]
    sf.Task.create({"Subject": "Called Doe", "WhoId": contact, "Status": "Completed"})
    sf.Task.create({"Subject": "Send quote", "WhatId": deal})
    sf.Event.create(
        {"Subject": "Kick-off", "WhatId": account, "StartDateTime": "2020-01-01T10:00:00Z",
         "EndDateTime": "2020-01-01T11:00:00Z", "ActivityDateTime": "2020-01-01T10:00:00Z", "DurationInMinutes": 60}
    )  # fmt: skip
    sf.Event.create(
        {"Subject": "Renewal", "WhatId": account, "StartDateTime": "2999-01-01T10:00:00Z",
         "EndDateTime": "2999-01-01T11:00:00Z", "ActivityDateTime": "2999-01-01T10:00:00Z", "DurationInMinutes": 60}
    )  # fmt: skip
    [row] = sf.query(
        "SELECT Name, (SELECT Subject, IsTask FROM ActivityHistories ORDER BY Subject),"
        " (SELECT Subject, IsTask FROM OpenActivities ORDER BY Subject) FROM Account"
    )["records"]
    history = [(r["Subject"], r["IsTask"]) for r in row["ActivityHistories"]["records"]]
    assert history == [("Called Doe", True), ("Kick-off", False)]
    upcoming = [(r["Subject"], r["IsTask"]) for r in row["OpenActivities"]["records"]]
    assert upcoming == [("Renewal", False), ("Send quote", True)]
    [person] = sf.query("SELECT (SELECT Subject FROM ActivityHistories) FROM Contact")["records"]
    assert [r["Subject"] for r in person["ActivityHistories"]["records"]] == ["Called Doe"]
    [opportunity] = sf.query("SELECT (SELECT Subject, Owner.Name FROM OpenActivities) FROM Opportunity")[
        "records"
    ]
    assert [(r["Subject"], r["Owner"]["Name"]) for r in opportunity["OpenActivities"]["records"]] == [
        ("Send quote", "Admin User")
    ]


def test_a_lead_lists_its_activities_and_completing_a_task_moves_it(sf):
    lead = sf.Lead.create({"LastName": "Prospect", "Company": "Co"})["id"]
    task = sf.Task.create({"Subject": "Follow up", "WhoId": lead})["id"]
    query = "SELECT (SELECT Subject FROM OpenActivities), (SELECT Subject FROM ActivityHistories) FROM Lead"
    [before] = sf.query(query)["records"]
    assert (before["OpenActivities"]["totalSize"], before["ActivityHistories"]) == (1, None)
    sf.Task.update(task, {"Status": "Completed"})
    [after] = sf.query(query)["records"]
    assert (after["OpenActivities"], after["ActivityHistories"]["totalSize"]) == (None, 1)


@pytest.mark.parametrize("name", ["ActivityHistory", "OpenActivity"])
def test_neither_can_be_queried_directly(sf, name):
    with pytest.raises(SalesforceMalformedRequest, match="INVALID_TYPE"):
        sf.query(f"SELECT Id FROM {name}")
