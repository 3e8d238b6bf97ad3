"""UserRole: a node of the role hierarchy (Object Reference: UserRole).

UserRole has no CreatedDate/CreatedById (only the LastModified* audit fields) and no IsDeleted.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import id_field, read_only

_ACCESS = ["None", "Read", "Edit"]

SPEC = sobject(
    "UserRole",
    "Role",
    "Roles",
    "00E",
    undeletable=False,
    searchable=False,
    scopes=[],
    fields=[
        id_field("Role ID"),
        field("Name", "string", "Name", required=True, length=80, nameField=True),
        field("ParentRoleId", "reference", "Parent Role ID", to="UserRole", relationshipName=None),
        field("RollupDescription", "string", "Description", length=80),
        field("OpportunityAccessForAccountOwner", "picklist", "Opportunity Access Level", values=_ACCESS, required=True, defaultedOnCreate=True, restrictedPicklist=True),
        field("CaseAccessForAccountOwner", "picklist", "Case Access Level", values=_ACCESS, defaultedOnCreate=True, restrictedPicklist=True),
        field("ContactAccessForAccountOwner", "picklist", "Contact Access Level", values=_ACCESS, defaultedOnCreate=True, restrictedPicklist=True),
        field("ForecastUserId", "reference", "Forecast Manager ID", to="User", relationshipName="ForecastUser"),
        field("MayForecastManagerShare", "boolean", "May Forecast Manager Share"),
        read_only("LastModifiedDate", "datetime", "Last Modified Date", required=True, defaultedOnCreate=True),
        read_only("LastModifiedById", "reference", "Last Modified By ID", to="User", required=True, defaultedOnCreate=True),
        read_only("SystemModstamp", "datetime", "System Modstamp", required=True, defaultedOnCreate=True),
        field("DeveloperName", "string", "Developer Name", length=80),
        field("PortalAccountId", "reference", "Account ID", to="Account", child=None),
        read_only("PortalType", "picklist", "Portal Type", values=["None", "CustomerPortal", "Partner"], restrictedPicklist=True),
        field("PortalAccountOwnerId", "reference", "Partner Account Owner ID", to="User", relationshipName="PortalAccountOwner"),
    ],
)
