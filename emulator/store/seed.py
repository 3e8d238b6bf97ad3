"""What a brand-new Salesforce org already contains.

The admin user (the running user of every request), the standard profiles, the
record types the metadata declares (Account's Person Account and Business Account),
the standard price book (``IsStandard = true``), the lead statuses (LeadStatus, one converting
a lead), each profile's own permission set with its object and field permissions and the admin's
assignment to it (:mod:`crmarena_sf.emulator.store.profile_permissions`), the Organization row and the user
licences of a Developer Edition org (two ``Salesforce`` licences, one used by the admin,
and three ``Salesforce Platform`` ones). Ids are fixed,
so every new org is identical. Objects missing from the schema are skipped.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.store.derive import apply_defaults, derive
from crmarena_sf.emulator.store.dml import write_rows
from crmarena_sf.emulator.store.profile_permissions import missing_assignments, seed_profile_permission_sets
from crmarena_sf.metadata.specs.lead_status import LEAD_STATUSES

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org
    from crmarena_sf.metadata.model import RecordTypeInfo, SObject

ORG_CREATED = dt.datetime(2019, 12, 1, 0, 0, 0)
"""When every new org was created: before CRMArena's earliest case (2020-01-02)."""

ORGANIZATION_ID = ids.make_id("00D", 1)
SYSTEM_ADMINISTRATOR_PROFILE_ID = ids.make_id("00e", 1)
STANDARD_USER_PROFILE_ID = ids.make_id("00e", 2)
STANDARD_PRICEBOOK_ID = ids.make_id("01s", 1)
ADMIN_USERNAME = "admin@crmarena-sf.example.com"
USER_LICENSES = (("Salesforce", "SFDC", 2, 1), ("Salesforce Platform", "AUL", 3, 0))
"""(Name, LicenseDefinitionKey, TotalLicenses, UsedLicenses) of a new Developer Edition org."""


def seed_new_org(org: Org) -> None:
    """Insert the new-org records (inside the caller's transaction)."""
    admin = org.user_id
    _add(
        org,
        "Organization",
        {
            "Id": ORGANIZATION_ID,
            "Name": "CRMArena Shoes & Clothings",
            "OrganizationType": "Developer Edition",
            "IsSandbox": False,
            "TimeZoneSidKey": org.timezone if "/" in org.timezone else "GMT",
            "LanguageLocaleKey": "en_US",
            "DefaultLocaleSidKey": "en_US",
            "PrimaryContact": "Admin User",
            "Country": "United States",
            "InstanceName": "EM1",
            "NamespacePrefix": None,
            "FiscalYearStartMonth": 1,
            "UsesStartDateAsFiscalYearName": False,
        },
    )
    _add(
        org,
        "Profile",
        {
            "Id": SYSTEM_ADMINISTRATOR_PROFILE_ID,
            "Name": "System Administrator",
            "UserType": "Standard",
            "UserLicenseId": None,
            "Description": None,
        },
    )
    _add(
        org,
        "Profile",
        {
            "Id": STANDARD_USER_PROFILE_ID,
            "Name": "Standard User",
            "UserType": "Standard",
            "UserLicenseId": None,
            "Description": None,
        },
    )
    _add(
        org,
        "User",
        {
            "Id": admin,
            "Username": ADMIN_USERNAME,
            "FirstName": "Admin",
            "LastName": "User",
            "Email": "admin@crmarena-sf.example.com",
            "Alias": "admin",
            "CommunityNickname": "admin",
            "IsActive": True,
            "TimeZoneSidKey": "GMT",
            "LocaleSidKey": "en_US",
            "EmailEncodingKey": "UTF-8",
            "LanguageLocaleKey": "en_US",
            "ProfileId": SYSTEM_ADMINISTRATOR_PROFILE_ID,
            "UserType": "Standard",
        },
    )
    for obj in org.schema:
        for rt in obj.recordTypeInfos:
            if not rt.master:
                _add_record_type(org, obj, rt, person_type=rt.developerName == "PersonAccount")
    _add(
        org,
        "Pricebook2",
        {"Id": STANDARD_PRICEBOOK_ID, "Name": "Standard Price Book", "IsActive": True, "IsStandard": True},
    )
    for number, (status, converted) in enumerate(LEAD_STATUSES, start=1):
        _add(
            org,
            "LeadStatus",
            {
                "Id": ids.make_id("01J", number),
                "MasterLabel": status,
                "ApiName": status,
                "SortOrder": number,
                "IsDefault": number == 1,
                "IsConverted": converted,
            },
        )
    for number, (name, key, total, used) in enumerate(USER_LICENSES, start=1):
        _add(
            org,
            "UserLicense",
            {
                "Id": ids.make_id("100", number),
                "Name": name,
                "MasterLabel": name,
                "LicenseDefinitionKey": key,
                "TotalLicenses": total,
                "UsedLicenses": used,
                "UsedLicensesLastUpdated": ORG_CREATED,
                "Status": "Active",
            },
        )
    seed_profile_permission_sets(org, lambda name, rows: _add_rows(org, name, rows))
    _add_rows(
        org,
        "PermissionSetAssignment",
        [{"Id": ids.make_id("0Pa", n), **row} for n, row in enumerate(missing_assignments(org), start=1)],
    )
    org.refresh_counters()


def _add_record_type(org: Org, obj: SObject, rt: RecordTypeInfo, *, person_type: bool) -> None:
    """The RecordType row of record type ``rt`` of ``obj`` (IsPersonType: a person account's)."""
    _add(
        org,
        "RecordType",
        {
            "Id": rt.recordTypeId,
            "Name": rt.name,
            "DeveloperName": rt.developerName,
            "SobjectType": obj.name,
            "IsActive": True,
            "NamespacePrefix": None,
            "IsPersonType": person_type,
            "BusinessProcessId": None,
        },
    )


def _add(org: Org, object_name: str, values: dict[str, Any]) -> None:
    _add_rows(org, object_name, [values])


def _add_rows(org: Org, object_name: str, rows: list[dict[str, Any]]) -> None:
    """Write new-org records of one object (each with its Id), stamped as made when the org was."""
    obj = org.schema.get(object_name)
    if obj is None or not rows:
        return
    stamped = []
    for values in rows:
        row = {}
        for key, value in values.items():
            f = obj.field(key)
            if f is not None and not f.is_compound:
                row[f.name] = value
        apply_defaults(obj, row)
        if obj.field("IsDeleted") is not None:
            row["IsDeleted"] = False
        for name in ("CreatedDate", "LastModifiedDate", "SystemModstamp"):
            if obj.field(name) is not None:
                row[name] = ORG_CREATED
        for name in ("CreatedById", "LastModifiedById", "OwnerId"):
            if obj.field(name) is not None:
                row.setdefault(name, org.user_id)
        derive(obj, row, None, ORG_CREATED)
        stamped.append(row)
    write_rows(org, obj, stamped)


def add_record_types(org: Org, objects: list[SObject]) -> None:
    """RecordType rows for the record types of ``objects`` the org does not hold yet (inside the caller's
    transaction): what an org shows once describes with record types are added to it."""
    if org.schema.get("RecordType") is None:
        return
    held = {row[0] for row in org.con.execute(f'SELECT "Id" FROM {org.table_sql("RecordType")}').fetchall()}
    for obj in objects:
        for rt in obj.recordTypeInfos:
            if rt.master or rt.recordTypeId in held:
                continue
            org.before_write("RecordType")
            # A person-account org has its person record types from the start: these are business ones.
            _add_record_type(org, obj, rt, person_type=False)
