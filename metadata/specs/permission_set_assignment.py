"""PermissionSetAssignment: a permission set given to a user (Object Reference: PermissionSetAssignment).

It has no Name and no Created*/LastModified* audit fields, only ``SystemModstamp``; assignments
are created and deleted, never updated.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import id_field, read_only

SPEC = sobject(
    "PermissionSetAssignment",
    "Permission Set Assignment",
    "Permission Set Assignments",
    "0Pa",
    updateable=False,
    undeletable=False,
    searchable=False,
    scopes=[],
    fields=[
        id_field("Permission Set Assignment ID"),
        field("PermissionSetId", "reference", "Permission Set ID", to="PermissionSet", child="Assignments", required=True, updateable=False),
        field("AssigneeId", "reference", "Assignee ID", to="User", child="PermissionSetAssignments", required=True, updateable=False),
        field("ExpirationDate", "datetime", "Expiration Date"),
        read_only("IsActive", "boolean", "Active", defaultedOnCreate=True),
        read_only("SystemModstamp", "datetime", "System Modstamp", required=True, defaultedOnCreate=True),
    ],
)
