"""EmailMessage: an email sent or received on a case (Object Reference: EmailMessage).

``ParentId`` is the case (child relationship ``Case.EmailMessages``, deleted with the case);
``RelatedToId`` is the polymorphic "related to" record (child ``Emails``). ``ToIds``/``CcIds``/
``BccIds`` are the describe's ``junctionidlist`` fields: lists of recipient Ids (Contact, Lead
or User; only Contact and User exist here, and the list holds Ids as text, so it carries no
referenceTo). ``Status`` is required: '0' New, '1' Read, '2' Replied, '3' Sent, '4' Forwarded,
'5' Draft; only drafts can be edited after insert. ``ActivityId`` is the Task that logs the
email. Left out: ``EmailTemplateId`` (EmailTemplate) and ``ValidatedFromAddress`` (the org's
verified addresses), whose targets are not in this schema.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, read_only

EMAIL_STATUSES = [("0", "New"), ("1", "Read"), ("2", "Replied"), ("3", "Sent"), ("4", "Forwarded"), ("5", "Draft")]
RELATED_TO = ["Account", "Asset", "Campaign", "Case", "Contract", "Opportunity", "Order", "Product2", "Quote"]
"""Targets of RelatedToId present in this schema (a real org lists every activity-enabled object)."""


def _recipients(name: str, label: str) -> dict:
    return field(name, "junctionidlist", label, aggregatable=False, filterable=False, groupable=False, sortable=False, updateable=False)


SPEC = sobject(
    "EmailMessage",
    "Email Message",
    "Email Messages",
    "02s",
    scopes=[("everything", "All email messages")],
    fields=[
        id_field("Email Message ID"),
        field("ParentId", "reference", "Parent Case ID", to="Case", child="EmailMessages", cascade=True, updateable=False),
        field("ActivityId", "reference", "Activity ID", to="Task", updateable=False),
        *audit_fields(),
        field("TextBody", "textarea", "Text Body", length=131072),
        field("HtmlBody", "textarea", "HTML Body", length=131072, extraTypeInfo="richtextarea", htmlFormatted=True),
        field("Headers", "textarea", "Headers", length=32000),
        field("Subject", "string", "Subject", length=3000, nameField=True),
        field("FromName", "string", "From Name", length=1000),
        field("FromAddress", "email", "From Address", length=1000),
        field("ToAddress", "string", "To Address", length=4000),
        field("CcAddress", "string", "CC Address", length=4000),
        field("BccAddress", "string", "BCC Address", length=4000),
        field("Incoming", "boolean", "Is Incoming", updateable=False),
        read_only("HasAttachment", "boolean", "Has Attachment"),
        field("Status", "picklist", "Status", values=EMAIL_STATUSES, required=True, restrictedPicklist=True),
        field("MessageDate", "datetime", "Message Date"),
        is_deleted(),
        field("ReplyToEmailMessageId", "reference", "Reply-to Email Message ID", to="EmailMessage", relationshipName="ReplyToEmailMessage"),
        read_only("IsPrivateDraft", "boolean", "Is Private Draft"),
        field("IsExternallyVisible", "boolean", "Is Externally Visible"),
        field("MessageIdentifier", "string", "Message ID"),
        field("ThreadIdentifier", "string", "Thread ID"),
        field("IsClientManaged", "boolean", "Is Client Managed", updateable=False),
        field("RelatedToId", "reference", "Related To ID", to=RELATED_TO, child="Emails", namePointing=True),
        field("IsTracked", "boolean", "Is Tracked"),
        read_only("IsOpened", "boolean", "Opened"),
        read_only("FirstOpenedDate", "datetime", "First Opened"),
        read_only("LastOpenedDate", "datetime", "Last Opened"),
        read_only("IsBounced", "boolean", "Bounced"),
        _recipients("ToIds", "To IDs"),
        _recipients("CcIds", "CC IDs"),
        _recipients("BccIds", "BCC IDs"),
    ],
)
