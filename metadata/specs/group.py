"""Group: a public group or a queue; queues can own Cases (Object Reference: Group).

``Type`` tells them apart (``Regular`` = public group, ``Queue``). Groups have no IsDeleted and
no LastViewedDate. ``RelatedId`` points at the role or user a system group is built from.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, read_only

GROUP_TYPES = [
    ("Regular", "Public Group"),
    ("Role", "Role"),
    ("RoleAndSubordinates", "Role and Subordinates"),
    ("RoleAndSubordinatesInternal", "Role and Internal Subordinates"),
    ("Manager", "Manager"),
    ("ManagerAndSubordinatesInternal", "Manager and Subordinates"),
    ("Organization", "Organization"),
    ("Queue", "Queue"),
    ("AllCustomerPortal", "All Customer Portal"),
    ("PRMOrganization", "Portal Organization"),
    ("GuestUserGroup", "Guest User Group"),
]

SPEC = sobject(
    "Group",
    "Group",
    "Groups",
    "00G",
    undeletable=False,
    searchable=False,
    scopes=[("everything", "All groups")],
    fields=[
        id_field("Group ID"),
        field("Name", "string", "Name", length=40, nameField=True),
        field("DeveloperName", "string", "Developer Name", length=80),
        read_only("RelatedId", "reference", "Related ID", to=["User", "UserRole"], relationshipName="Related"),
        field("Type", "picklist", "Type", values=GROUP_TYPES, required=True, restrictedPicklist=True, updateable=False),
        field("Email", "email", "Email", length=255),
        field("OwnerId", "reference", "Owner ID", to=["Organization", "User"], required=True, defaultedOnCreate=True, namePointing=True),
        field("DoesSendEmailToMembers", "boolean", "Send Email to Members"),
        field("DoesIncludeBosses", "boolean", "Include Bosses", defaultValue=True),
        *audit_fields(),
    ],
)
