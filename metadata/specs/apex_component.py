"""ApexComponent: a Visualforce component deployed to the org, stored as sent (Object Reference: ApexComponent)."""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._common import read_only
from crmarena_sf.metadata.specs._deployed import DEPLOYED_OBJECT, code_fields

SPEC = sobject(
    "ApexComponent",
    "Visualforce Component",
    "Visualforce Components",
    "099",
    **DEPLOYED_OBJECT,
    fields=code_fields(
        "Visualforce Component",
        "Markup",
        read_only("MasterLabel", "string", "Label", length=80),
        read_only("Description", "textarea", "Description", length=255),
        read_only("ControllerType", "picklist", "Controller Type", values=[("0", "Not specified"), ("1", "Standard"), ("2", "Custom")]),  # fmt: skip
        read_only("ControllerKey", "string", "Controller Key", length=255),
    ),
)
