"""LiveChatVisitor: the visitor of a chat session (Object Reference: LiveChatVisitor).

Created by the chat service for each session; every LiveChatTranscript points at one.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, read_only

SPEC = sobject(
    "LiveChatVisitor",
    "Chat Visitor",
    "Chat Visitors",
    "571",
    searchable=False,
    scopes=[("everything", "All chat visitors")],
    fields=[
        id_field("Chat Visitor ID"),
        is_deleted(),
        read_only("Name", "string", "Chat Visitor Name", required=True, autoNumber=True, defaultedOnCreate=True, length=30, nameField=True),
        *audit_fields(),
        field("SessionKey", "string", "Session Key", length=200, updateable=False),
    ],
)
