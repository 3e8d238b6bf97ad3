"""Fields shared by the objects whose rows are metadata deployed to the org (Apex, Visualforce, reports ...).

Object Reference, "ApexClass", "ApexTrigger", "ApexPage", "ApexComponent", "StaticResource",
"Report" and "Dashboard"
(https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_apexclass.htm
and the neighbouring pages): the data API only queries and retrieves them (they are created,
changed and deleted through the Metadata API or the Tooling API), so every field is read-only
here. A new org has none; a metadata deploy writes their rows, with no behaviour (Apex is not run).
"""

from crmarena_sf.metadata.specs._common import audit_fields, id_field, read_only

DEPLOYED_OBJECT = {
    "createable": False,
    "updateable": False,
    "deletable": False,
    "undeletable": False,
    "searchable": False,
    "layoutable": False,
    "mruEnabled": False,
    "triggerable": False,
    "compactLayoutable": False,
    "searchLayoutable": False,
    "scopes": [],
}
"""Object-level describe keys of every one of them through the data API."""


def code_fields(label: str, body: str | None, *extra: dict) -> list[dict]:
    """Id, Name, NamespacePrefix, ApiVersion, Status or the body field, ``extra`` and the audit fields."""
    fields = [
        id_field(f"{label} ID"),
        read_only("NamespacePrefix", "string", "Namespace Prefix", length=15),
        read_only("Name", "string", "Name", length=255, nameField=True),
        read_only("ApiVersion", "double", "Api Version", precision=18, scale=1),
    ]
    if body is not None:
        fields.append(read_only(body, "textarea", body, length=1000000))
    fields.extend(extra)
    fields.extend({**f, "createable": False} for f in audit_fields())
    return fields


def apex_status() -> dict:
    """``Status`` of an Apex class or trigger (Active in a deployed org)."""
    return read_only("Status", "picklist", "Status", values=["Inactive", "Active", "Deleted"], restrictedPicklist=True)


def visualforce_fields(label: str, *extra: dict) -> list[dict]:
    """The fields of a Visualforce page or component (its markup, label, controller), ``extra`` after them."""
    return code_fields(
        label,
        "Markup",
        read_only("MasterLabel", "string", "Label", length=80),
        read_only("Description", "textarea", "Description", length=255),
        read_only("ControllerType", "picklist", "Controller Type", values=[("0", "Not specified"), ("1", "Standard"), ("2", "Custom")]),  # fmt: skip
        read_only("ControllerKey", "string", "Controller Key", length=255),
        *extra,
    )
