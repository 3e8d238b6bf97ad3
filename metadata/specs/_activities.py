"""The fields ActivityHistory and OpenActivity share: a task or an event seen through the record it concerns.

Object Reference, "ActivityHistory" and "OpenActivity"
(https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_activityhistory.htm):
read-only, queried only as the ``ActivityHistories`` / ``OpenActivities`` subquery of the record
the activities belong to; ``IsTask`` tells a task from an event. An account's list holds the
activities whose ``AccountId`` is the account, which includes those of its contacts and of the
records related to it; a contact's or lead's those whose ``WhoId`` it is, any other object's
those whose ``WhatId`` it is. Their rows are the org's Task and Event rows
(:mod:`crmarena_sf.emulator.soql.activity_sources` reads them).
"""

from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, read_only
from crmarena_sf.metadata.specs._sales import ACTIVITY_WHAT, ACTIVITY_WHO

ACTIVITY_OBJECT = {
    "createable": False,
    "updateable": False,
    "deletable": False,
    "undeletable": False,
    "queryable": False,
    "searchable": False,
    "layoutable": False,
    "mruEnabled": False,
    "replicateable": False,
    "triggerable": False,
    "compactLayoutable": False,
    "searchLayoutable": False,
    "retrieveable": False,
    "scopes": [],
}
"""Object-level describe keys of both (not queryable on their own)."""


def activity_fields(child: str) -> list[dict]:
    """The fields, each read-only; the references name ``child`` as their parents' child relationship."""
    return [
        id_field("Activity ID"),
        read_only("AccountId", "reference", "Account ID", to="Account", child=child),
        read_only("WhoId", "reference", "Name ID", to=ACTIVITY_WHO, child=child, namePointing=True),
        read_only("WhatId", "reference", "Related To ID", to=[o for o in ACTIVITY_WHAT if o != "Account"], child=child, namePointing=True),  # fmt: skip
        read_only("Subject", "combobox", "Subject"),
        read_only("IsTask", "boolean", "Task"),
        read_only("ActivityDate", "date", "Due Date Only"),
        read_only("ActivityDateTime", "datetime", "Due Date Time"),
        read_only("OwnerId", "reference", "Assigned To ID", to="User"),
        read_only("Status", "picklist", "Status"),
        read_only("Priority", "picklist", "Priority"),
        read_only("IsHighPriority", "boolean", "High Priority"),
        read_only("ActivityType", "picklist", "Activity Type"),
        read_only("IsClosed", "boolean", "Closed"),
        read_only("IsAllDayEvent", "boolean", "All-Day Event"),
        read_only("DurationInMinutes", "int", "Duration", digits=8),
        read_only("StartDateTime", "datetime", "Start Date Time"),
        read_only("EndDateTime", "datetime", "End Date Time"),
        read_only("Location", "string", "Location"),
        read_only("Description", "textarea", "Description", length=32000),
        is_deleted(),
        *[{**f, "createable": False} for f in audit_fields()],
        read_only("CallDurationInSeconds", "int", "Call Duration", digits=8),
        read_only("CallType", "picklist", "Call Type"),
        read_only("CallDisposition", "string", "Call Result"),
        read_only("ActivitySubtype", "picklist", "Activity Subtype"),
    ]
