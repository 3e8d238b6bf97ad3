"""Individual: a person's data-privacy preferences (Object Reference: Individual).

Contact.IndividualId, Account.PersonIndividualId and User.IndividualId point here. ``Name`` is
derived from FirstName and LastName like a contact's.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, last_viewed_fields

SPEC = sobject(
    "Individual",
    "Individual",
    "Individuals",
    "0PK",
    scopes=[("everything", "All individuals"), ("mine", "My individuals")],
    fields=[
        id_field("Individual ID"),
        field("OwnerId", "reference", "Owner ID", to="User", required=True, defaultedOnCreate=True),
        is_deleted(),
        field("LastName", "string", "Last Name", required=True, compoundFieldName="Name", extraTypeInfo="personname", length=80),
        field("FirstName", "string", "First Name", compoundFieldName="Name", extraTypeInfo="personname", length=40),
        field("Salutation", "picklist", "Salutation", values=["Mr.", "Ms.", "Mrs.", "Dr.", "Prof.", "Mx."], compoundFieldName="Name", extraTypeInfo="personname"),
        field("Name", "string", "Name", required=True, createable=False, extraTypeInfo="personname", length=121, nameField=True, updateable=False),
        *audit_fields(),
        *last_viewed_fields(),
        field("HasOptedOutTracking", "boolean", "Don't Track"),
        field("HasOptedOutProfiling", "boolean", "Don't Profile"),
        field("HasOptedOutProcessing", "boolean", "Don't Process"),
        field("HasOptedOutSolicit", "boolean", "Don't Market"),
        field("ShouldForget", "boolean", "Forget this Individual"),
        field("SendIndividualData", "boolean", "Export Individual's Data"),
        field("CanStorePiiElsewhere", "boolean", "OK to Store PII Data Elsewhere"),
        field("HasOptedOutGeoTracking", "boolean", "Block Geolocation Tracking"),
        field("BirthDate", "date", "Birth Date"),
        field("IndividualsAge", "picklist", "Individual's Age", values=[("13 or Older", "13 or Older"), ("16 or Older", "16 or Older"), ("Under 13", "Under 13"), ("Under 16", "Under 16")]),
    ],
)
