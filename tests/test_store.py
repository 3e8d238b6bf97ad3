"""The org store: what a new org contains, validated writes, audit fields, soft delete, forks.

Error codes and messages are Salesforce's (REST API Developer Guide, "Status Codes and Error
Responses"; real payloads quoted in client issues, e.g. INVALID_FIELD_FOR_INSERT_UPDATE
"Unable to create/update fields: Name. Please check the security settings ..." for a person
account's Name, verbatim from a live org in benahm/TestDataFactory#23; INVALID_FIELD
"No such column 'type' on sobject of type Attachment" for a create naming an unknown field,
jsforce/jsforce#1074 and MinnPost/object-sync-for-salesforce#194).
"""

import datetime as dt

import pytest
from crmarena_sf.emulator import Org, SalesforceError
from crmarena_sf.emulator.store.seed import STANDARD_PRICEBOOK_ID

PERSON_ACCOUNT_RT = "012Em0000000001IAA"


@pytest.fixture
def org():
    return Org.new()


def error_of(call, *args, **kwargs) -> SalesforceError:
    with pytest.raises(SalesforceError) as info:
        call(*args, **kwargs)
    return info.value


def test_a_new_org_has_what_a_new_salesforce_org_has(org):
    admin = org.get("User", org.user_id)
    assert admin["Name"] == "Admin User" and admin["IsActive"] is True
    profile = org.get("Profile", admin["ProfileId"])
    assert profile["Name"] == "System Administrator"
    names = {r[0] for r in org.con.execute('SELECT "Name" FROM "Profile"').fetchall()}
    assert {"System Administrator", "Standard User"} <= names
    person = org.con.execute(
        'SELECT "Id", "IsPersonType" FROM "RecordType" WHERE "DeveloperName" = \'PersonAccount\''
    ).fetchone()
    assert person == (PERSON_ACCOUNT_RT, True)
    assert org.get("Pricebook2", STANDARD_PRICEBOOK_ID)["IsStandard"] is True
    assert org.count("Organization") == 1
    assert org.count("Account") == 0


def test_insert_fills_system_fields_and_defaults(org):
    org.clock.freeze("2024-05-01T12:00:00Z")
    case_id = org.insert("Case", {"Subject": "Broken zipper"})
    case = org.get("Case", case_id)
    assert case_id.startswith("500") and len(case_id) == 18
    assert case["CreatedDate"] == dt.datetime(2024, 5, 1, 12, 0)
    assert case["CreatedById"] == org.user_id and case["OwnerId"] == org.user_id
    assert case["Status"] == "New" and case["Priority"] == "Medium"  # picklist defaults from the describe
    assert case["IsClosed"] is False and case["IsDeleted"] is False
    assert case["CaseNumber"] == "00001000"
    assert org.get("Case", org.insert("Case", {"Subject": "x"}))["CaseNumber"] == "00001001"


def test_audit_fields_may_be_set_on_insert(org):
    """The org has "Set Audit Fields upon Record Creation": CRMArena's backdated history needs it."""
    org.clock.freeze("2024-05-01T12:00:00Z")
    case_id = org.insert(
        "Case",
        {
            "Subject": "Late parcel",
            "Status": "Closed",
            "CreatedDate": "2021-03-04T10:00:00.000+0000",
            "ClosedDate": "2021-03-05T09:30:00+02:00",
        },
    )
    case = org.get("Case", case_id)
    assert case["CreatedDate"] == dt.datetime(2021, 3, 4, 10, 0)
    assert case["ClosedDate"] == dt.datetime(2021, 3, 5, 7, 30)  # stored in UTC
    assert case["IsClosed"] is True
    assert case["SystemModstamp"] == dt.datetime(2024, 5, 1, 12, 0)


def test_closing_and_reopening_a_case_maintains_is_closed_and_closed_date(org):
    org.clock.freeze("2024-05-01T12:00:00Z")
    case_id = org.insert("Case", {"Subject": "x"})
    org.clock.freeze("2024-05-02T08:00:00Z")
    org.update("Case", case_id, {"Status": "Closed"})
    assert org.get("Case", case_id, ["IsClosed", "ClosedDate"]) == {
        "IsClosed": True,
        "ClosedDate": dt.datetime(2024, 5, 2, 8, 0),
    }
    org.update("Case", case_id, {"Status": "Working"})
    assert org.get("Case", case_id, ["IsClosed", "ClosedDate"]) == {"IsClosed": False, "ClosedDate": None}


def test_person_names_are_derived(org):
    contact_id = org.insert("Contact", {"FirstName": "Ada", "LastName": "Lovelace"})
    assert org.get("Contact", contact_id)["Name"] == "Ada Lovelace"
    org.update("Contact", contact_id, {"LastName": "King"})
    assert org.get("Contact", contact_id)["Name"] == "Ada King"


def test_a_person_account_carries_its_person_contact(org):
    account_id = org.insert(
        "Account",
        {
            "RecordTypeId": PERSON_ACCOUNT_RT,
            "FirstName": "Maya",
            "LastName": "Ortiz",
            "PersonEmail": "maya@example.com",
        },
    )
    account = org.get("Account", account_id)
    assert account["IsPersonAccount"] is True and account["Name"] == "Maya Ortiz"
    contact = org.get("Contact", account["PersonContactId"])
    assert contact["AccountId"] == account_id and contact["IsPersonAccount"] is True
    assert contact["Name"] == "Maya Ortiz" and contact["Email"] == "maya@example.com"


def test_a_person_account_needs_a_last_name_and_refuses_a_name(org):
    missing = error_of(org.insert, "Account", {"RecordTypeId": PERSON_ACCOUNT_RT, "FirstName": "Maya"})
    assert (missing.error_code, missing.message, missing.fields) == (
        "REQUIRED_FIELD_MISSING",
        "Required fields are missing: [LastName]",
        ["LastName"],
    )
    named = error_of(
        org.insert, "Account", {"RecordTypeId": PERSON_ACCOUNT_RT, "LastName": "O", "Name": "test"}
    )
    assert named.error_code == "INVALID_FIELD_FOR_INSERT_UPDATE"
    assert named.message == (
        "Unable to create/update fields: Name. Please check the security settings of this field and verify "
        "that it is read/write for your profile or permission set."
    )
    assert named.fields == ["Name"]


# Reference errors as a live org reported them when inserting Contacts (salto.io, "Demystifying
# 'Invalid Cross Reference Id' errors"): a non-Id is MALFORMED_ID, an existing Id of another object
# FIELD_INTEGRITY_EXCEPTION, an Id of no record INVALID_CROSS_REFERENCE_KEY "invalid cross reference id".
@pytest.mark.parametrize(
    "values, code, message, fields",
    [
        (
            {"Name": "Acme", "Foo__c": 1},
            "INVALID_FIELD",
            "No such column 'Foo__c' on sobject of type Account",
            [],
        ),
        ({"Phone": "555"}, "REQUIRED_FIELD_MISSING", "Required fields are missing: [Name]", ["Name"]),
        (
            {"Name": "A" * 256},
            "STRING_TOO_LONG",
            f"Account Name: data value too large: {'A' * 256} (max length=255)",
            ["Name"],
        ),
        (
            {"Name": "Acme", "CleanStatus": "Shiny"},
            "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST",
            "Clean Status: bad value for restricted picklist field: Shiny",
            ["CleanStatus"],
        ),
        (
            {"Name": "Acme", "ParentId": "not-an-id"},
            "MALFORMED_ID",
            "Parent Account ID: id value of incorrect type: not-an-id",
            ["ParentId"],
        ),
        (
            {"Name": "Acme", "ParentId": "003Em0000000001IAA"},
            "FIELD_INTEGRITY_EXCEPTION",
            "Parent Account ID: id value of incorrect type: 003Em0000000001IAA",
            ["ParentId"],
        ),
        (
            {"Name": "Acme", "ParentId": "001Em0000009999IAA"},
            "INVALID_CROSS_REFERENCE_KEY",
            "invalid cross reference id",
            [],
        ),
        (
            {"Name": "Acme", "IsDeleted": True},
            "INVALID_FIELD_FOR_INSERT_UPDATE",
            "Unable to create/update fields: IsDeleted. Please check the security settings of this field and "
            "verify that it is read/write for your profile or permission set.",
            ["IsDeleted"],
        ),
        (
            {"Name": "Acme", "NumberOfEmployees": "many"},
            "JSON_PARSER_ERROR",
            "Cannot deserialize instance of int from VALUE_STRING value many or request may be missing a required field",
            [],
        ),
    ],
)
def test_invalid_writes_get_salesforces_error(org, values, code, message, fields):
    err = error_of(org.insert, "Account", values)
    assert (err.error_code, err.message, err.fields) == (code, message, fields)
    assert org.count("Account") == 0  # nothing half-written


def test_an_invalid_email_is_refused(org):
    err = error_of(org.insert, "Contact", {"LastName": "X", "Email": "not an email"})
    assert (err.error_code, err.message, err.fields) == (
        "INVALID_EMAIL_ADDRESS",
        "Email: invalid email address: not an email",
        ["Email"],
    )


def test_values_are_normalised_on_write(org):
    account_id = org.insert("Account", {"Name": "Acme", "CleanStatus": "matched", "AnnualRevenue": "1234.5"})
    account = org.get("Account", account_id)
    assert account["CleanStatus"] == "Matched"  # restricted picklists match case-insensitively
    # currency(18, 0): the API keeps the decimals sent, only the UI rounds (Salesforce Help 000385689)
    assert float(account["AnnualRevenue"]) == 1234.5
    assert org.get("Account", account_id[:15])["Id"] == account_id  # 15-character Ids work too


def test_update_and_get_of_missing_or_deleted_records(org):
    account_id = org.insert("Account", {"Name": "Acme"})
    missing = error_of(org.get, "Account", "001Em0000009999IAA")
    assert (missing.error_code, missing.status) == ("NOT_FOUND", 404)
    org.delete("Account", account_id)
    assert error_of(org.update, "Account", account_id, {"Name": "B"}).error_code == "ENTITY_IS_DELETED"
    assert error_of(org.delete, "Account", account_id).error_code == "ENTITY_IS_DELETED"
    locked = error_of(
        org.update, "Account", org.insert("Account", {"Name": "C"}), {"CreatedDate": "2020-01-01"}
    )
    assert locked.error_code == "INVALID_FIELD_FOR_INSERT_UPDATE" and locked.fields == ["CreatedDate"]


def test_soft_delete_cascades_and_undelete_restores(org):
    account_id = org.insert("Account", {"Name": "Acme"})
    contact_id = org.insert("Contact", {"LastName": "Smith", "AccountId": account_id})
    org.delete("Account", account_id)
    assert org.count("Account") == 0 and org.count("Account", include_deleted=True) == 1
    assert org.get("Contact", contact_id, include_deleted=True)["IsDeleted"] is True  # Contacts cascade
    assert error_of(org.get, "Contact", contact_id).error_code == "NOT_FOUND"
    org.undelete("Account", account_id)
    assert org.get("Contact", contact_id)["IsDeleted"] is False
    assert error_of(org.undelete, "Account", account_id).error_code == "UNDELETE_FAILED"


def test_a_reference_to_a_deleted_record_is_refused(org):
    account_id = org.insert("Account", {"Name": "Acme"})
    org.delete("Account", account_id)
    err = error_of(org.insert, "Contact", {"LastName": "X", "AccountId": account_id})
    assert (err.error_code, err.message) == ("ENTITY_IS_DELETED", "entity is deleted")


def test_a_failed_transaction_leaves_nothing(org):
    with pytest.raises(SalesforceError), org.transaction():
        org.insert("Account", {"Name": "Kept?"})
        org.insert("Account", {"Phone": "no name"})
    assert org.count("Account") == 0


def test_insert_many_keeps_valid_rows_and_reports_each_failure(org):
    results = org.insert_many("Account", [{"Name": "A"}, {"Phone": "1"}, {"Name": "B"}])
    assert isinstance(results[0], str) and isinstance(results[2], str)
    assert results[1].error_code == "REQUIRED_FIELD_MISSING"
    assert org.count("Account") == 2


def test_forks_are_isolated_both_ways(org):
    account_id = org.insert("Account", {"Name": "Original"})
    fork = org.fork()
    fork.update("Account", account_id, {"Name": "Fork"})
    fork.insert("Account", {"Name": "Only in fork"})
    assert org.get("Account", account_id)["Name"] == "Original" and org.count("Account") == 1
    sibling = org.fork()
    org.update("Account", account_id, {"Name": "Parent"})
    assert sibling.get("Account", account_id)["Name"] == "Original"
    assert fork.get("Account", account_id)["Name"] == "Fork" and fork.count("Account") == 2
    grandchild = fork.fork()
    fork.delete("Account", account_id)
    assert grandchild.get("Account", account_id)["Name"] == "Fork"


def test_a_rolled_back_fork_still_reads_its_parent(org):
    account_id = org.insert("Account", {"Name": "Original"})
    fork = org.fork()
    with pytest.raises(SalesforceError), fork.transaction():
        fork.update("Account", account_id, {"Name": "Changed"})
        fork.insert("Account", {})
    assert fork.get("Account", account_id)["Name"] == "Original"
    org.update("Account", account_id, {"Name": "Parent"})
    assert fork.get("Account", account_id)["Name"] == "Original"


def test_an_org_file_survives_reopening(tmp_path):
    path = tmp_path / "org.duckdb"
    org = Org.new(path=path)
    account_id = org.insert("Account", {"Name": "Persisted"})
    org.close()
    reopened = Org.open(path)
    assert reopened.get("Account", account_id)["Name"] == "Persisted"
    assert reopened.insert("Account", {"Name": "Next"}) != account_id  # Id counters continue
    copy = tmp_path / "copy.duckdb"
    reopened.save(copy)
    assert Org.open(copy).count("Account") == 2
    with pytest.raises(FileExistsError):
        Org.new(path=path)


def test_order_values_a_real_org_computes(org):
    """PricebookEntry.Name comes from its product; OrderItem.TotalPrice = Quantity x UnitPrice;
    Order.TotalAmount rolls up its items; StatusCode follows Status (Object Reference: Order, OrderItem)."""
    product = org.insert("Product2", {"Name": "Trail Jacket", "ProductCode": "TJ-1"})
    entry = org.insert(
        "PricebookEntry",
        {"Pricebook2Id": STANDARD_PRICEBOOK_ID, "Product2Id": product, "UnitPrice": 80, "IsActive": True},
    )
    assert org.get("PricebookEntry", entry, ["Name", "ProductCode"]) == {
        "Name": "Trail Jacket",
        "ProductCode": "TJ-1",
    }
    account = org.insert("Account", {"Name": "Acme"})
    order = org.insert(
        "Order",
        {
            "AccountId": account,
            "EffectiveDate": "2024-01-05",
            "Status": "Draft",
            "Pricebook2Id": STANDARD_PRICEBOOK_ID,
        },
    )
    item = org.insert(
        "OrderItem", {"OrderId": order, "PricebookEntryId": entry, "Quantity": 2, "UnitPrice": 75}
    )
    assert float(org.get("OrderItem", item)["TotalPrice"]) == 150.0
    assert float(org.get("OrderItem", item)["ListPrice"]) == 80.0
    assert float(org.get("Order", order)["TotalAmount"]) == 150.0
    org.update("OrderItem", item, {"Quantity": 3})
    assert float(org.get("Order", order)["TotalAmount"]) == 225.0
    org.delete("OrderItem", item)
    assert float(org.get("Order", order)["TotalAmount"]) == 0.0
    org.update("Order", order, {"Status": "Activated"})
    assert org.get("Order", order)["StatusCode"] == "Activated"


def test_junction_id_lists_hold_several_ids(org):
    case = org.insert("Case", {"Subject": "x"})
    message = org.insert(
        "EmailMessage", {"ParentId": case, "Subject": "hi", "Status": "3", "ToIds": [org.user_id]}
    )
    assert org.get("EmailMessage", message)["ToIds"] == [org.user_id]


def test_a_grandchild_keeps_its_view_when_the_fork_between_writes_or_closes(org):
    """Forks read their ancestors' tables through DuckDB's search path; a copy made in between must not shadow them."""
    account_id = org.insert("Account", {"Name": "Root"})
    child = org.fork()
    grandchild = child.fork()
    child.update("Account", account_id, {"Name": "Child"})  # the child copies Account, nearer on the path
    assert grandchild.get("Account", account_id)["Name"] == "Root"
    assert grandchild.count("Account") == 1
    child.insert("Contact", {"LastName": "Only in child"})
    child.close()
    assert grandchild.get("Account", account_id)["Name"] == "Root"
    assert grandchild.count("Contact") == 0
    grandchild.insert("Account", {"Name": "Grandchild"})
    assert org.count("Account") == 1 and grandchild.count("Account") == 2


def test_a_template_closes_after_its_forks_were_closed():
    """The benchmark runner closes one fork per episode, then the template: closed forks are let go."""
    template = Org.new()
    template.insert("Account", {"Name": "Kept"})
    for _ in range(3):
        fork = template.fork()
        fork.insert("Account", {"Name": "Episode write"})
        fork.close()
    survivor = template.fork()
    template.close()
    assert survivor.count("Account") == 1


def test_forks_are_cheap_whatever_the_tables(org):
    fork = org.fork()
    assert fork.has_table("Account") and "Account" in fork.table_names()
    own = fork.con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_catalog = ?", [fork.catalog]
    ).fetchone()[0]
    assert own == 0  # nothing is copied (or even declared) until a write


def test_a_record_carries_its_addresses_as_rest_compounds(org):
    account = org.insert("Account", {"Name": "Acme", "BillingCity": "Atlanta", "BillingState": "GA"})
    record = org.get("Account", account)
    assert record["BillingAddress"] == {
        "city": "Atlanta",
        "country": None,
        "geocodeAccuracy": None,
        "latitude": None,
        "longitude": None,
        "postalCode": None,
        "state": "GA",
        "street": None,
    }
    assert record["ShippingAddress"] is None  # no component set
