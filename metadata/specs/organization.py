"""Organization: the one row describing this org (Object Reference: Organization).

Read through the API; only a few settings are updateable and no field is createable. Left out:
the ``Preferences*`` checkboxes other than the ones listed.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import address_fields, id_field, read_only
from crmarena_sf.metadata.specs._locales import LANGUAGES, LOCALES, TIME_ZONES

_ACCESS = [("None", "Private"), ("Read", "Read Only"), ("Edit", "Read/Write")]

EDITIONS = [
    "Team Edition",
    "Professional Edition",
    "Enterprise Edition",
    "Developer Edition",
    "Personal Edition",
    "Unlimited Edition",
    "Contact Manager Edition",
    "Base Edition",
]


def _setting(name: str, type: str, label: str, **overrides) -> dict:
    return field(name, type, label, createable=False, **overrides)


def _address() -> list[dict]:
    return [{**f, "createable": False} for f in address_fields("", "")]


SPEC = sobject(
    "Organization",
    "Organization",
    "Organizations",
    "00D",
    createable=False,
    deletable=False,
    undeletable=False,
    searchable=False,
    mruEnabled=False,
    scopes=[],
    fields=[
        id_field("Organization ID"),
        _setting("Name", "string", "Name", required=True, length=80, nameField=True),
        _setting("Division", "string", "Division", length=80),
        *_address(),
        _setting("Phone", "phone", "Phone"),
        _setting("Fax", "phone", "Fax"),
        _setting("PrimaryContact", "string", "Primary Contact", length=80),
        _setting("DefaultLocaleSidKey", "picklist", "Locale", required=True, values=LOCALES, restrictedPicklist=True),
        _setting("TimeZoneSidKey", "picklist", "Default Time Zone", required=True, values=TIME_ZONES, restrictedPicklist=True),
        _setting("LanguageLocaleKey", "picklist", "Language", required=True, values=LANGUAGES, restrictedPicklist=True),
        _setting("ReceivesInfoEmails", "boolean", "Info Emails"),
        _setting("ReceivesAdminInfoEmails", "boolean", "Info Emails Admin"),
        _setting("PreferencesRequireOpportunityProducts", "boolean", "RequireOpportunityProducts"),
        _setting("PreferencesConsentManagementEnabled", "boolean", "ConsentManagementEnabled"),
        _setting("PreferencesAutoSelectIndividualOnMerge", "boolean", "AutoSelectIndividualOnMerge"),
        _setting("PreferencesLightningLoginEnabled", "boolean", "LightningLoginEnabled"),
        _setting("PreferencesOnlyLLPermUserAllowed", "boolean", "OnlyLLPermUserAllowed"),
        read_only("FiscalYearStartMonth", "int", "Fiscal Year Starts In", digits=9),
        read_only("UsesStartDateAsFiscalYearName", "boolean", "Fiscal Year Name by Start"),
        read_only("DefaultAccountAccess", "picklist", "Default Account Access", values=_ACCESS, restrictedPicklist=True),
        read_only("DefaultContactAccess", "picklist", "Default Contact Access", values=[*_ACCESS, ("ControlledByParent", "Controlled by Parent")], restrictedPicklist=True),
        read_only("DefaultOpportunityAccess", "picklist", "Default Opportunity Access", values=_ACCESS, restrictedPicklist=True),
        read_only("DefaultLeadAccess", "picklist", "Default Lead Access", values=[*_ACCESS, ("ReadEditTransfer", "Read/Write/Transfer")], restrictedPicklist=True),
        read_only("DefaultCaseAccess", "picklist", "Default Case Access", values=[*_ACCESS, ("ReadEditTransfer", "Read/Write/Transfer")], restrictedPicklist=True),
        read_only("DefaultCalendarAccess", "picklist", "Default Calendar Access", values=[("HideDetails", "Hide Details"), ("HideDetailsInsert", "Hide Details and Add Events"), ("ShowDetails", "Show Details"), ("ShowDetailsInsert", "Show Details and Add Events"), ("AllowEdits", "Full Access")], restrictedPicklist=True),
        read_only("DefaultPricebookAccess", "picklist", "Default Price Book Access", values=[("None", "No Access"), ("Read", "View Only"), ("ReadSelect", "Use")], restrictedPicklist=True),
        read_only("DefaultCampaignAccess", "picklist", "Default Campaign Access", values=[*_ACCESS, ("All", "Owner")], restrictedPicklist=True),
        read_only("SystemModstamp", "datetime", "System Modstamp", required=True, defaultedOnCreate=True),
        _setting("ComplianceBccEmail", "email", "Compliance BCC Email"),
        _setting("UiSkin", "picklist", "UI Skin", values=[("Theme1", "Salesforce Classic 2005"), ("Theme2", "Salesforce Classic 2010"), ("Theme3", "Salesforce Classic 2010")], restrictedPicklist=True),
        read_only("SignupCountryIsoCode", "string", "Signup Country", length=2),
        read_only("TrialExpirationDate", "datetime", "Trial Expiration Date"),
        read_only("NumKnowledgeService", "int", "Knowledge Licenses", digits=9),
        read_only("OrganizationType", "picklist", "Edition", values=EDITIONS, restrictedPicklist=True),
        read_only("NamespacePrefix", "string", "Namespace Prefix", length=15),
        read_only("InstanceName", "string", "Instance Name", length=5),
        read_only("IsSandbox", "boolean", "Is Sandbox"),
        _setting("WebToCaseDefaultOrigin", "string", "Web to Cases Default Origin", length=40),
        read_only("MonthlyPageViewsUsed", "int", "Monthly Page Views Used", digits=9),
        read_only("MonthlyPageViewsEntitlement", "int", "Monthly Page Views Allowed", digits=9),
        read_only("IsReadOnly", "boolean", "Is Read Only"),
        read_only("CreatedDate", "datetime", "Created Date", required=True, defaultedOnCreate=True),
        read_only("CreatedById", "reference", "Created By ID", to="User", required=True, defaultedOnCreate=True),
        read_only("LastModifiedDate", "datetime", "Last Modified Date", required=True, defaultedOnCreate=True),
        read_only("LastModifiedById", "reference", "Last Modified By ID", to="User", required=True, defaultedOnCreate=True),
    ],
)
