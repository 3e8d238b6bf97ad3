"""Case: a customer question, problem or complaint (Object Reference: Case; fields as a real org describes them, API v48)."""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, last_viewed_fields

SPEC = sobject(
    "Case",
    "Case",
    "Cases",
    "500",
    feedEnabled=True,
    scopes=[
        ("everything", "All cases"),
        ("genericteam", "My case teams cases"),
        ("mine", "My cases"),
        ("queue_owned", "Queue owned cases"),
        ("team_by_role", "My role-based team's cases"),
        ("user_owned", "User owned cases"),
    ],
    fields=[
        id_field("Case ID"),
        is_deleted(),
        field('MasterRecordId', 'reference', 'Master Record ID', to='Case', createable=False, updateable=False),
        field('CaseNumber', 'string', 'Case Number', required=True, autoNumber=True, createable=False, defaultedOnCreate=True, groupable=False, idLookup=True, length=30, nameField=True, updateable=False),
        field('ContactId', 'reference', 'Contact ID', to='Contact', child='Cases', restrict=True),
        field('AccountId', 'reference', 'Account ID', to='Account', child='Cases', restrict=True),
        field('AssetId', 'reference', 'Asset ID', to='Asset', child='Cases'),
        field('ParentId', 'reference', 'Parent Case ID', to='Case', child='Cases'),
        field('SuppliedName', 'string', 'Name', length=80),
        field('SuppliedEmail', 'email', 'Email Address'),
        field('SuppliedPhone', 'string', 'Phone', length=40),
        field('SuppliedCompany', 'string', 'Company', length=80),
        field('Type', 'picklist', 'Case Type', values=['Mechanical', 'Electrical', 'Electronic', 'Structural', 'Other']),
        field('Status', 'picklist', 'Status', values=['New', 'Working', 'Escalated', 'Closed'], default='New', permissionable=False),
        field('Reason', 'picklist', 'Case Reason', values=['Installation', 'Equipment Complexity', 'Performance', 'Breakdown', 'Equipment Design', 'Feedback', 'Other']),
        field('Origin', 'picklist', 'Case Origin', values=['Phone', 'Email', 'Web']),
        field('Subject', 'string', 'Subject'),
        field('Priority', 'picklist', 'Priority', values=['High', 'Medium', 'Low'], default='Medium'),
        field('Description', 'textarea', 'Description', length=32000),
        field('IsClosed', 'boolean', 'Closed', createable=False, updateable=False),
        field('ClosedDate', 'datetime', 'Closed Date', updateable=False, permissionable=True),  # createable: Set Audit Fields
        field('IsEscalated', 'boolean', 'Escalated', permissionable=True),
        field('OwnerId', 'reference', 'Owner ID', to=['Group', 'User'], required=True, defaultedOnCreate=True, namePointing=True),
        *audit_fields(),
        field('ContactPhone', 'phone', 'Contact Phone', createable=False, updateable=False),
        field('ContactMobile', 'phone', 'Contact Mobile', createable=False, updateable=False),
        field('ContactEmail', 'email', 'Contact Email', createable=False, updateable=False),
        field('ContactFax', 'phone', 'Contact Fax', createable=False, updateable=False),
        field('Comments', 'textarea', 'Internal Comments', byteLength=4000, length=4000, permissionable=False),
        *last_viewed_fields(),
        # CRMArena's custom lookups (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db).
        field('OrderItemId__c', 'reference', 'Order Item', to='OrderItem', child='Cases__r'),
        field('IssueId__c', 'reference', 'Issue', to='Issue__c', child='Cases__r'),
    ],
)
