"""UserLicense: the user licences an org owns and uses (Object Reference: UserLicense).

Read only. A new Developer Edition org has two full ``Salesforce`` licences, one used by its
admin; inactive users use none, which is how ``crmarena-sf push`` loads more agents than that.
"""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._common import id_field, read_only

SPEC = sobject(
    "UserLicense",
    "User License",
    "User Licenses",
    "100",
    createable=False,
    updateable=False,
    deletable=False,
    undeletable=False,
    searchable=False,
    scopes=[],
    fields=[
        id_field("User License ID"),
        read_only("LicenseDefinitionKey", "string", "License Definition Key", required=True, length=40),
        read_only("TotalLicenses", "int", "Total Licenses", required=True),
        read_only("Status", "picklist", "Status", values=["Active", "Disabled"], required=True, restrictedPicklist=True),
        read_only("UsedLicenses", "int", "Used Licenses", required=True),
        read_only("UsedLicensesLastUpdated", "datetime", "Used Licenses Last Updated", required=True),
        read_only("Name", "string", "Name", required=True, length=40, nameField=True),
        read_only("MasterLabel", "string", "Master Label", required=True, length=40),
        read_only("CreatedDate", "datetime", "Created Date", required=True, defaultedOnCreate=True),
        read_only("LastModifiedDate", "datetime", "Last Modified Date", required=True, defaultedOnCreate=True),
        read_only("SystemModstamp", "datetime", "System Modstamp", required=True, defaultedOnCreate=True),
    ],
)
