"""What LLM agents are told: the org's schema, the action format, and the task.

The schema lists the 16 CRMArena objects with the fields CRMArena's schema describes (their
types and labels read from this org's describe metadata). The task message is the question
followed by ``metadata.required`` and ``metadata.optional`` (CRMArena's "aided" mode, which
all its published runs used). The wording of the instructions is this project's own.
"""

from __future__ import annotations

from functools import cache

from crmarena_sf.tasks.records import TaskRecord

SCHEMA_FIELDS = {
    "User": ["Id", "FirstName", "LastName", "Name", "Email", "Phone", "Username", "Alias", "ProfileId"],
    "Account": ["Id", "FirstName", "LastName", "Name", "PersonEmail", "Phone", "RecordTypeId", "ShippingCity", "ShippingState"],
    "Contact": ["Id", "FirstName", "LastName", "Name", "Email", "AccountId", "OwnerId"],
    "Case": [
        "Id", "CaseNumber", "Priority", "Subject", "Description", "Status", "Origin", "ContactId", "AccountId",
        "OwnerId", "CreatedDate", "ClosedDate", "OrderItemId__c", "IssueId__c",
    ],
    "Knowledge__kav": ["Id", "Title", "FAQ_Answer__c", "Summary", "UrlName", "PublishStatus", "Language"],
    "ProductCategory": ["Id", "Name", "CatalogId"],
    "Product2": ["Id", "Name", "Description", "IsActive", "External_ID__c"],
    "ProductCategoryProduct": ["Id", "ProductCategoryId", "ProductId"],
    "Pricebook2": ["Id", "Name", "Description", "IsActive", "ValidFrom", "ValidTo"],
    "PricebookEntry": ["Id", "Pricebook2Id", "Product2Id", "UnitPrice"],
    "Order": ["Id", "AccountId", "Status", "EffectiveDate", "Pricebook2Id"],
    "OrderItem": ["Id", "OrderId", "Product2Id", "Quantity", "UnitPrice", "PricebookEntryId"],
    "EmailMessage": ["Id", "Subject", "TextBody", "ParentId", "FromAddress", "ToAddress", "ToIds", "MessageDate", "Incoming"],
    "LiveChatTranscript": ["Id", "CaseId", "AccountId", "ContactId", "OwnerId", "Body", "EndTime", "LiveChatVisitorId"],
    "Issue__c": ["Id", "Name", "Description__c"],
    "CaseHistory__c": ["Id", "CaseId__c", "OldValue__c", "NewValue__c", "CreatedDate", "Field__c"],
}  # fmt: skip


@cache
def schema_text() -> str:
    """The objects and fields an agent may query, one field a line."""
    from crmarena_sf.metadata import load_schema

    schema = load_schema()
    lines = []
    for name, fields in SCHEMA_FIELDS.items():
        obj = schema.get(name)
        if obj is None:
            continue
        lines.append(f"{name}:")
        for field_name in fields:
            field = obj.field(field_name)
            if field is None:
                continue
            kind = field.type
            if field.referenceTo:
                kind += " to " + "/".join(field.referenceTo)
            lines.append(f"  - {field.name} ({kind}): {field.label}")
    return "\n".join(lines)


ROLE = (
    "You are a skilled Salesforce analyst working in the Salesforce org of Shoes & Clothings, a sporting-goods "
    "retailer. You answer one question by looking up records in the org. Answer with exactly what the question "
    "asks for (an Id, a month name, a state code ... or None when the question says so), nothing else."
)

QUERY_RULES = (
    "Queries are SOQL (SELECT ... FROM ... WHERE ... GROUP BY ... HAVING ... ORDER BY ... LIMIT ...) or SOSL "
    "(FIND {words} IN ALL FIELDS RETURNING Object(fields)). Datetime literals are unquoted, e.g. "
    "CreatedDate >= 2023-04-01T00:00:00Z; date literals too, e.g. EffectiveDate = 2023-04-01. In SOSL, escape "
    "reserved characters such as ' with a backslash."
)

ACT_FORMAT = (
    "Each reply holds exactly one action:\n"
    "<execute>a SOQL query or a SOSL search</execute> to run it; you will see its records or its error.\n"
    "<respond>your final answer</respond> to answer the question and finish."
)
REACT_FORMAT = (
    "Each reply holds your reasoning, then exactly one action:\n"
    "<thought>what you know so far and what to do next</thought>\n"
    "then <execute>a SOQL query or a SOSL search</execute> to run it (you will see its records or its error), "
    "or <respond>your final answer</respond> to answer the question and finish."
)
FC_FORMAT = (
    "Use the tools to look up what you need (issue_soql_query and issue_sosl_query run any query). When you "
    "know the answer, call respond with only the answer."
)


def system_prompt(style: str) -> str:
    """The system message for ``act``, ``react`` or ``function-calling``."""
    action = {"act": ACT_FORMAT, "react": REACT_FORMAT, "function-calling": FC_FORMAT}[style]
    return f"{ROLE}\n\n# Schema\n{schema_text()}\n\n# Queries\n{QUERY_RULES}\n\n# Actions\n{action}"


def task_message(task: TaskRecord) -> str:
    """The user message: the question, then the task's required and optional metadata."""
    parts = [task.query]
    for key in ("required", "optional"):
        text = (task.metadata or {}).get(key)
        if text:
            parts.append(text)
    return "\n\n".join(parts)


INTERACTIVE_RULES = """# Talking with the user
The user's first message may not say everything the task needs. Ask the user for what is missing, one
thing at a time, by replying to them (respond); their answer comes back as their next message. Use only
what the user tells you and what the org holds. When you have the answer, reply with it alone, in the
form the task's rules below ask for. The user ends the conversation once they have their answer."""


def interactive_rules(task: TaskRecord) -> str:
    """What a multi-turn episode adds to the system prompt: how to talk with the user, then the task's
    ``metadata.required`` and ``optional`` (the official interactive harness gives the agent these, never the query)."""
    parts = [INTERACTIVE_RULES]
    for key in ("required", "optional"):
        text = (task.metadata or {}).get(key)
        if text:
            parts.append(text)
    return "\n\n".join(parts)
