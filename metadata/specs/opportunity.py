"""Opportunity: a sale or pending deal (Object Reference: Opportunity,
https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_opportunity.htm).

Required on create: Name, StageName, CloseDate. The stage decides ``IsClosed``, ``IsWon``, the
forecast category and the default ``Probability`` (a new org's OpportunityStage rows,
:data:`crmarena_sf.metadata.specs._sales.OPPORTUNITY_STAGES`); ``ExpectedRevenue`` is Amount x
Probability; the Fiscal* fields follow from CloseDate. Left out: ``LastAmountChangedHistoryId``
and ``LastCloseDateChangedHistoryId`` (OpportunityHistory), ``IqScore`` and the activity-metric
lookups of Sales Cloud Einstein.
"""

from crmarena_sf.metadata.opportunity_stages import FORECAST_CATEGORIES, OPPORTUNITY_STAGES
from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import (
    audit_fields,
    id_field,
    is_deleted,
    last_viewed_fields,
    read_only,
)
from crmarena_sf.metadata.specs._sales import LEAD_SOURCES

SPEC = sobject(
    "Opportunity",
    "Opportunity",
    "Opportunities",
    "006",
    feedEnabled=True,
    scopes=[("everything", "All opportunities"), ("mine", "My opportunities"), ("team", "My team's opportunities")],
    fields=[
        id_field("Opportunity ID"),
        is_deleted(),
        field("AccountId", "reference", "Account ID", to="Account", child="Opportunities", cascade=True),
        field("IsPrivate", "boolean", "Private"),
        field("Name", "string", "Name", required=True, length=120, nameField=True),
        field("Description", "textarea", "Description", length=32000),
        field("StageName", "picklist", "Stage", values=[stage for stage, _, _ in OPPORTUNITY_STAGES], required=True),
        field("Amount", "currency", "Amount"),
        field("Probability", "percent", "Probability (%)", precision=3, scale=0, defaultedOnCreate=True),
        read_only("ExpectedRevenue", "currency", "Expected Amount", calculated=True),
        field("TotalOpportunityQuantity", "double", "Quantity", scale=2),
        field("CloseDate", "date", "Close Date", required=True),
        field("Type", "picklist", "Opportunity Type", values=["Existing Customer - Upgrade", "Existing Customer - Replacement", "Existing Customer - Downgrade", "New Customer"]),
        field("NextStep", "string", "Next Step"),
        field("LeadSource", "picklist", "Lead Source", values=LEAD_SOURCES),
        read_only("IsClosed", "boolean", "Closed", defaultedOnCreate=True),
        read_only("IsWon", "boolean", "Won", defaultedOnCreate=True),
        read_only("ForecastCategory", "picklist", "Forecast Category", values=FORECAST_CATEGORIES, required=True, defaultedOnCreate=True, restrictedPicklist=True),
        field("ForecastCategoryName", "picklist", "Forecast Category", values=[label for _, label in FORECAST_CATEGORIES], defaultedOnCreate=True),
        field("CampaignId", "reference", "Campaign ID", to="Campaign", child="Opportunities"),
        read_only("HasOpportunityLineItem", "boolean", "Has Line Item", defaultedOnCreate=True),
        field("Pricebook2Id", "reference", "Price Book ID", to="Pricebook2", child="Opportunities", restrict=True),
        field("OwnerId", "reference", "Owner ID", to="User", required=True, defaultedOnCreate=True),
        *audit_fields(),
        read_only("LastActivityDate", "date", "Last Activity"),
        read_only("PushCount", "int", "Push Count"),
        read_only("LastStageChangeDate", "datetime", "Last Stage Change Date"),
        read_only("FiscalQuarter", "int", "Fiscal Quarter", digits=8),
        read_only("FiscalYear", "int", "Fiscal Year", digits=8),
        read_only("Fiscal", "string", "Fiscal Period", length=6),
        field("ContactId", "reference", "Contact ID", to="Contact", child="Opportunities"),
        *last_viewed_fields(),
        field("SyncedQuoteId", "reference", "Quote ID", to="Quote", createable=False),
        field("ContractId", "reference", "Contract ID", to="Contract"),
        read_only("HasOpenActivity", "boolean", "Has Open Activity", defaultedOnCreate=True),
        read_only("HasOverdueTask", "boolean", "Has Overdue Task", defaultedOnCreate=True),
        # CRMArena-Pro's custom lookup to the deal's contract (CRMArena-Pro's org dumps,
        # SalesforceAIResearch/CRMArena local_data/crmarenapro_b2b_data.db); only the Pro orgs have it.
        field("ContractID__c", "reference", "Contract", to="Contract", child="Opportunities__r"),
    ],
)
