"""Territory2: a sales territory of Sales Territories (Enterprise Territory Management)
(Object Reference: Territory2,
https://developer.salesforce.com/docs/platform/object-reference/references/standard-objects/object-territory2.html;
field list: Field Reference, Territory2).

Available only once Sales Territories is enabled in Setup. Every territory belongs to a model
(``Territory2ModelId``) and has a type (``Territory2TypeId``); both, with Name and
DeveloperName, are required on create. The field reference lists no CreatedDate, CreatedById
or IsDeleted for Territory2, so it has none here. CRMArena-Pro keeps a territory's states in
``Description`` as a comma-separated list of two-letter codes, which its lead routing policy
reads (CRMArena-Pro, arXiv 2505.18878). Child relationships whose names no public describe
shows are left unnamed. Its supported calls include no undelete(): a deleted territory skips the
recycle bin (``undeletable`` false). Key prefix ``0MI``.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import id_field, read_only

ACCESS = ["Read Only", "Read/Write", "Owner"]
PRIVATE_ACCESS = ["Private", "Read Only", "Read/Write"]

SPEC = sobject(
    "Territory2",
    "Territory",
    "Territories",
    "0MI",
    undeletable=False,
    scopes=[("everything", "All territories")],
    fields=[
        id_field("Territory ID"),
        field("Name", "string", "Territory Label", required=True, length=80, nameField=True),
        field("Territory2TypeId", "reference", "Territory Type ID", to="Territory2Type", required=True),
        field("Territory2ModelId", "reference", "Territory Model ID", to="Territory2Model", required=True, updateable=False),
        field("ParentTerritory2Id", "reference", "Parent Territory ID", to="Territory2"),
        field("Description", "string", "Territory Description", length=1000),
        field("ForecastUserId", "reference", "User ID", to="User"),
        field("AccountAccessLevel", "picklist", "Account Access Level", values=ACCESS, restrictedPicklist=True),
        field("OpportunityAccessLevel", "picklist", "Opportunity Access Level", values=PRIVATE_ACCESS, restrictedPicklist=True),
        field("CaseAccessLevel", "picklist", "Case Access Level", values=PRIVATE_ACCESS, restrictedPicklist=True),
        read_only("ContactAccessLevel", "picklist", "Contact Access Level", values=PRIVATE_ACCESS, restrictedPicklist=True),
        field("DeveloperName", "string", "Developer Name", required=True, length=80),
        read_only("LastModifiedDate", "datetime", "Last Modified Date", required=True, defaultedOnCreate=True),
        read_only("LastModifiedById", "reference", "Last Modified By ID", to="User", required=True, defaultedOnCreate=True),
        read_only("SystemModstamp", "datetime", "System Modstamp", required=True, defaultedOnCreate=True),
    ],
)
