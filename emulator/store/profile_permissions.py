"""The permission sets every org has: one owned by each profile, its object and field permissions, each user's assignment.

Object Reference, "PermissionSet"
(https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_permissionset.htm):
"Every profile is associated with a permission set that stores the profile's user, object, and
field permissions"; such a set has ``IsOwnedByProfile`` true and ``ProfileId`` naming the profile,
which is how clients find a profile's permissions (``SELECT Id FROM PermissionSet WHERE
IsOwnedByProfile = true AND ProfileId = ...``). Its grants are ObjectPermissions and
FieldPermissions rows whose ``ParentId`` is the set ("ObjectPermissions", "FieldPermissions"),
and every user holds a PermissionSetAssignment to their profile's set ("PermissionSetAssignment":
"includes assignments to permission sets that are owned by profiles"). A new org has permission
sets of no other kind: the blank org counts its profiles' sets and nothing more.

What the profiles may do, here: the System Administrator everything on every object a profile
grants (create, read, edit, delete, view all, modify all), the Standard User create, read, edit
and delete; both read every permissionable field of those objects and of their activities and
line items, and edit those the describe lets anyone write.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator import ids

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org
    from crmarena_sf.metadata.model import SObject

OBJECT_GRANTS = (
    "Account", "Asset", "Campaign", "Case", "Contact", "Contract", "Individual", "Knowledge__kav", "Lead",
    "LiveChatTranscript", "LiveChatVisitor", "Opportunity", "Order", "Pricebook2", "Product2",
    "ProductCatalog", "ProductCategory", "Quote",
)  # fmt: skip
"""Standard objects whose access a profile sets (custom objects too); activities and line items follow their parents."""
FIELD_ONLY = (
    "Task",
    "Event",
    "OpportunityLineItem",
    "OrderItem",
    "QuoteLineItem",
    "CampaignMember",
    "EmailMessage",
)
"""Objects with field permissions but no object permissions of their own."""
ADMIN_PROFILE_NAME = "System Administrator"


def granted_objects(org: Org) -> list[SObject]:
    """The objects a profile holds object permissions for: :data:`OBJECT_GRANTS` and custom objects."""
    return [obj for obj in org.schema if obj.name in OBJECT_GRANTS or obj.name.endswith("__c")]


def profile_set_id(profile_id: str) -> str:
    """The Id of a profile's own permission set (fixed, so every new org is identical)."""
    return ids.make_id("0PS", ids.counter_of(profile_id))


def seed_profile_permission_sets(org: Org, add_rows) -> None:
    """Each profile's own permission set with its grants (inside the caller's transaction); ``add_rows(object,
    rows)`` stamps and writes new-org rows (:mod:`crmarena_sf.emulator.store.seed`)."""
    if any(org.schema.get(n) is None for n in ("PermissionSet", "ObjectPermissions", "FieldPermissions")):
        return
    profiles = org.con.execute(
        f'SELECT "Id", "Name" FROM {org.table_sql("Profile")} ORDER BY "Id"'
    ).fetchall()
    sets, objects, fields = [], [], []
    for profile_id, name in profiles:
        set_id = profile_set_id(profile_id)
        label = profile_id[:15]
        sets.append(
            {
                "Id": set_id,
                "Name": f"X{label}",
                "Label": label,
                "IsOwnedByProfile": True,
                "IsCustom": False,
                "ProfileId": profile_id,
            }
        )
        admin = name == ADMIN_PROFILE_NAME
        for obj in granted_objects(org):
            objects.append(
                {
                    "ParentId": set_id,
                    "SobjectType": obj.name,
                    "PermissionsCreate": obj.createable,
                    "PermissionsRead": True,
                    "PermissionsEdit": obj.updateable,
                    "PermissionsDelete": obj.deletable,
                    "PermissionsViewAllRecords": admin,
                    "PermissionsModifyAllRecords": admin,
                }
            )
        for obj in [*granted_objects(org), *(org.schema.get(n) for n in FIELD_ONLY if org.schema.get(n))]:
            fields.extend(field_grants(obj, set_id))
    add_rows("PermissionSet", sets)
    add_rows("ObjectPermissions", _numbered(org, "ObjectPermissions", objects))
    add_rows("FieldPermissions", _numbered(org, "FieldPermissions", fields))


def field_grants(obj: SObject, set_id: str) -> list[dict[str, Any]]:
    """FieldPermissions rows granting read (and edit where the describe allows writing) on every
    permissionable field of ``obj``."""
    return [
        {
            "ParentId": set_id,
            "SobjectType": obj.name,
            "Field": f"{obj.name}.{f.name}",
            "PermissionsRead": True,
            "PermissionsEdit": bool((f.createable or f.updateable) and not f.calculated and not f.autoNumber),
        }
        for f in obj.fields
        if f.permissionable
    ]


def _numbered(org: Org, object_name: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    prefix = org.sobject(object_name).keyPrefix
    return [{"Id": ids.make_id(prefix, n), **row} for n, row in enumerate(rows, start=1)]


def missing_assignments(org: Org) -> list[dict[str, Any]]:
    """PermissionSetAssignment rows (without Id) for each active user not yet assigned their profile's set."""
    if org.schema.get("PermissionSetAssignment") is None or org.schema.get("PermissionSet") is None:
        return []
    rows = org.con.execute(
        f'SELECT u."Id", ps."Id" FROM {org.table_sql("User")} u '
        f'JOIN {org.table_sql("PermissionSet")} ps ON ps."ProfileId" = u."ProfileId" AND ps."IsOwnedByProfile" '
        f'WHERE coalesce(u."IsActive", true) AND NOT EXISTS (SELECT 1 FROM {org.table_sql("PermissionSetAssignment")} a '
        'WHERE a."AssigneeId" = u."Id" AND a."PermissionSetId" = ps."Id") ORDER BY u."Id"'
    ).fetchall()
    return [{"AssigneeId": user, "PermissionSetId": set_id} for user, set_id in rows]


def assign_profile_permission_sets(org: Org) -> int:
    """Give every active user without one the assignment to its profile's permission set (after a load);
    returns how many were made."""
    from crmarena_sf.emulator.store.dml import write_rows

    wanted = missing_assignments(org)
    if not wanted:
        return 0
    obj = org.sobject("PermissionSetAssignment")
    now = org.clock.now()
    rows = []
    for values in wanted:
        row = {"Id": org.new_id(obj), **values, "IsActive": True, "SystemModstamp": now}
        rows.append({k: v for k, v in row.items() if obj.field(k) is not None})
    with org.transaction():
        org.before_write(obj.name)
        write_rows(org, obj, rows)
    return len(rows)
