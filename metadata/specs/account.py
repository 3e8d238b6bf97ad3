"""Account: a customer; this org has person accounts enabled (Object Reference: Account, PersonAccount).

Business fields as a real org describes them (API v48); the person-account part (the switchable
person ``Name`` built from Salutation/FirstName/LastName, ``PersonContactId``, ``IsPersonAccount``
and the ``Person*`` contact fields, with their order, types and flags) as the describe of a real
person-account org shows it (CumulusCI cassette ``GET_sobjects_Account_PersonAccount_describe``).
In such an org ``Name`` is nillable: a business account needs Name, a person account LastName
(the org checks it by record type; the describe cannot say it). Left out: ``DandbCompanyId``
(DandBCompany) and ``OperatingHoursId`` (OperatingHours), whose targets are not in this schema;
the partner/customer-portal fields (IsPartner, IsCustomerPortal, ChannelProgram*) that only
portal orgs have; MiddleName/Suffix (the org setting for them is off).
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import (
    address_fields,
    audit_fields,
    id_field,
    is_deleted,
    last_viewed_fields,
    read_only,
)

SPEC = sobject(
    "Account",
    "Account",
    "Accounts",
    "001",
    feedEnabled=True,
    mergeable=True,
    scopes=[("everything", "All accounts"), ("mine", "My accounts"), ("team", "My team's accounts")],
    record_types=[
        {"developerName": "PersonAccount", "name": "Person Account", "recordTypeId": "012Em0000000001IAA"},
        {"developerName": "Business_Account", "name": "Business Account", "recordTypeId": "012Em0000000002IAA"},
    ],
    fields=[
        id_field("Account ID"),
        is_deleted(),
        field('MasterRecordId', 'reference', 'Master Record ID', to='Account', createable=False, updateable=False),
        field('Name', 'string', 'Account Name', compoundFieldName='Name', extraTypeInfo='switchablepersonname', nameField=True, permissionable=False),
        field('LastName', 'string', 'Last Name', compoundFieldName='Name', extraTypeInfo='switchablepersonname', length=80, nameField=True, permissionable=False),
        field('FirstName', 'string', 'First Name', compoundFieldName='Name', extraTypeInfo='switchablepersonname', length=40, nameField=True, permissionable=False),
        field('Salutation', 'picklist', 'Salutation', values=['Mr.', 'Ms.', 'Mrs.', 'Dr.', 'Prof.', 'Mx.'], compoundFieldName='Name', extraTypeInfo='switchablepersonname', permissionable=False),
        field('Type', 'picklist', 'Account Type', values=['Prospect', 'Customer - Direct', 'Customer - Channel', 'Channel Partner / Reseller', 'Installation Partner', 'Technology Partner', 'Other']),
        field('RecordTypeId', 'reference', 'Record Type ID', to='RecordType', permissionable=False, searchPrefilterable=False),
        field('ParentId', 'reference', 'Parent Account ID', to='Account', child='ChildAccounts'),
        *address_fields('Billing', 'Billing'),
        *address_fields('Shipping', 'Shipping'),
        field('Phone', 'phone', 'Account Phone'),
        field('Fax', 'phone', 'Account Fax'),
        field('AccountNumber', 'string', 'Account Number', length=40),
        field('Website', 'url', 'Website'),
        field('PhotoUrl', 'url', 'Photo URL', createable=False, extraTypeInfo='imageurl', updateable=False),
        field('Sic', 'string', 'SIC Code', length=20),
        field('Industry', 'picklist', 'Industry', values=['Agriculture', 'Apparel', 'Banking', 'Biotechnology', 'Chemicals', 'Communications', 'Construction', 'Consulting', 'Education', 'Electronics', 'Energy', 'Engineering', 'Entertainment', 'Environmental', 'Finance', 'Food & Beverage', 'Government', 'Healthcare', 'Hospitality', 'Insurance', 'Machinery', 'Manufacturing', 'Media', 'Not For Profit', 'Recreation', 'Retail', 'Shipping', 'Technology', 'Telecommunications', 'Transportation', 'Utilities', 'Other']),
        field('AnnualRevenue', 'currency', 'Annual Revenue', scale=0),
        field('NumberOfEmployees', 'int', 'Employees', digits=8),
        field('Ownership', 'picklist', 'Ownership', values=['Public', 'Private', 'Subsidiary', 'Other']),
        field('TickerSymbol', 'string', 'Ticker Symbol', length=20),
        field('Description', 'textarea', 'Account Description', length=32000),
        field('Rating', 'picklist', 'Account Rating', values=['Hot', 'Warm', 'Cold']),
        field('Site', 'string', 'Account Site', length=80),
        field('OwnerId', 'reference', 'Owner ID', to='User', required=True, defaultedOnCreate=True),
        *audit_fields(),
        field('LastActivityDate', 'date', 'Last Activity', createable=False, updateable=False),
        *last_viewed_fields(),
        # Person-account fields, in the order of the real person-account describe.
        read_only('PersonContactId', 'reference', 'Contact ID', to='Contact', child=None, searchPrefilterable=True),
        read_only('IsPersonAccount', 'boolean', 'Is Person Account', defaultedOnCreate=True),
        *address_fields('PersonMailing', 'Mailing'),
        *address_fields('PersonOther', 'Other'),
        field('PersonMobilePhone', 'phone', 'Mobile'),
        field('PersonHomePhone', 'phone', 'Home Phone'),
        field('PersonOtherPhone', 'phone', 'Other Phone'),
        field('PersonAssistantPhone', 'phone', 'Asst. Phone'),
        field('PersonEmail', 'email', 'Email'),
        field('PersonTitle', 'string', 'Title', length=80),
        field('PersonDepartment', 'string', 'Department', length=80),
        field('PersonAssistantName', 'string', 'Assistant', length=40),
        field('PersonLeadSource', 'picklist', 'Lead Source', values=['Web', 'Phone Inquiry', 'Partner Referral', 'Purchased List', 'Other'], length=255),
        field('PersonBirthdate', 'date', 'Birthdate'),
        field('PersonHasOptedOutOfEmail', 'boolean', 'Email Opt Out', permissionable=True),
        field('PersonHasOptedOutOfFax', 'boolean', 'Fax Opt Out', permissionable=True),
        field('PersonDoNotCall', 'boolean', 'Do Not Call', permissionable=True),
        read_only('PersonLastCURequestDate', 'datetime', 'Last Stay-in-Touch Request Date', groupable=False),
        read_only('PersonLastCUUpdateDate', 'datetime', 'Last Stay-in-Touch Save Date', groupable=False),
        field('PersonEmailBouncedReason', 'string', 'Email Bounced Reason', permissionable=False),
        field('PersonEmailBouncedDate', 'datetime', 'Email Bounced Date', permissionable=False),
        field('PersonIndividualId', 'reference', 'Individual ID', to='Individual', permissionable=False, searchPrefilterable=False),
        field('PersonPronouns', 'picklist', 'Pronouns', values=['He/Him', 'She/Her', 'They/Them', 'He/They', 'She/They', 'Not Listed'], length=255),
        field('PersonGenderIdentity', 'picklist', 'Gender Identity', values=['Male', 'Female', 'Nonbinary', 'Not Listed'], length=255),
        field('Jigsaw', 'string', 'Data.com Key', length=20),
        field('JigsawCompanyId', 'string', 'Jigsaw Company ID', createable=False, length=20, relationshipName='JigsawCompany', updateable=False),
        field('CleanStatus', 'picklist', 'Clean Status', values=[('Matched', 'In Sync'), 'Different', ('Acknowledged', 'Reviewed'), ('NotFound', 'Not Found'), 'Inactive', ('Pending', 'Not Compared'), ('SelectMatch', 'Select Match'), 'Skipped'], restrictedPicklist=True),
        field('AccountSource', 'picklist', 'Account Source', values=['Web', 'Phone Inquiry', 'Partner Referral', 'Purchased List', 'Other']),
        field('DunsNumber', 'string', 'D-U-N-S Number', length=9),
        field('Tradestyle', 'string', 'Tradestyle'),
        field('NaicsCode', 'string', 'NAICS Code', length=8),
        field('NaicsDesc', 'string', 'NAICS Description', length=120),
        field('YearStarted', 'string', 'Year Started', length=4),
        field('SicDesc', 'string', 'SIC Description', length=80),
    ],
)
