"""RecordType: a business process and picklist subset of an object (Object Reference: RecordType).

A new org has the record types the metadata declares (Account's Person Account and Business
Account); ``IsPersonType`` marks the person-account ones. Left out: ``BusinessProcessId``
(BusinessProcess is not in this schema).
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, read_only

SOBJECT_TYPES = [
    "Account",
    "Asset",
    "Case",
    "Contact",
    "Contract",
    "Individual",
    "Order",
    "Pricebook2",
    "Product2",
    "Knowledge__kav",
    "Issue__c",
    "CaseHistory__c",
]
"""Objects of this schema that can have record types (the real list names every such object)."""

SPEC = sobject(
    "RecordType",
    "Record Type",
    "Record Types",
    "012",
    deletable=False,
    undeletable=False,
    searchable=False,
    scopes=[],
    fields=[
        id_field("Record Type ID"),
        field("Name", "string", "Name", required=True, length=80, nameField=True),
        field("DeveloperName", "string", "Record Type Name", required=True, length=80),
        read_only("NamespacePrefix", "string", "Namespace Prefix", length=15),
        field("Description", "string", "Description", length=255),
        field("SobjectType", "picklist", "SObject Type Name", required=True, values=SOBJECT_TYPES, restrictedPicklist=True, updateable=False),
        field("IsActive", "boolean", "Active"),
        read_only("IsPersonType", "boolean", "Is Person Type"),
        *audit_fields(),
    ],
)
