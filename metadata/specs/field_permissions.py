"""FieldPermissions: field-level security of one field in a permission set (Object Reference: FieldPermissions).

``Field`` is ``Object.Field`` (``Case.IssueId__c``); ``PermissionsEdit`` implies read.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field

SPEC = sobject(
    "FieldPermissions",
    "Field Permissions",
    "Field Permissions",
    "01k",
    undeletable=False,
    searchable=False,
    scopes=[],
    fields=[
        id_field("Field Permissions ID"),
        field("ParentId", "reference", "Parent ID", to="PermissionSet", child="FieldPerms", required=True, updateable=False),
        field("SobjectType", "picklist", "Sobject Type Name", values=[], required=True, updateable=False),
        field("Field", "picklist", "Field Name", values=[], required=True, updateable=False),
        field("PermissionsEdit", "boolean", "Edit Field"),
        field("PermissionsRead", "boolean", "Read Field"),
        *audit_fields(),
    ],
)
