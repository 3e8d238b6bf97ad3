"""PermissionSet: a set of permissions granted to users on top of their profile (Object Reference: PermissionSet).

``crmarena-sf push`` creates one (``CRMArena_Push``) granting read and edit on the fields it
adds, since a field created through the Metadata API is readable by nobody until a profile or
permission set grants it, and assigns it to the running user (PermissionSetAssignment). The
grants themselves are ObjectPermissions and FieldPermissions rows whose ``ParentId`` is the set.
Left out: the hundreds of ``Permissions*`` user-permission checkboxes, ``LicenseId`` and
``PermissionSetGroupId`` (their objects are not in this schema).
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, read_only

SPEC = sobject(
    "PermissionSet",
    "Permission Set",
    "Permission Sets",
    "0PS",
    undeletable=False,
    searchable=False,
    scopes=[],
    fields=[
        id_field("Permission Set ID"),
        field("Name", "string", "Name", required=True, length=80),
        field("Label", "string", "Label", required=True, length=80, nameField=True),
        read_only("IsOwnedByProfile", "boolean", "Is Owned by Profile"),
        read_only("IsCustom", "boolean", "Custom"),
        read_only("ProfileId", "reference", "Profile ID", to="Profile", child=None),
        read_only("NamespacePrefix", "string", "Namespace Prefix", length=15),
        field("Description", "string", "Description", length=255),
        field("HasActivationRequired", "boolean", "Session Activation Required"),
        *audit_fields(),
    ],
)
