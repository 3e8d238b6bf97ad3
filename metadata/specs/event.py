"""Event: a calendar appointment, an activity (Object Reference: Event,
https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_event.htm).

``WhoId`` points at a Contact or Lead, ``WhatId`` at the record the event is about; both appear
as the ``Events`` child relationship of their targets. A timed event has ``ActivityDateTime``
and a ``DurationInMinutes`` or ``EndDateTime`` (the org computes the other, and
``ActivityDate``/``EndDate`` from them); an all-day event has ``ActivityDate``. Left out: the
Recurrence* fields of recurring events and the invitation (EventRelation) fields.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, read_only
from crmarena_sf.metadata.specs._sales import ACTIVITY_WHAT, ACTIVITY_WHO

SPEC = sobject(
    "Event",
    "Event",
    "Events",
    "00U",
    feedEnabled=True,
    scopes=[("delegated", "Delegated events"), ("everything", "All events"), ("mine", "My events"), ("team", "My team's events")],
    fields=[
        id_field("Activity ID"),
        field("WhoId", "reference", "Name ID", to=ACTIVITY_WHO, child="Events", cascade=True, namePointing=True),
        field("WhatId", "reference", "Related To ID", to=ACTIVITY_WHAT, child="Events", cascade=True, namePointing=True),
        read_only("WhoCount", "int", "Relation Count"),
        read_only("WhatCount", "int", "Related To Count"),
        field("Subject", "combobox", "Subject", values=["Call", "Email", "Meeting", "Send Letter/Quote", "Other"]),
        field("Location", "string", "Location"),
        field("IsAllDayEvent", "boolean", "All-Day Event"),
        field("ActivityDateTime", "datetime", "Due Date Time"),
        field("ActivityDate", "date", "Due Date Only"),
        field("DurationInMinutes", "int", "Duration", digits=8),
        field("StartDateTime", "datetime", "Start Date Time"),
        field("EndDateTime", "datetime", "End Date Time"),
        read_only("EndDate", "date", "End"),
        field("Description", "textarea", "Description", length=32000),
        read_only("AccountId", "reference", "Account ID", to="Account"),
        field("OwnerId", "reference", "Assigned To ID", to="User", required=True, defaultedOnCreate=True),
        field("IsPrivate", "boolean", "Private"),
        field("ShowAs", "picklist", "Show Time As", values=[("Busy", "Busy"), ("OutOfOffice", "Out of Office"), ("Free", "Free")], default="Busy"),
        is_deleted(),
        read_only("IsChild", "boolean", "Is Child", defaultedOnCreate=True),
        read_only("IsGroupEvent", "boolean", "Is Group Event", defaultedOnCreate=True),
        read_only("GroupEventType", "picklist", "Group Event Type", values=[("0", "Non-group Event"), ("1", "Group Event"), ("2", "Proposed Event"), ("3", "IsRecurrence2 Series Pattern")], restrictedPicklist=True),
        *audit_fields(),
        read_only("IsArchived", "boolean", "Archived", defaultedOnCreate=True),
        field("ReminderDateTime", "datetime", "Reminder Date/Time"),
        field("IsReminderSet", "boolean", "Reminder Set"),
        field("EventSubtype", "picklist", "Event Subtype", values=["Event"], updateable=False, restrictedPicklist=True),
    ],
)
