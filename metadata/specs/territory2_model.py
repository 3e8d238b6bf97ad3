"""Territory2Model: a territory model of Sales Territories (Enterprise Territory Management)
(Object Reference: Territory2Model,
https://developer.salesforce.com/docs/platform/object-reference/references/standard-objects/object-territory2model.html;
field list: Field Reference, Territory2Model).

Available only once Sales Territories is enabled in Setup. A model created through the API
starts in ``Planning``; ``State`` lists the states the reference names (Planning, Active,
Archived, and the process state Cloning; the other process states are left out). Required on
create: Name and DeveloperName. Key prefix ``0MA`` (not confirmed from a public source).
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import (
    audit_fields,
    id_field,
    is_deleted,
    last_viewed_fields,
    read_only,
)

SPEC = sobject(
    "Territory2Model",
    "Territory Model",
    "Territory Models",
    "0MA",
    scopes=[("everything", "All territory models")],
    fields=[
        id_field("Territory Model ID"),
        is_deleted(),
        field("Name", "string", "Label", required=True, length=80, nameField=True),
        field("DeveloperName", "string", "Territory Model Name", required=True, length=80),
        field("Description", "textarea", "Description", length=255),
        *audit_fields(),
        *last_viewed_fields(),
        read_only("ActivatedDate", "datetime", "Activated Date"),
        read_only("DeactivatedDate", "datetime", "Deactivated Date"),
        field("State", "picklist", "State", values=["Planning", "Active", "Archived", "Cloning"], default="Planning", restrictedPicklist=True),
        read_only("LastRunRulesEndDate", "datetime", "Last successful model realign date"),
        read_only("LastOppTerrAssignEndDate", "datetime", "Last successful opportunity territory assignment date"),
        read_only("IsCloneSource", "boolean", "Clone source"),
    ],
)
