"""ApexComponent: a Visualforce component deployed to the org, stored as sent (Object Reference: ApexComponent)."""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._deployed import DEPLOYED_OBJECT, visualforce_fields

SPEC = sobject(
    "ApexComponent",
    "Visualforce Component",
    "Visualforce Components",
    "099",
    **DEPLOYED_OBJECT,
    fields=visualforce_fields("Visualforce Component"),
)
