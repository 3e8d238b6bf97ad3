"""ApexClass: an Apex class deployed to the org, stored as sent (Object Reference: ApexClass).

Queryable through the data API and the Tooling API (``SELECT Name, Body FROM ApexClass``);
written by metadata deploys (:mod:`crmarena_sf.metadata.specs._deployed`). Apex is not run.
"""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._common import read_only
from crmarena_sf.metadata.specs._deployed import DEPLOYED_OBJECT, apex_status, code_fields

SPEC = sobject(
    "ApexClass",
    "Apex Class",
    "Apex Classes",
    "01p",
    **DEPLOYED_OBJECT,
    fields=code_fields(
        "Class",
        "Body",
        read_only("BodyCrc", "double", "Body CRC", precision=18),
        read_only("IsValid", "boolean", "Is Valid"),
        read_only("LengthWithoutComments", "int", "Size Without Comments", digits=9),
        apex_status(),
    ),
)
