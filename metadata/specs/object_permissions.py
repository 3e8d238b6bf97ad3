"""ObjectPermissions: one object's create/read/edit/delete grant in a permission set (Object Reference: ObjectPermissions).

``SobjectType`` names the object (a picklist of every object in a real org; left open here),
``ParentId`` the permission set or the profile's own permission set.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field

SPEC = sobject(
    "ObjectPermissions",
    "Object Permissions",
    "Object Permissions",
    "110",
    undeletable=False,
    searchable=False,
    scopes=[],
    fields=[
        id_field("Object Permissions ID"),
        field("ParentId", "reference", "Parent ID", to="PermissionSet", child="ObjectPerms", required=True, updateable=False),
        field("SobjectType", "picklist", "Sobject Type Name", values=[], required=True, updateable=False),
        field("PermissionsCreate", "boolean", "Create"),
        field("PermissionsRead", "boolean", "Read"),
        field("PermissionsEdit", "boolean", "Edit"),
        field("PermissionsDelete", "boolean", "Delete"),
        field("PermissionsViewAllRecords", "boolean", "View All Records"),
        field("PermissionsModifyAllRecords", "boolean", "Modify All Records"),
        *audit_fields(),
    ],
)
