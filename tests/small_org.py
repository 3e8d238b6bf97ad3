"""The small org the SOQL tests query: a few accounts, contacts, cases (one deleted) and surveys.

Built once per session by ``tests/conftest.py`` (fixture ``built`` gives each module a fork).
Its clock is frozen on Wednesday 2024-05-15 12:00 UTC, so date literals have fixed meanings.
Besides the CRMArena schema it has one custom object, ``Survey__c``, with a multi-select
picklist (INCLUDES/EXCLUDES).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.clock import OrgClock
from crmarena_sf.emulator.store.dml import write_rows
from crmarena_sf.emulator.store.org import Org
from crmarena_sf.metadata.build import build_describes
from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, owner_field

NOW = dt.datetime(2024, 5, 15, 12, 0, 0)
PERSON_ACCOUNT_RT = "012Em0000000001IAA"
QUEUE_ID = ids.make_id("00G", 1)

SURVEY_SPEC = sobject(
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
        field("Topics__c", "multipicklist", "Topics", values=["Fit", "Price", "Delivery"]),
        field("Score__c", "percent", "Score", precision=5, scale=2),
        field("Account__c", "reference", "Account", to="Account", child="Surveys__r"),
    ],
    custom=True,
)


def build_small_org(tmp_dir: Path) -> tuple[Org, dict[str, str]]:
    """A fresh org with a few accounts, contacts, cases (one deleted) and surveys; returns it and their Ids."""
    describe_dir = tmp_dir / "describes"
    describe_dir.mkdir(exist_ok=True)
    for name, doc in build_describes([SURVEY_SPEC]).items():
        (describe_dir / f"{name}.json").write_text(json.dumps(doc), encoding="utf-8")
    org = Org.new(clock=OrgClock(NOW), extra_describe_dirs=(str(describe_dir),))
    with org.transaction():
        org.before_write("Group")
        write_rows(
            org,
            org.schema.get("Group"),
            [{"Id": QUEUE_ID, "Name": "Support Queue", "DeveloperName": "Support_Queue", "Type": "Queue"}],
        )
    add = lambda obj, values: org.insert(obj, values, check_references=False)  # noqa: E731
    acme = add(
        "Account",
        {
            "Name": "Acme Corp",
            "Industry": "Retail",
            "Type": "Customer - Direct",
            "BillingCity": "Paris",
            "BillingCountry": "France",
            "AnnualRevenue": 1501,
            "NumberOfEmployees": 120,
            "ShippingState": "CA",
        },
    )
    globex = add("Account", {"Name": "Globex", "Type": "Prospect", "ShippingState": "OR"})
    person = add("Account", {"RecordTypeId": PERSON_ACCOUNT_RT, "FirstName": "Pat", "LastName": "Lee"})
    ann = add(
        "Contact", {"FirstName": "Ann", "LastName": "Smith", "AccountId": acme, "Email": "ann@acme.example"}
    )
    bob = add("Contact", {"FirstName": "Bob", "LastName": "Jones", "AccountId": acme})
    cy = add("Contact", {"LastName": "Brown", "AccountId": globex, "Birthdate": "1990-05-20"})
    case = lambda **v: add("Case", v)  # noqa: E731
    c1 = case(
        Subject="Zipper broken",
        Status="New",
        Priority="High",
        Origin="Web",
        AccountId=acme,
        ContactId=ann,
        CreatedDate="2024-05-15T08:00:00Z",
    )
    c2 = case(
        Subject="Late delivery",
        Status="Closed",
        Priority="Low",
        AccountId=globex,
        ContactId=cy,
        CreatedDate="2024-05-10T23:30:00Z",
        ClosedDate="2024-05-12T10:00:00Z",
    )
    c3 = case(
        Subject="sizing question",
        Status="Working",
        Priority="Medium",
        AccountId=acme,
        ContactId=bob,
        CreatedDate="2024-04-02T12:00:00Z",
    )
    c4 = case(Status="Closed", Priority="Medium", CreatedDate="2023-12-31T23:00:00Z", OwnerId=QUEUE_ID)
    gone = case(Subject="Gone", Status="New", AccountId=globex, CreatedDate="2024-05-01T00:00:00Z")
    org.delete("Case", gone)
    s1 = add("Survey__c", {"Name": "S1", "Topics__c": "Fit;Price", "Score__c": 87.5, "Account__c": acme})
    s2 = add("Survey__c", {"Name": "S2", "Topics__c": "Delivery", "Account__c": globex})
    s3 = add("Survey__c", {"Name": "S3"})
    named = dict(
        acme=acme, globex=globex, person=person, ann=ann, bob=bob, cy=cy,
        c1=c1, c2=c2, c3=c3, c4=c4, gone=gone, s1=s1, s2=s2, s3=s3,
    )  # fmt: skip
    return org, named


def names(body: dict, key: str = "Subject") -> list:
    """The values of ``key`` in a query body's records, in order."""
    return [r[key] for r in body["records"]]
