"""Issue__c: CRMArena's catalogue of customer-issue kinds (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db).

Ten rows (Billing/Payment Issue, Return Policy Issue, Product Defect ...); a Case points at its
issue through ``Case.IssueId__c`` (child relationship ``Cases__r``). Key prefix ``a1M`` as in
the CRMArena org.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import custom_object_scopes, custom_object_standard_fields

SPEC = sobject(
    "Issue__c",
    "Issue",
    "Issues",
    "a1M",
    scopes=custom_object_scopes("Issues"),
    fields=[
        *custom_object_standard_fields(field("Name", "string", "Issue Name", length=80, nameField=True)),
        field("Description__c", "textarea", "Description", length=32768, extraTypeInfo="plaintextarea"),
    ],
)
