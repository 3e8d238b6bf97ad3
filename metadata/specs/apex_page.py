"""ApexPage: a Visualforce page deployed to the org, stored as sent (Object Reference: ApexPage)."""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._common import read_only
from crmarena_sf.metadata.specs._deployed import DEPLOYED_OBJECT, visualforce_fields

SPEC = sobject(
    "ApexPage",
    "Visualforce Page",
    "Visualforce Pages",
    "066",
    **DEPLOYED_OBJECT,
    fields=visualforce_fields(
        "Visualforce Page",
        read_only("IsAvailableInTouch", "boolean", "Available for Salesforce mobile apps"),
        read_only("IsConfirmationTokenRequired", "boolean", "Require CSRF protection on GET requests"),
    ),
)
