"""ActivityHistory: the closed tasks and past events of a record (Object Reference: ActivityHistory).

Only the ``ActivityHistories`` subquery reads it (``SELECT Name, (SELECT Subject FROM
ActivityHistories) FROM Account``); see :mod:`crmarena_sf.metadata.specs._activities`.
"""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._activities import ACTIVITY_OBJECT, activity_fields

SPEC = sobject(
    "ActivityHistory", "Activity History", "Activity Histories", None, fields=activity_fields("ActivityHistories"), **ACTIVITY_OBJECT  # fmt: skip
)
