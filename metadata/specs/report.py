"""Report: a report deployed to the org, stored as sent (Object Reference: Report).

Queryable (``SELECT Id, Name, DeveloperName FROM Report``), never run here (report runs are not
emulated). Left out: ``OwnerId`` (a folder or the organization owns a report; Folder is not in
this schema).
"""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, read_only
from crmarena_sf.metadata.specs._deployed import DEPLOYED_OBJECT

SPEC = sobject(
    "Report",
    "Report",
    "Reports",
    "00O",
    **DEPLOYED_OBJECT,
    fields=[
        id_field("Report ID"),
        read_only("FolderName", "string", "Folder Name", length=255),
        is_deleted(),
        read_only("Name", "string", "Report Name", length=40, nameField=True),
        read_only("Description", "string", "Description", length=255),
        read_only("DeveloperName", "string", "Report Unique Name", length=80),
        read_only("NamespacePrefix", "string", "Namespace Prefix", length=15),
        read_only("Format", "picklist", "Format", values=["Matrix", "MultiBlock", "Summary", "Tabular"]),
        read_only("LastRunDate", "datetime", "Last Run"),
        *[{**f, "createable": False} for f in audit_fields()],
        read_only("LastViewedDate", "datetime", "Last Viewed Date"),
        read_only("LastReferencedDate", "datetime", "Last Referenced Date"),
    ],
)
