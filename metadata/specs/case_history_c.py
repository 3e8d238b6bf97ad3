"""CaseHistory__c: CRMArena's own case history, loadable unlike the standard CaseHistory (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db).

One row per event of a case: ``Field__c`` is 'Case Creation', 'Owner Assignment' or 'Case
Closed'; for 'Owner Assignment' ``OldValue__c``/``NewValue__c`` hold the previous and new owner's
User Id as text (null otherwise, and OldValue__c is null on a first assignment). Its
``CreatedDate`` is the event time, backdated on insert ("Set Audit Fields upon Record Creation").
``Name`` is an auto-number. Key prefix ``a1N`` as in the CRMArena org.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import custom_object_scopes, custom_object_standard_fields

HISTORY_EVENTS = ["Case Creation", "Owner Assignment", "Case Closed"]

SPEC = sobject(
    "CaseHistory__c",
    "Case History",
    "Case Histories",
    "a1N",
    scopes=custom_object_scopes("Case Histories"),
    fields=[
        *custom_object_standard_fields(
            field("Name", "string", "Case History Name", required=True, autoNumber=True, createable=False, defaultedOnCreate=True, length=80, nameField=True, updateable=False)
        ),
        field("CaseId__c", "reference", "Case", to="Case", child="CaseHistories__r"),
        field("OldValue__c", "string", "Old Value", length=255),
        field("NewValue__c", "string", "New Value", length=255),
        field("Field__c", "picklist", "Field", values=HISTORY_EVENTS, length=255),
    ],
)
