"""LeadStatus: the values of a lead's Status picklist, and which of them convert a lead (Object Reference: LeadStatus,
https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_leadstatus.htm).

Clients read it before ``convertLead()``: ``SELECT MasterLabel FROM LeadStatus WHERE IsConverted = true``
gives the ``convertedStatus`` a conversion must name (SOAP API Developer Guide, "convertLead()").
The object is set up in Setup, so the API only queries it (not createable, updateable or deletable).
A new org has one row per value of Lead.Status (:data:`LEAD_STATUSES`), seeded with the org.
"""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, read_only

LEAD_STATUSES = (
    ("Open - Not Contacted", False),
    ("Working - Contacted", False),
    ("Closed - Converted", True),
    ("Closed - Not Converted", False),
)
"""A new org's lead statuses in their sort order, and whether each converts a lead (IsConverted)."""

SPEC = sobject(
    "LeadStatus",
    "Lead Status Value",
    "Lead Status Value",
    "01J",
    createable=False,
    updateable=False,
    deletable=False,
    undeletable=False,
    searchable=False,
    layoutable=False,
    mruEnabled=False,
    replicateable=False,
    triggerable=False,
    scopes=[],
    fields=[
        id_field("Lead Status ID"),
        read_only("MasterLabel", "string", "Master Label", nameField=True),
        read_only("ApiName", "string", "Api Name"),
        read_only("SortOrder", "int", "Sort Order", digits=9),
        read_only("IsDefault", "boolean", "Is Default"),
        read_only("IsConverted", "boolean", "Is Converted"),
        *audit_fields(),
    ],
)
