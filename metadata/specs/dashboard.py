"""Dashboard: a dashboard deployed to the org, stored as sent (Object Reference: Dashboard).

Queryable, never refreshed here. Left out: ``FolderId`` (Folder is not in this schema).
"""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, read_only
from crmarena_sf.metadata.specs._deployed import DEPLOYED_OBJECT

SPEC = sobject(
    "Dashboard",
    "Dashboard",
    "Dashboards",
    "01Z",
    **DEPLOYED_OBJECT,
    fields=[
        id_field("Dashboard ID"),
        is_deleted(),
        read_only("FolderName", "string", "Folder Name", length=255),
        read_only("Title", "string", "Title", length=80, nameField=True),
        read_only("DeveloperName", "string", "Dashboard Unique Name", length=80),
        read_only("NamespacePrefix", "string", "Namespace Prefix", length=15),
        read_only("Description", "string", "Description", length=255),
        read_only("RunningUserId", "reference", "Running User ID", to="User", child=None),
        read_only("Type", "picklist", "Dashboard Type", values=[("SpecifiedUser", "Run as specified user"), ("LoggedInUser", "Run as logged-in user"), ("MyTeamUser", "Run as logged-in user with my team")]),  # fmt: skip
        *[{**f, "createable": False} for f in audit_fields()],
        read_only("LastViewedDate", "datetime", "Last Viewed Date"),
        read_only("LastReferencedDate", "datetime", "Last Referenced Date"),
    ],
)
