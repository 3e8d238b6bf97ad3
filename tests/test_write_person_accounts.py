"""A person account's Person* fields are its person contact's fields, both ways, on insert and update.

SOAP API Developer Guide, "Person Account Record Types" (sforce_api_guidelines_personaccounts.htm):
the person contact is created with the account and named by PersonContactId. Change Data Capture
Developer Guide, "Updating a Person Account" (cdc_standard_objects_person_account_update.htm):
an update changes both records and both records' LastModifiedDate.
"""

from __future__ import annotations

import pytest

import crmarena_sf


@pytest.fixture
def sf():
    return crmarena_sf.connect("blank")


@pytest.fixture
def person(sf):
    record_type = sf.query("SELECT Id FROM RecordType WHERE DeveloperName = 'PersonAccount'")["records"][0][
        "Id"
    ]
    account = sf.Account.create(
        {
            "RecordTypeId": record_type,
            "Salutation": "Ms.",
            "FirstName": "Pat",
            "LastName": "Lee",
            "PersonEmail": "pat@example.com",
            "PersonMailingCity": "Lyon",
            "PersonBirthdate": "1990-05-20",
        }
    )["id"]
    return account, sf.Account.get(account)["PersonContactId"]


def _pair(sf, account, contact):
    a = sf.query(
        f"SELECT Name, FirstName, LastName, PersonEmail, PersonMailingCity, PersonBirthdate, LastModifiedDate "
        f"FROM Account WHERE Id = '{account}'"
    )["records"][0]
    c = sf.query(
        f"SELECT Name, FirstName, LastName, Email, MailingCity, Birthdate, LastModifiedDate, IsPersonAccount "
        f"FROM Contact WHERE Id = '{contact}'"
    )["records"][0]
    return a, c


def test_the_person_contact_is_created_with_the_accounts_person_fields(sf, person):
    account, contact = person
    a, c = _pair(sf, account, contact)
    assert c["IsPersonAccount"] is True
    assert (a["Name"], a["PersonEmail"], a["PersonMailingCity"], a["PersonBirthdate"]) == (
        "Pat Lee",
        "pat@example.com",
        "Lyon",
        "1990-05-20",
    )
    assert (c["Name"], c["Email"], c["MailingCity"], c["Birthdate"]) == (
        "Pat Lee",
        "pat@example.com",
        "Lyon",
        "1990-05-20",
    )


def test_an_account_update_changes_its_person_contact(sf, person):
    account, contact = person
    sf.Account.update(
        account, {"LastName": "Lee-Smith", "PersonEmail": "pat@lee.example", "PersonMailingCity": None}
    )
    a, c = _pair(sf, account, contact)
    assert (a["Name"], c["Name"]) == ("Pat Lee-Smith", "Pat Lee-Smith")
    assert (c["Email"], c["MailingCity"]) == ("pat@lee.example", None)
    assert a["LastModifiedDate"] == c["LastModifiedDate"]


def test_a_person_contact_update_changes_its_account(sf, person):
    account, contact = person
    sf.Contact.update(
        contact, {"FirstName": "Patricia", "Email": "patricia@example.com", "Birthdate": "1991-01-02"}
    )
    a, c = _pair(sf, account, contact)
    assert (a["FirstName"], a["Name"], a["PersonEmail"], a["PersonBirthdate"]) == (
        "Patricia",
        "Patricia Lee",
        "patricia@example.com",
        "1991-01-02",
    )
    assert c["Name"] == "Patricia Lee" and a["LastModifiedDate"] == c["LastModifiedDate"]
    found = sf.query("SELECT Name FROM Account WHERE PersonEmail = 'patricia@example.com'")["records"]
    assert [r["Name"] for r in found] == ["Patricia Lee"]


def test_a_business_accounts_contacts_stay_their_own(sf):
    account = sf.Account.create({"Name": "Acme"})["id"]
    contact = sf.Contact.create({"LastName": "Lee", "AccountId": account, "Email": "lee@acme.example"})["id"]
    sf.Contact.update(contact, {"Email": "lee2@acme.example"})
    assert sf.Account.get(account)["Name"] == "Acme" and sf.Account.get(account)["PersonEmail"] is None
