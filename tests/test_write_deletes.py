"""Deletes follow the describes' relationship flags, as a real org's do (emulator/store/deletion.py).

- restrictedDelete children block with DELETE_FAILED naming them: a REST payload of a real org,
  ``Your attempt to delete Mr. Josh Davis could not be completed because it is associated with
  the following cases.: 00001005\\n`` (quoted in nforce's source, github.com/kevinohara80/nforce);
- cascadeDelete children go to the recycle bin with the parent and come back with it (SOAP API
  Developer Guide, "undelete()", sforce_api_calls_undelete.htm);
- other lookups are cleared, and an undelete restores the parent account, parent case, Reports
  To and custom lookups (Apex Developer Guide, "Referential Integrity When Deleting and Restoring
  Records", langCon_apex_dml_examples_delete.htm);
- an account's activated contracts block its delete, draft ones go with it (Salesforce Help,
  "Delete Accounts").
"""

from __future__ import annotations

import pytest
from simple_salesforce.exceptions import SalesforceMalformedRequest

import crmarena_sf
from crmarena_sf.connection.connect import emulated_org


@pytest.fixture
def sf():
    return crmarena_sf.connect("blank")


def _refusal(call, *args):
    with pytest.raises(SalesforceMalformedRequest) as refused:
        call(*args)
    [error] = refused.value.content
    return error


def _deleted(sf, object_name, record_id):
    found = sf.query_all(
        f"SELECT IsDeleted FROM {object_name} WHERE Id = '{record_id}'", include_deleted=True
    )
    return found["records"][0]["IsDeleted"] if found["records"] else None


def test_a_contact_with_a_case_cannot_be_deleted_the_error_names_the_case_as_a_real_org_does(sf):
    contact = sf.Contact.create({"Salutation": "Mr.", "FirstName": "Josh", "LastName": "Davis"})["id"]
    case = sf.Case.create({"Subject": "Broken", "ContactId": contact})["id"]
    number = sf.Case.get(case)["CaseNumber"]
    error = _refusal(sf.Contact.delete, contact)
    assert error == {
        "errorCode": "DELETE_FAILED",
        "message": "Your attempt to delete Mr. Josh Davis could not be completed because it is associated "
        f"with the following cases.: {number}\n",
        "fields": [],
    }
    assert _deleted(sf, "Contact", contact) is False and _deleted(sf, "Case", case) is False
    sf.Case.delete(case)
    sf.Contact.delete(contact)  # a case in the recycle bin no longer holds it
    assert _deleted(sf, "Contact", contact) is True


def test_an_account_with_cases_lists_every_blocking_case_and_keeps_its_contacts(sf):
    account = sf.Account.create({"Name": "Acme"})["id"]
    contact = sf.Contact.create({"LastName": "Lee", "AccountId": account})["id"]
    numbers = [
        sf.Case.get(sf.Case.create({"Subject": s, "AccountId": account})["id"])["CaseNumber"]
        for s in ("A", "B")
    ]
    error = _refusal(sf.Account.delete, account)
    assert error["errorCode"] == "DELETE_FAILED"
    assert error["message"] == (
        "Your attempt to delete Acme could not be completed because it is associated with the following "
        f"cases.: {', '.join(numbers)}\n"
    )
    assert _deleted(sf, "Account", account) is False and _deleted(sf, "Contact", contact) is False


def test_cascaded_children_go_to_the_recycle_bin_and_come_back_with_their_parent_only(sf):
    account = sf.Account.create({"Name": "Acme"})["id"]
    kept_out = sf.Contact.create({"LastName": "Early", "AccountId": account})["id"]
    contact = sf.Contact.create({"LastName": "Lee", "AccountId": account})["id"]
    opportunity = sf.Opportunity.create(
        {"Name": "Deal", "StageName": "Prospecting", "CloseDate": "2024-06-01", "AccountId": account}
    )["id"]
    quote = sf.Quote.create({"Name": "Q", "OpportunityId": opportunity})["id"]
    task = sf.Task.create({"Subject": "Call", "WhatId": account})["id"]
    sf.Contact.delete(kept_out)  # deleted on its own before the account
    sf.Account.delete(account)
    for name, record_id in [
        ("Contact", contact),
        ("Opportunity", opportunity),
        ("Quote", quote),
        ("Task", task),
    ]:
        assert _deleted(sf, name, record_id) is True, name
    assert sf.query("SELECT COUNT() FROM Contact")["totalSize"] == 0
    emulated_org(sf).undelete("Account", account)  # the REST API has no undelete; the store's does it
    for name, record_id in [("Account", account), ("Contact", contact), ("Opportunity", opportunity), ("Quote", quote), ("Task", task)]:  # fmt: skip
        assert _deleted(sf, name, record_id) is False, name
    assert _deleted(sf, "Contact", kept_out) is True  # not deleted with the account: stays in the bin


def test_lookups_to_a_deleted_record_are_cleared_and_the_documented_ones_restored_by_undelete(sf):
    org = emulated_org(sf)
    parent = sf.Account.create({"Name": "Parent"})["id"]
    child = sf.Account.create({"Name": "Child", "ParentId": parent})["id"]
    boss = sf.Contact.create({"LastName": "Boss"})["id"]
    report = sf.Contact.create({"LastName": "Report", "ReportsToId": boss})["id"]
    deal = sf.Opportunity.create(
        {"Name": "Deal", "StageName": "Prospecting", "CloseDate": "2024-06-01", "ContactId": boss}
    )["id"]
    issue = sf.Issue__c.create({"Name": "Zipper"})["id"]
    case = sf.Case.create({"Subject": "Zipper broke", "IssueId__c": issue})["id"]
    sf.Account.delete(parent)
    sf.Contact.delete(boss)
    sf.Issue__c.delete(issue)
    assert sf.Account.get(child)["ParentId"] is None
    assert sf.Contact.get(report)["ReportsToId"] is None
    assert sf.Opportunity.get(deal)["ContactId"] is None
    assert sf.Case.get(case)["IssueId__c"] is None
    org.undelete("Account", parent)
    org.undelete("Contact", boss)
    org.undelete("Issue__c", issue)
    assert sf.Account.get(child)["ParentId"] == parent  # parent accounts are restored
    assert sf.Contact.get(report)["ReportsToId"] == boss  # managers of contacts are restored
    assert sf.Case.get(case)["IssueId__c"] == issue  # custom lookups are restored
    assert sf.Opportunity.get(deal)["ContactId"] is None  # not in the documented list


def test_a_lookup_replaced_while_its_target_was_deleted_is_not_restored(sf):
    org = emulated_org(sf)
    first, second = (sf.Account.create({"Name": n})["id"] for n in ("First", "Second"))
    child = sf.Account.create({"Name": "Child", "ParentId": first})["id"]
    sf.Account.delete(first)
    sf.Account.update(child, {"ParentId": second})
    org.undelete("Account", first)
    assert sf.Account.get(child)["ParentId"] == second


def test_an_activated_contract_blocks_its_accounts_delete_a_draft_one_goes_with_it(sf):
    account = sf.Account.create({"Name": "Acme"})["id"]
    draft = sf.Contract.create({"AccountId": account, "StartDate": "2024-01-01", "ContractTerm": 12})["id"]
    sf.Account.delete(account)
    assert _deleted(sf, "Contract", draft) is True
    other = sf.Account.create({"Name": "Globex"})["id"]
    active = sf.Contract.create({"AccountId": other, "StartDate": "2024-01-01", "ContractTerm": 12})["id"]
    sf.Contract.update(active, {"Status": "Activated"})
    number = sf.Contract.get(active)["ContractNumber"]
    error = _refusal(sf.Account.delete, other)
    assert error["errorCode"] == "DELETE_FAILED" and error["message"].endswith(
        f"following contracts.: {number}\n"
    )
    assert _deleted(sf, "Account", other) is False


def test_a_person_account_whose_contact_has_cases_cannot_be_deleted(sf):
    person_type = sf.query("SELECT Id FROM RecordType WHERE DeveloperName = 'PersonAccount'")["records"][0][
        "Id"
    ]
    account = sf.Account.create({"RecordTypeId": person_type, "FirstName": "Pat", "LastName": "Lee"})["id"]
    person = sf.Account.get(account)["PersonContactId"]
    sf.Case.create({"Subject": "Late", "ContactId": person})
    assert _refusal(sf.Account.delete, account)["errorCode"] == "DELETE_FAILED"
    assert _deleted(sf, "Contact", person) is False


def test_a_collection_delete_refuses_only_the_blocked_record(sf):
    """sObject Collections delete (allOrNone false): each record succeeds or fails on its own
    (REST API Developer Guide, "Delete Records Using sObject Collections")."""
    free = sf.Account.create({"Name": "Free"})["id"]
    held = sf.Account.create({"Name": "Held"})["id"]
    sf.Case.create({"Subject": "Open", "AccountId": held})
    results = sf.restful("composite/sobjects", method="DELETE", params={"ids": f"{free},{held}"})
    assert results[0] == {"id": free, "success": True, "errors": []}
    assert results[1]["success"] is False
    assert results[1]["errors"][0]["statusCode"] == "DELETE_FAILED"
    assert _deleted(sf, "Account", free) is True and _deleted(sf, "Account", held) is False


def test_a_hard_delete_through_the_bulk_api_takes_the_cascade_and_leaves_nothing_to_restore(sf):
    account = sf.Account.create({"Name": "Acme"})["id"]
    contact = sf.Contact.create({"LastName": "Lee", "AccountId": account})["id"]
    [result] = sf.bulk.Account.hard_delete([{"Id": account}])
    assert result["success"]
    for name, record_id in [("Account", account), ("Contact", contact)]:
        assert _deleted(sf, name, record_id) is None  # gone, not in the recycle bin
