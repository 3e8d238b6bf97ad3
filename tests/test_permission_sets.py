"""Permission sets as every org has them: one owned by each profile, with its object and field permissions and assignments.

Object Reference: "PermissionSet" (every profile has a permission set of its own,
``IsOwnedByProfile`` true, ``ProfileId`` set), "ObjectPermissions", "FieldPermissions" and
"PermissionSetAssignment" (a user's assignment to its profile's set is listed too)
(https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_permissionset.htm).
A new org has no other permission set; a client grants a new field by adding FieldPermissions
to a set, and assigns a set with a PermissionSetAssignment, as the Salesforce DX MCP server's
``assign_permission_set`` does.
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator.rest.transport.messages import INSTANCE_URL
from crmarena_sf.emulator.store.seed import ADMIN_USERNAME
from simple_salesforce import Salesforce

from crmarena_sf import connect, mock_salesforce


@pytest.fixture
def sf():
    return connect("blank")


def test_a_new_org_has_its_profiles_permission_sets_and_nothing_else(sf):
    sets = sf.query("SELECT Name, IsOwnedByProfile, Profile.Name FROM PermissionSet ORDER BY Profile.Name")[
        "records"
    ]
    assert [(s["IsOwnedByProfile"], s["Profile"]["Name"]) for s in sets] == [
        (True, "Standard User"),
        (True, "System Administrator"),
    ]
    assert sf.query("SELECT COUNT() FROM PermissionSet WHERE IsOwnedByProfile = false")["totalSize"] == 0
    [assignment] = sf.query(
        "SELECT Assignee.Username, PermissionSet.Profile.Name FROM PermissionSetAssignment"
    )["records"]
    assert assignment["Assignee"]["Username"] == ADMIN_USERNAME
    assert assignment["PermissionSet"]["Profile"]["Name"] == "System Administrator"


def test_object_and_field_permissions_say_what_each_profile_may_do(sf):
    admin = sf.query(
        "SELECT PermissionsCreate, PermissionsRead, PermissionsEdit, PermissionsDelete, PermissionsViewAllRecords,"
        " PermissionsModifyAllRecords FROM ObjectPermissions WHERE SobjectType = 'Account'"
        " AND Parent.Profile.Name = 'System Administrator'"
    )["records"]
    assert [list(r.values())[1:] for r in admin] == [[True] * 6]
    standard = sf.query(
        "SELECT PermissionsEdit, PermissionsViewAllRecords FROM ObjectPermissions"
        " WHERE SobjectType = 'Case' AND Parent.Profile.Name = 'Standard User'"
    )["records"]
    assert [(r["PermissionsEdit"], r["PermissionsViewAllRecords"]) for r in standard] == [(True, False)]
    fields = {
        r["Field"]: (r["PermissionsRead"], r["PermissionsEdit"])
        for r in sf.query(
            "SELECT Field, PermissionsRead, PermissionsEdit FROM FieldPermissions"
            " WHERE SobjectType = 'Lead' AND Parent.Profile.Name = 'Standard User'"
        )["records"]
    }
    assert fields["Lead.Industry"] == (True, True)
    assert fields["Lead.Email"] == (True, True)
    # required fields are not permissionable (the describe says so): every profile has them
    assert "Lead.Company" not in fields and "Lead.Id" not in fields


def test_a_client_grants_a_new_field_and_assigns_a_permission_set():
    with mock_salesforce(org="blank", strict_sessions=True) as mock:  # sf.mdapi's zeep has its own session
        _grant_and_assign(Salesforce(instance_url=INSTANCE_URL, session_id=mock.session_id))


def _grant_and_assign(sf):
    md = sf.mdapi
    md.CustomField.create(
        [md.CustomField(fullName="Account.Tier__c", label="Tier", type=md.FieldType("Text"), length=20)]
    )
    admin_set = sf.query(
        "SELECT Id FROM PermissionSet WHERE IsOwnedByProfile = true AND Profile.Name = 'System Administrator'"
    )["records"][0]["Id"]
    sf.FieldPermissions.create(
        {"ParentId": admin_set, "SobjectType": "Account", "Field": "Account.Tier__c", "PermissionsRead": True,
         "PermissionsEdit": True}
    )  # fmt: skip
    granted = sf.query("SELECT PermissionsEdit FROM FieldPermissions WHERE Field = 'Account.Tier__c'")[
        "records"
    ]
    assert [r["PermissionsEdit"] for r in granted] == [True]
    extra = sf.PermissionSet.create({"Name": "Sales_Ops", "Label": "Sales Ops"})["id"]
    user = sf.query(f"SELECT Id FROM User WHERE Username = '{ADMIN_USERNAME}'")["records"][0]["Id"]
    sf.PermissionSetAssignment.create({"PermissionSetId": extra, "AssigneeId": user})
    names = sf.query(
        f"SELECT PermissionSet.Name FROM PermissionSetAssignment WHERE AssigneeId = '{user}' ORDER BY PermissionSet.Name"
    )["records"]
    assert [r["PermissionSet"]["Name"] for r in names] == ["Sales_Ops", "X00eEm0000000001"]


def test_loaded_users_hold_their_profiles_permission_set(tiny_fork):
    from crmarena_sf.emulator import soql

    users = soql.query(tiny_fork, "SELECT COUNT() FROM User WHERE IsActive = true")["totalSize"]
    assert users > 1
    held = soql.query(
        tiny_fork,
        "SELECT COUNT() FROM PermissionSetAssignment WHERE PermissionSet.IsOwnedByProfile = true",
    )["totalSize"]
    assert held == users
