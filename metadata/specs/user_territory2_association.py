"""UserTerritory2Association: a user's assignment to a territory (Object Reference:
UserTerritory2Association,
https://developer.salesforce.com/docs/platform/object-reference/references/standard-objects/object-userterritory2association.html;
field list: Field Reference, UserTerritory2Association).

Supported calls are create, delete, query and retrieve: only ``RoleInTerritory2`` can be
updated, and the object takes no custom fields. ``IsActive`` is defaulted on create (false).
The field reference lists no created-date or recycle-bin fields, so it has none here; its
child relationships on User and Territory2 are left unnamed (no public describe shows them).
Deleting a territory deletes its user assignments with it (cascadeDelete). Key
prefix ``0R0`` (not confirmed from a public source).
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import id_field, read_only

SPEC = sobject(
    "UserTerritory2Association",
    "User Territory Association",
    "User Territory Associations",
    "0R0",
    searchable=False,
    undeletable=False,
    scopes=[("everything", "All user territory associations")],
    fields=[
        id_field("User Territory Association ID"),
        field("UserId", "reference", "User ID", to="User", required=True, updateable=False),
        field("Territory2Id", "reference", "Territory ID", to="Territory2", cascade=True, required=True, updateable=False),
        read_only("IsActive", "boolean", "Active", defaultedOnCreate=True),
        field("RoleInTerritory2", "picklist", "Role in Territory", values=["Owner", "Administrator", "Sales Rep"], length=255),
        read_only("LastModifiedDate", "datetime", "Last Modified Date", required=True, defaultedOnCreate=True),
        read_only("LastModifiedById", "reference", "Last Modified By ID", to="User", required=True, defaultedOnCreate=True),
        read_only("SystemModstamp", "datetime", "System Modstamp", required=True, defaultedOnCreate=True),
    ],
)
