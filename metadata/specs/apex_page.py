"""ApexPage: a Visualforce page deployed to the org, stored as sent (Object Reference: ApexPage)."""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._common import read_only
from crmarena_sf.metadata.specs._deployed import DEPLOYED_OBJECT, code_fields

SPEC = sobject(
    "ApexPage",
    "Visualforce Page",
    "Visualforce Pages",
    "066",
    **DEPLOYED_OBJECT,
    fields=code_fields(
        "Visualforce Page",
        "Markup",
        read_only("MasterLabel", "string", "Label", length=80),
        read_only("Description", "textarea", "Description", length=255),
        read_only("ControllerType", "picklist", "Controller Type", values=[("0", "Not specified"), ("1", "Standard"), ("2", "Custom")]),  # fmt: skip
        read_only("ControllerKey", "string", "Controller Key", length=255),
        read_only("IsAvailableInTouch", "boolean", "Available for Salesforce mobile apps"),
        read_only("IsConfirmationTokenRequired", "boolean", "Require CSRF protection on GET requests"),
    ),
)
