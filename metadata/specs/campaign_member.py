"""CampaignMember: a lead or contact in a campaign (Object Reference: CampaignMember,
https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_campaignmember.htm).

Required on create: CampaignId and a LeadId or ContactId (neither can change afterwards); a
member is deleted with its campaign, lead or contact. ``Status`` defaults to ``Sent``, one of a
new campaign's two member statuses (``Responded`` sets HasResponded). Left out: the member's
read-only copies of its lead's or contact's fields (name, title, address, phones ...), which
the org keeps in step with the person.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, read_only

SPEC = sobject(
    "CampaignMember",
    "Campaign Member",
    "Campaign Members",
    "00v",
    mruEnabled=False,
    searchable=False,
    scopes=[("everything", "All campaign members")],
    fields=[
        id_field("Campaign Member ID"),
        is_deleted(),
        field("CampaignId", "reference", "Campaign ID", to="Campaign", child="CampaignMembers", cascade=True, required=True, updateable=False),
        field("LeadId", "reference", "Lead ID", to="Lead", child="CampaignMembers", cascade=True, updateable=False),
        field("ContactId", "reference", "Contact ID", to="Contact", child="CampaignMembers", cascade=True, updateable=False),
        field("Status", "picklist", "Status", values=["Sent", "Responded"], default="Sent"),
        read_only("HasResponded", "boolean", "Responded", defaultedOnCreate=True),
        *audit_fields(),
        read_only("FirstRespondedDate", "date", "First Responded Date"),
        read_only("LeadOrContactId", "reference", "Contact or Lead ID", to=["Contact", "Lead"]),
        read_only("Type", "string", "Type", length=40),
    ],
)
