"""ApexTrigger: an Apex trigger deployed to the org, stored as sent (Object Reference: ApexTrigger).

``TableEnumOrId`` names the object the trigger is on; the ``Usage*`` flags say which events it
declares. Written by metadata deploys; the trigger never fires (Apex is not run).
"""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._common import read_only
from crmarena_sf.metadata.specs._deployed import DEPLOYED_OBJECT, apex_status, code_fields

USAGES = (
    "UsageBeforeInsert", "UsageAfterInsert", "UsageBeforeUpdate", "UsageAfterUpdate",
    "UsageBeforeDelete", "UsageAfterDelete", "UsageIsBulk", "UsageAfterUndelete",
)  # fmt: skip

SPEC = sobject(
    "ApexTrigger",
    "Apex Trigger",
    "Apex Triggers",
    "01q",
    **DEPLOYED_OBJECT,
    fields=code_fields(
        "Trigger",
        "Body",
        read_only("TableEnumOrId", "string", "Custom Object Definition ID", length=40),
        *[read_only(u, "boolean", u.removeprefix("Usage")) for u in USAGES],
        read_only("BodyCrc", "double", "Body CRC", precision=18),
        read_only("IsValid", "boolean", "Is Valid"),
        read_only("LengthWithoutComments", "int", "Size Without Comments", digits=9),
        apex_status(),
    ),
)
