"""Campaign: a marketing initiative (Object Reference: Campaign,
https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_campaign.htm).

Required on create: Name. The Number* and Amount* fields are roll-ups the org computes from
the campaign's leads, contacts and opportunities (read-only here, empty in a new org).
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
    "Campaign",
    "Campaign",
    "Campaigns",
    "701",
    feedEnabled=True,
    scopes=[("everything", "All campaigns"), ("mine", "My campaigns"), ("team", "My team's campaigns")],
    fields=[
        id_field("Campaign ID"),
        is_deleted(),
        field("Name", "string", "Name", required=True, length=80, nameField=True),
        field("ParentId", "reference", "Parent Campaign ID", to="Campaign", child="ChildCampaigns"),
        field("Type", "picklist", "Type", values=["Conference", "Webinar", "Trade Show", "Public Relations", "Partners", "Referral Program", "Advertisement", "Banner Ads", "Direct Mail", "Email", "Telemarketing", "Other"]),
        field("Status", "picklist", "Status", values=["Planned", "In Progress", "Completed", "Aborted"]),
        field("StartDate", "date", "Start Date"),
        field("EndDate", "date", "End Date"),
        field("ExpectedRevenue", "currency", "Expected Revenue in Campaign", precision=18, scale=0),
        field("BudgetedCost", "currency", "Budgeted Cost in Campaign", precision=18, scale=0),
        field("ActualCost", "currency", "Actual Cost in Campaign", precision=18, scale=0),
        field("ExpectedResponse", "percent", "Expected Response (%)", precision=10, scale=2),
        field("NumberSent", "double", "Num Sent in Campaign", precision=18, scale=0),
        field("IsActive", "boolean", "Active"),
        field("Description", "textarea", "Description", length=32000),
        read_only("NumberOfLeads", "int", "Leads in Campaign"),
        read_only("NumberOfConvertedLeads", "int", "Converted Leads in Campaign"),
        read_only("NumberOfContacts", "int", "Contacts in Campaign"),
        read_only("NumberOfResponses", "int", "Responses in Campaign"),
        read_only("NumberOfOpportunities", "int", "Opportunities in Campaign"),
        read_only("NumberOfWonOpportunities", "int", "Won Opportunities in Campaign"),
        read_only("AmountAllOpportunities", "currency", "Value Opportunities in Campaign"),
        read_only("AmountWonOpportunities", "currency", "Value Won Opportunities in Campaign"),
        field("OwnerId", "reference", "Owner ID", to="User", required=True, defaultedOnCreate=True),
        *audit_fields(),
        read_only("LastActivityDate", "date", "Last Activity"),
        *last_viewed_fields(),
        field("CampaignMemberRecordTypeId", "reference", "Record Type ID", to="RecordType"),
    ],
)
