"""VoiceCallTranscript__c: CRMArena-Pro's custom object of sales call transcripts (CRMArena-Pro's
org dumps, SalesforceAIResearch/CRMArena local_data/crmarenapro_b2b_data.db and _b2c_data.db).

One record per call with a lead (``LeadId__c``) or about an opportunity (``OpportunityId__c``):
``Body__c`` holds the call as lines ``[2023-10-21T10:02:00] Name: text`` in time order, and
``EndTime__c`` when the call ended. ``Name`` is an auto-number. Key prefix ``a05`` as in the
official Pro orgs' Ids.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import custom_object_scopes, custom_object_standard_fields

SPEC = sobject(
    "VoiceCallTranscript__c",
    "Voice Call Transcript",
    "Voice Call Transcripts",
    "a05",
    scopes=custom_object_scopes("Voice Call Transcripts"),
    fields=[
        *custom_object_standard_fields(
            field("Name", "string", "Voice Call Transcript Name", required=True, autoNumber=True, createable=False, defaultedOnCreate=True, length=80, nameField=True, updateable=False)
        ),
        field("Body__c", "textarea", "Body", length=131072, extraTypeInfo="plaintextarea"),
        field("LeadId__c", "reference", "Lead", to="Lead", child="VoiceCallTranscripts__r"),
        field("OpportunityId__c", "reference", "Opportunity", to="Opportunity", child="VoiceCallTranscripts__r"),
        field("EndTime__c", "datetime", "End Time"),
    ],
)
