"""Task: a to-do or logged call, an activity (Object Reference: Task,
https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_task.htm).

``WhoId`` points at a Contact or Lead, ``WhatId`` at the record the task is about (an Account,
Case, Opportunity ...); both appear as the ``Tasks`` child relationship of their targets.
``Status`` and ``Priority`` are required with defaults (``Not Started``, ``Normal``);
``IsClosed`` follows from Status (``Completed``: a new org's closed TaskStatus) and
``IsHighPriority`` from Priority. Left out: the Recurrence* fields of recurring tasks.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, owner_field, read_only
from crmarena_sf.metadata.specs._sales import ACTIVITY_WHAT, ACTIVITY_WHO

SPEC = sobject(
    "Task",
    "Task",
    "Tasks",
    "00T",
    feedEnabled=True,
    scopes=[("delegated", "Delegated tasks"), ("everything", "All tasks"), ("mine", "My tasks"), ("team", "My team's tasks")],
    fields=[
        id_field("Activity ID"),
        field("WhoId", "reference", "Name ID", to=ACTIVITY_WHO, child="Tasks", cascade=True, namePointing=True),
        field("WhatId", "reference", "Related To ID", to=ACTIVITY_WHAT, child="Tasks", cascade=True, namePointing=True),
        read_only("WhoCount", "int", "Relation Count"),
        read_only("WhatCount", "int", "Related To Count"),
        field("Subject", "combobox", "Subject", values=["Call", "Send Letter", "Send Quote", "Other"]),
        field("ActivityDate", "date", "Due Date Only"),
        field("Status", "picklist", "Status", values=["Not Started", "In Progress", "Completed", "Waiting on someone else", "Deferred"], default="Not Started", required=True),
        field("Priority", "picklist", "Priority", values=["High", "Normal", "Low"], default="Normal", required=True),
        read_only("IsHighPriority", "boolean", "High Priority", defaultedOnCreate=True),
        owner_field(),
        field("Description", "textarea", "Description", length=32000),
        is_deleted(),
        read_only("AccountId", "reference", "Account ID", to="Account"),
        read_only("IsClosed", "boolean", "Closed", defaultedOnCreate=True),
        *audit_fields(),
        read_only("IsArchived", "boolean", "Archived", defaultedOnCreate=True),
        field("CallDurationInSeconds", "int", "Call Duration", digits=8),
        field("CallType", "picklist", "Call Type", values=["Internal", "Inbound", "Outbound"]),
        field("CallDisposition", "string", "Call Result"),
        field("CallObject", "string", "Call Object Identifier"),
        field("ReminderDateTime", "datetime", "Reminder Date/Time"),
        field("IsReminderSet", "boolean", "Reminder Set"),
        field("TaskSubtype", "picklist", "Task Subtype", values=["Task", "Email", "ListEmail", "Cadence", "Call", "LinkedIn"], updateable=False, restrictedPicklist=True),
        read_only("CompletedDateTime", "datetime", "Completed Date/Time"),
    ],
)
