"""User: a person who logs in; CRMArena's service agents (Object Reference: User).

Fields follow a real org's describe in order, types, lengths and flags. Left out: the ~60
``UserPreferences*`` UI checkboxes, ``CallCenterId`` (CallCenter is not in this schema) and
the org-dependent ``MiddleName``/``Suffix`` (shown only when "Enable Middle Names and Name
Suffixes for Person Names" is on, which it is not here: the real Contact and person-Account
describes of such an org lack them too). The locale picklists are a representative real subset
(see :mod:`crmarena_sf.metadata.specs._locales`).

Required on create (REQUIRED_FIELD_MISSING otherwise): Username, LastName, Email, Alias,
TimeZoneSidKey, LocaleSidKey, EmailEncodingKey, ProfileId, LanguageLocaleKey. ``Name`` is the
person name the org derives from FirstName and LastName. Users are never deleted (no IsDeleted;
``deletable`` false): they are deactivated with IsActive.
"""

from crmarena_sf.metadata import API_VERSION
from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import (
    address_fields,
    audit_fields,
    id_field,
    last_viewed_fields,
    read_only,
)
from crmarena_sf.metadata.specs._locales import EMAIL_ENCODINGS, LANGUAGES, LOCALES, TIME_ZONES

_HOURS = [(str(h * 60), f"{(h % 12) or 12}:00 {'AM' if h < 12 else 'PM'}") for h in range(24)]
"""StartDay / EndDay: minutes after midnight, labelled as Setup shows them."""

USER_TYPES = [
    ("Standard", "Standard"),
    ("PowerPartner", "Partner"),
    ("PowerCustomerSuccess", "Customer Portal Manager"),
    ("CustomerSuccess", "Customer Portal User"),
    ("Guest", "Guest"),
    ("CspLitePortal", "High Volume Portal"),
    ("CsnOnly", "CSN Only"),
    ("SelfService", "Self Service"),
]

SPEC = sobject(
    "User",
    "User",
    "Users",
    "005",
    deletable=False,
    undeletable=False,
    feedEnabled=True,
    # REST API Developer Guide, "sObject Named Layouts": User's alternate layout, found through this list
    namedLayoutInfos=[
        {"name": "UserAlt", "urls": {"layout": f"/services/data/v{API_VERSION}/sobjects/User/describe/namedLayouts/UserAlt"}}
    ],
    scopes=[("everything", "All users")],
    fields=[
        id_field("User ID"),
        field("Username", "string", "Username", required=True, idLookup=True, length=80),
        field("LastName", "string", "Last Name", required=True, compoundFieldName="Name", extraTypeInfo="personname", length=80),
        field("FirstName", "string", "First Name", compoundFieldName="Name", extraTypeInfo="personname", length=40),
        field("Name", "string", "Full Name", required=True, createable=False, extraTypeInfo="personname", length=121, nameField=True, updateable=False),
        field("CompanyName", "string", "Company Name", length=80),
        field("Division", "string", "Division", length=80),
        field("Department", "string", "Department", length=80),
        field("Title", "string", "Title", length=80),
        *address_fields("", ""),
        field("Email", "email", "Email", required=True, length=128),
        field("EmailPreferencesAutoBcc", "boolean", "AutoBcc"),
        field("EmailPreferencesAutoBccStayInTouch", "boolean", "AutoBccStayInTouch"),
        field("EmailPreferencesStayInTouchReminder", "boolean", "StayInTouchReminder"),
        field("SenderEmail", "email", "Email Sender Address"),
        field("SenderName", "string", "Email Sender Name", length=80),
        field("Signature", "textarea", "Email Signature", length=1333),
        field("StayInTouchSubject", "string", "Stay-in-Touch Email Subject", length=80),
        field("StayInTouchSignature", "textarea", "Stay-in-Touch Email Signature", length=512),
        field("StayInTouchNote", "string", "Stay-in-Touch Email Note", length=512),
        field("Phone", "phone", "Phone"),
        field("Fax", "phone", "Fax"),
        field("MobilePhone", "phone", "Mobile"),
        field("Alias", "string", "Alias", required=True, length=8),
        field("CommunityNickname", "string", "Nickname", required=True, defaultedOnCreate=True, length=40),
        read_only("BadgeText", "string", "User Photo badge text overlay", length=80),
        field("IsActive", "boolean", "Active", defaultValue=True),
        field("TimeZoneSidKey", "picklist", "Time Zone", required=True, values=TIME_ZONES, restrictedPicklist=True),
        field("UserRoleId", "reference", "Role ID", to="UserRole", child="Users"),
        field("LocaleSidKey", "picklist", "Locale", required=True, values=LOCALES, restrictedPicklist=True),
        field("ReceivesInfoEmails", "boolean", "Info Emails"),
        field("ReceivesAdminInfoEmails", "boolean", "Admin Info Emails"),
        field("EmailEncodingKey", "picklist", "Email Encoding", required=True, values=EMAIL_ENCODINGS, restrictedPicklist=True),
        field("ProfileId", "reference", "Profile ID", to="Profile", child="Users", required=True),
        read_only("UserType", "picklist", "User Type", values=USER_TYPES, restrictedPicklist=True, defaultedOnCreate=True),
        field("StartDay", "picklist", "Start of Day", values=_HOURS, restrictedPicklist=True),
        field("EndDay", "picklist", "End of Day", values=_HOURS, restrictedPicklist=True),
        field("LanguageLocaleKey", "picklist", "Language", required=True, values=LANGUAGES, restrictedPicklist=True),
        field("EmployeeNumber", "string", "Employee Number", length=20),
        field("DelegatedApproverId", "reference", "Delegated Approver ID", to=["Group", "User"], relationshipName=None),
        field("ManagerId", "reference", "Manager ID", to="User", child="ManagedUsers"),
        read_only("LastLoginDate", "datetime", "Last Login"),
        read_only("LastPasswordChangeDate", "datetime", "Last Password Change or Reset"),
        *audit_fields(),
        read_only("NumberOfFailedLogins", "int", "Failed Login Attempts"),
        read_only("OfflineTrialExpirationDate", "datetime", "Offline Edition Trial Expiration Date"),
        read_only("OfflinePdaTrialExpirationDate", "datetime", "Sales Anywhere Trial Expiration Date"),
        field("UserPermissionsMarketingUser", "boolean", "Marketing User"),
        field("UserPermissionsOfflineUser", "boolean", "Offline User"),
        field("UserPermissionsCallCenterAutoLogin", "boolean", "Auto-login To Call Center"),
        field("UserPermissionsSFContentUser", "boolean", "Salesforce CRM Content User"),
        field("UserPermissionsKnowledgeUser", "boolean", "Knowledge User"),
        field("UserPermissionsInteractionUser", "boolean", "Flow User"),
        field("UserPermissionsSupportUser", "boolean", "Service Cloud User"),
        field("UserPermissionsLiveAgentUser", "boolean", "Chat User"),
        field("ForecastEnabled", "boolean", "Allow Forecasting"),
        field("ContactId", "reference", "Contact ID", to="Contact", child="Users"),
        read_only("AccountId", "reference", "Account ID", to="Account", child="Users"),
        field("Extension", "phone", "Extension"),
        field("FederationIdentifier", "string", "SAML Federation ID", length=512),
        field("AboutMe", "textarea", "About Me", length=1000),
        read_only("FullPhotoUrl", "url", "Url for full-sized Photo", length=1024),
        read_only("SmallPhotoUrl", "url", "Photo", length=1024),
        field("IsExtIndicatorVisible", "boolean", "Show external indicator"),
        field("OutOfOfficeMessage", "string", "Out of office message", length=40),
        read_only("MediumPhotoUrl", "url", "Url for medium profile photo", length=1024),
        field("DigestFrequency", "picklist", "Chatter Email Highlights Frequency", values=[("D", "Daily"), ("W", "Weekly"), ("N", "Never")], default="D", required=True, restrictedPicklist=True),
        field("DefaultGroupNotificationFrequency", "picklist", "Default Notification Frequency when Joining Groups", values=[("P", "Email on Each Post"), ("D", "Daily Digests"), ("W", "Weekly Digests"), ("N", "Never")], default="N", required=True, restrictedPicklist=True),
        field("JigsawImportLimitOverride", "int", "Data.com Monthly Addition Limit"),
        *last_viewed_fields(),
        read_only("BannerPhotoUrl", "url", "Url for banner photo", length=1024),
        read_only("SmallBannerPhotoUrl", "url", "Url for IOS banner photo", length=1024),
        read_only("MediumBannerPhotoUrl", "url", "Url for Android banner photo", length=1024),
        read_only("IsProfilePhotoActive", "boolean", "Has Profile Photo"),
        field("IndividualId", "reference", "Individual ID", to="Individual"),
    ],
)
