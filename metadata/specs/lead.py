"""Lead: a prospect or potential opportunity (Object Reference: Lead,
https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_lead.htm).

Required on create: LastName and Company; ``Status`` defaults to ``Open - Not Contacted``.
``Name`` is the person name the org builds from FirstName and LastName. The Converted* fields
are set by lead conversion (read-only). Left out: Data.com's ``CleanStatus``/``CompanyDunsNumber``
and ``DandbCompanyId`` (DandBCompany), MiddleName/Suffix (the org setting for them is off).
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import (
    address_fields,
    audit_fields,
    id_field,
    is_deleted,
    last_viewed_fields,
    owner_field,
    read_only,
)
from crmarena_sf.metadata.specs._sales import INDUSTRIES, LEAD_SOURCES, SALUTATIONS
from crmarena_sf.metadata.specs.lead_status import LEAD_STATUSES

SPEC = sobject(
    "Lead",
    "Lead",
    "Leads",
    "00Q",
    feedEnabled=True,
    mergeable=True,
    scopes=[("everything", "All leads"), ("mine", "My leads"), ("queue_owned", "Queue owned leads"), ("team", "My team's leads"), ("user_owned", "User owned leads")],
    fields=[
        id_field("Lead ID"),
        is_deleted(),
        read_only("MasterRecordId", "reference", "Master Record ID", to="Lead"),
        field("LastName", "string", "Last Name", required=True, compoundFieldName="Name", extraTypeInfo="personname", length=80),
        field("FirstName", "string", "First Name", compoundFieldName="Name", extraTypeInfo="personname", length=40, permissionable=False),
        field("Salutation", "picklist", "Salutation", values=SALUTATIONS, compoundFieldName="Name", extraTypeInfo="personname", permissionable=False),
        read_only("Name", "string", "Full Name", required=True, extraTypeInfo="personname", length=121, nameField=True),
        field("Title", "string", "Title", length=128),
        field("Company", "string", "Company", required=True),
        *address_fields("", ""),
        field("Phone", "phone", "Phone"),
        field("MobilePhone", "phone", "Mobile Phone"),
        field("Fax", "phone", "Fax"),
        field("Email", "email", "Email", idLookup=True),
        field("Website", "url", "Website"),
        read_only("PhotoUrl", "url", "Photo URL"),
        field("Description", "textarea", "Description", length=32000),
        field("LeadSource", "picklist", "Lead Source", values=LEAD_SOURCES),
        field("Status", "picklist", "Status", values=[status for status, _ in LEAD_STATUSES], default=LEAD_STATUSES[0][0], required=True),
        field("Industry", "picklist", "Industry", values=INDUSTRIES),
        field("Rating", "picklist", "Rating", values=["Hot", "Warm", "Cold"]),
        field("AnnualRevenue", "currency", "Annual Revenue", precision=18, scale=0),
        field("NumberOfEmployees", "int", "Employees", digits=8),
        owner_field(),
        field("HasOptedOutOfEmail", "boolean", "Email Opt Out", permissionable=True),
        field("IsConverted", "boolean", "Converted", updateable=False),
        read_only("ConvertedDate", "date", "Converted Date"),
        read_only("ConvertedAccountId", "reference", "Converted Account ID", to="Account"),
        read_only("ConvertedContactId", "reference", "Converted Contact ID", to="Contact"),
        read_only("ConvertedOpportunityId", "reference", "Converted Opportunity ID", to="Opportunity"),
        field("IsUnreadByOwner", "boolean", "Unread By Owner"),
        *audit_fields(),
        read_only("LastActivityDate", "date", "Last Activity"),
        field("DoNotCall", "boolean", "Do Not Call", permissionable=True),
        field("HasOptedOutOfFax", "boolean", "Fax Opt Out", permissionable=True),
        *last_viewed_fields(),
        read_only("LastTransferDate", "date", "Last Transfer Date"),
        field("Jigsaw", "string", "Data.com Key", length=20),
        read_only("JigsawContactId", "string", "Jigsaw Contact ID", length=20, relationshipName="JigsawContact"),
        field("EmailBouncedReason", "string", "Email Bounced Reason", permissionable=False),
        field("EmailBouncedDate", "datetime", "Email Bounced Date", permissionable=False),
        field("IndividualId", "reference", "Individual ID", to="Individual", permissionable=False),
    ],
)
