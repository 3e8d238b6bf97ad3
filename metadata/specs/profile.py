"""Profile: the permissions a user has (Object Reference: Profile).

A new org has the standard profiles 'System Administrator' and 'Standard User'. Left out: the
hundreds of ``Permissions*`` checkboxes, and ``UserLicenseId`` (UserLicense is not in this
schema). Profiles are set up in Setup: the API can only read and update them here.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, last_viewed_fields, read_only
from crmarena_sf.metadata.specs.user import USER_TYPES

SPEC = sobject(
    "Profile",
    "Profile",
    "Profiles",
    "00e",
    createable=False,
    deletable=False,
    undeletable=False,
    searchable=False,
    fields=[
        id_field("Profile ID"),
        field("Name", "string", "Name", required=True, length=255, nameField=True),
        read_only("UserType", "picklist", "User Type", values=USER_TYPES, restrictedPicklist=True),
        field("Description", "string", "Description", length=255),
        *audit_fields(),
        *last_viewed_fields(),
    ],
)
