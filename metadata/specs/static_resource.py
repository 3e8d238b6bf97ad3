"""StaticResource: a file deployed to the org, stored as sent (Object Reference: StaticResource)."""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, read_only
from crmarena_sf.metadata.specs._deployed import DEPLOYED_OBJECT

SPEC = sobject(
    "StaticResource",
    "Static Resource",
    "Static Resources",
    "081",
    **DEPLOYED_OBJECT,
    fields=[
        id_field("Static Resource ID"),
        read_only("NamespacePrefix", "string", "Namespace Prefix", length=15),
        read_only("Name", "string", "Name", length=255, nameField=True),
        read_only("ContentType", "string", "MIME Type", length=120),
        read_only("BodyLength", "int", "Size", digits=9),
        read_only("Body", "base64", "Body"),
        read_only("Description", "textarea", "Description", length=4000),
        read_only("CacheControl", "picklist", "Cache Control", values=["Private", "Public"], restrictedPicklist=True),
        *[{**f, "createable": False} for f in audit_fields()],
    ],
)
