"""Contact: an individual associated with an account (Object Reference: Contact; fields as a real org describes them, API v48).

Additions for this org (person accounts on, a recent API version): ``IsPersonAccount`` (true on
the contact a person account carries), the opt-out checkboxes, ``Pronouns``, ``GenderIdentity``
and the ``Mx.`` salutation, matching the Person* fields of the real person-account describe.
MiddleName/Suffix are absent (the org setting for them is off).
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import (
    address_fields,
    audit_fields,
    id_field,
    is_deleted,
    last_viewed_fields,
)

SPEC = sobject(
    "Contact",
    "Contact",
    "Contacts",
    "003",
    feedEnabled=True,
    mergeable=True,
    scopes=[("everything", "All contacts"), ("mine", "My contacts"), ("team", "My team's contacts")],
    fields=[
        id_field("Contact ID"),
        is_deleted(),
        field('MasterRecordId', 'reference', 'Master Record ID', to='Contact', createable=False, updateable=False),
        field('AccountId', 'reference', 'Account ID', to='Account', child='Contacts', cascade=True),
        field('IsPersonAccount', 'boolean', 'Is Person Account', createable=False, updateable=False, defaultedOnCreate=True),
        field('LastName', 'string', 'Last Name', required=True, compoundFieldName='Name', extraTypeInfo='personname', length=80),
        field('FirstName', 'string', 'First Name', compoundFieldName='Name', extraTypeInfo='personname', length=40, permissionable=False),
        field('Salutation', 'picklist', 'Salutation', values=['Mr.', 'Ms.', 'Mrs.', 'Dr.', 'Prof.', 'Mx.'], compoundFieldName='Name', extraTypeInfo='personname', permissionable=False),
        field('Name', 'string', 'Full Name', required=True, createable=False, extraTypeInfo='personname', length=121, nameField=True, updateable=False),
        *address_fields('Other', 'Other'),
        *address_fields('Mailing', 'Mailing'),
        field('Phone', 'phone', 'Business Phone'),
        field('Fax', 'phone', 'Business Fax'),
        field('MobilePhone', 'phone', 'Mobile Phone'),
        field('HomePhone', 'phone', 'Home Phone'),
        field('OtherPhone', 'phone', 'Other Phone'),
        field('AssistantPhone', 'phone', 'Asst. Phone'),
        field('ReportsToId', 'reference', 'Reports To ID', to='Contact', child=None),
        field('Email', 'email', 'Email', idLookup=True),
        field('Title', 'string', 'Title', length=128),
        field('Department', 'string', 'Department', length=80),
        field('AssistantName', 'string', "Assistant's Name", length=40),
        field('LeadSource', 'picklist', 'Lead Source', values=['Web', 'Phone Inquiry', 'Partner Referral', 'Purchased List', 'Other'], length=255),
        field('Birthdate', 'date', 'Birthdate'),
        field('Description', 'textarea', 'Contact Description', length=32000),
        field('OwnerId', 'reference', 'Owner ID', to='User', required=True, defaultedOnCreate=True),
        field('HasOptedOutOfEmail', 'boolean', 'Email Opt Out', permissionable=True),
        field('HasOptedOutOfFax', 'boolean', 'Fax Opt Out', permissionable=True),
        field('DoNotCall', 'boolean', 'Do Not Call', permissionable=True),
        *audit_fields(),
        field('LastActivityDate', 'date', 'Last Activity', createable=False, updateable=False),
        field('LastCURequestDate', 'datetime', 'Last Stay-in-Touch Request Date', createable=False, updateable=False),
        field('LastCUUpdateDate', 'datetime', 'Last Stay-in-Touch Save Date', createable=False, updateable=False),
        *last_viewed_fields(),
        field('EmailBouncedReason', 'string', 'Email Bounced Reason', permissionable=False),
        field('EmailBouncedDate', 'datetime', 'Email Bounced Date', permissionable=False),
        field('IsEmailBounced', 'boolean', 'Is Email Bounced', createable=False, updateable=False),
        field('PhotoUrl', 'url', 'Photo URL', createable=False, extraTypeInfo='imageurl', updateable=False),
        field('Jigsaw', 'string', 'Data.com Key', length=20),
        field('JigsawContactId', 'string', 'Jigsaw Contact ID', createable=False, length=20, relationshipName='JigsawContact', updateable=False),
        field('CleanStatus', 'picklist', 'Clean Status', values=[('Matched', 'In Sync'), 'Different', ('Acknowledged', 'Reviewed'), ('NotFound', 'Not Found'), 'Inactive', ('Pending', 'Not Compared'), ('SelectMatch', 'Select Match'), 'Skipped'], restrictedPicklist=True),
        field('IndividualId', 'reference', 'Individual ID', to='Individual', permissionable=False),
        field('Pronouns', 'picklist', 'Pronouns', values=['He/Him', 'She/Her', 'They/Them', 'He/They', 'She/They', 'Not Listed'], length=255),
        field('GenderIdentity', 'picklist', 'Gender Identity', values=['Male', 'Female', 'Nonbinary', 'Not Listed'], length=255),
    ],
)
