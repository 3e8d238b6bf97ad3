"""OpenActivity: the open tasks and coming events of a record (Object Reference: OpenActivity).

Only the ``OpenActivities`` subquery reads it (``SELECT Name, (SELECT Subject FROM
OpenActivities) FROM Lead``); see :mod:`crmarena_sf.metadata.specs._activities`.
"""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._activities import ACTIVITY_OBJECT, activity_fields

SPEC = sobject(
    "OpenActivity", "Open Activity", "Open Activities", None, fields=activity_fields("OpenActivities"), **ACTIVITY_OBJECT  # fmt: skip
)
