"""LiveChatTranscript: the record of a chat session (Object Reference: LiveChatTranscript).

``Body`` holds the conversation (CRMArena lines look like
``[2020-12-22T11:03:45] Name (Customer|Agent): text``); ``CaseId``, ``AccountId`` and
``ContactId`` link it to the case and customer (child relationships ``LiveChatTranscripts``).
``LeadId`` the lead it came from. ``LiveChatVisitorId`` is required. Left out: ``LiveChatDeploymentId``,
``LiveChatButtonId`` and ``SkillId``, whose targets are not in this schema. Legacy Chat was
retired in 2026, so a new real org may not have this object (Salesforce's Legacy Chat retirement, announced in Salesforce Help).
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import (
    audit_fields,
    id_field,
    is_deleted,
    last_viewed_fields,
    owner_field,
    read_only,
)

SPEC = sobject(
    "LiveChatTranscript",
    "Chat Transcript",
    "Chat Transcripts",
    "570",
    scopes=[("everything", "All chat transcripts"), ("mine", "My chat transcripts"), ("queue_owned", "Queue owned chat transcripts"), ("user_owned", "User owned chat transcripts")],
    fields=[
        id_field("Chat Transcript ID"),
        owner_field(),
        is_deleted(),
        read_only("Name", "string", "Chat Transcript Name", required=True, autoNumber=True, defaultedOnCreate=True, length=30, nameField=True, idLookup=True),
        *audit_fields(),
        *last_viewed_fields(),
        field("LiveChatVisitorId", "reference", "Chat Visitor ID", to="LiveChatVisitor", child="LiveChatTranscripts", required=True),
        field("Body", "textarea", "Body", length=131072, extraTypeInfo="richtextarea", htmlFormatted=True),
        field("ContactId", "reference", "Contact ID", to="Contact", child="LiveChatTranscripts"),
        field("CaseId", "reference", "Case ID", to="Case", child="LiveChatTranscripts"),
        field("AccountId", "reference", "Account ID", to="Account", child="LiveChatTranscripts"),
        field("LeadId", "reference", "Lead ID", to="Lead", child="LiveChatTranscripts"),
        field("IpAddress", "string", "Visitor IP Address", length=39),
        field("Location", "string", "Location"),
        field("UserAgent", "string", "User Agent", length=1000),
        field("Browser", "string", "Browser", length=200),
        field("Platform", "string", "Platform", length=1000),
        field("BrowserLanguage", "string", "Browser Language", length=200),
        field("ScreenResolution", "string", "Screen Resolution", length=200),
        field("ReferrerUri", "string", "Referring Site", length=1000),
        field("Status", "picklist", "Status", values=["Waiting", ("InProgress", "In Progress"), "Completed", "Missed", "Blocked", "Dropped"], restrictedPicklist=True),
        field("RequestTime", "datetime", "Request Time"),
        field("StartTime", "datetime", "Start Time"),
        field("EndTime", "datetime", "End Time"),
        field("EndedBy", "picklist", "Ended By", values=["Agent", "System", "Visitor"], restrictedPicklist=True),
        field("AverageResponseTimeVisitor", "int", "Visitor Average Response Time"),
        field("AverageResponseTimeOperator", "int", "Agent Average Response Time"),
        field("OperatorMessageCount", "int", "Agent Message Count"),
        field("VisitorMessageCount", "int", "Visitor Message Count"),
        field("MaxResponseTimeOperator", "int", "Agent Maximum Response Time"),
        field("ChatKey", "string", "Chat Key", length=200, idLookup=True, updateable=False),
        field("SupervisorTranscriptBody", "textarea", "Supervisor Transcript Body", length=131072, extraTypeInfo="richtextarea", htmlFormatted=True),
        field("MaxResponseTimeVisitor", "int", "Visitor Maximum Response Time"),
        field("VisitorNetwork", "string", "Visitor Network"),
        read_only("ChatDuration", "int", "Chat Duration"),
        read_only("WaitTime", "int", "Wait Time"),
        read_only("Abandoned", "int", "Abandoned After"),
        field("IsChatbotSession", "boolean", "Is Chatbot Session", updateable=False),
    ],
)
