"""Territory2Type: a category of territories; every Territory2 has one (Object Reference:
Territory2Type,
https://developer.salesforce.com/docs/platform/object-reference/references/standard-objects/object-territory2type.html;
field list: Field Reference, Territory2Type).

Available only once Sales Territories is enabled. Required on create: DeveloperName,
MasterLabel and Priority (an integer each type holds uniquely, used by filter-based opportunity
territory assignment). Key prefix ``0M5`` (not confirmed from a public source).
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted
from crmarena_sf.metadata.specs._locales import LANGUAGES

SPEC = sobject(
    "Territory2Type",
    "Territory Type",
    "Territory Types",
    "0M5",
    searchable=False,
    scopes=[("everything", "All territory types")],
    fields=[
        id_field("Territory Type ID"),
        is_deleted(),
        field("DeveloperName", "string", "Territory Type Name", required=True, length=80),
        field("Language", "picklist", "Master Language", values=LANGUAGES, default="en_US", restrictedPicklist=True),
        field("MasterLabel", "string", "Label", required=True, length=80, nameField=True),
        field("Description", "textarea", "Description", length=255),
        field("Priority", "int", "Priority", required=True, digits=5),
        *audit_fields(),
    ],
)
