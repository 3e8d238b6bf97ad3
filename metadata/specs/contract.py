"""Contract: an agreement with an account; Orders may reference one (Object Reference: Contract).

Required on create: AccountId. ``EndDate`` is computed from StartDate and ContractTerm;
``ContractNumber`` is an auto-number and the name field.
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
    "Contract",
    "Contract",
    "Contracts",
    "800",
    feedEnabled=True,
    scopes=[("everything", "All contracts"), ("mine", "My contracts"), ("team", "My team's contracts")],
    fields=[
        id_field("Contract ID"),
        field("AccountId", "reference", "Account ID", to="Account", child="Contracts", cascade=True, restrict=True, required=True),
        field("Pricebook2Id", "reference", "Price Book ID", to="Pricebook2", child="Contracts"),
        field("OwnerExpirationNotice", "picklist", "Owner Expiration Notice", values=[("15", "15 Days"), ("30", "30 Days"), ("45", "45 Days"), ("60", "60 Days"), ("90", "90 Days"), ("120", "120 Days")]),
        field("StartDate", "date", "Contract Start Date"),
        read_only("EndDate", "date", "Contract End Date"),
        *address_fields("Billing", "Billing"),
        field("ContractTerm", "int", "Contract Term", digits=4),
        field("OwnerId", "reference", "Owner ID", to="User", required=True, defaultedOnCreate=True),
        field("Status", "picklist", "Status", values=["Draft", "In Approval Process", "Activated"], default="Draft", required=True),
        field("CompanySignedId", "reference", "Company Signed By ID", to="User"),
        field("CompanySignedDate", "date", "Company Signed Date"),
        field("CustomerSignedId", "reference", "Customer Signed By ID", to="Contact", child="ContractsSigned", restrict=True),
        field("CustomerSignedTitle", "string", "Customer Signed Title", length=40),
        field("CustomerSignedDate", "date", "Customer Signed Date"),
        field("SpecialTerms", "textarea", "Special Terms", length=4000),
        read_only("ActivatedById", "reference", "Activated By ID", to="User"),
        read_only("ActivatedDate", "datetime", "Activated Date"),
        read_only("StatusCode", "picklist", "Status Category", values=["Draft", ("InApproval", "In Approval Process"), "Activated", "Terminated", "Expired"], required=True, defaultedOnCreate=True, restrictedPicklist=True),
        field("Description", "textarea", "Description", length=32000),
        is_deleted(),
        read_only("ContractNumber", "string", "Contract Number", required=True, autoNumber=True, defaultedOnCreate=True, length=30, nameField=True),
        read_only("LastApprovedDate", "datetime", "Last Approved Date"),
        *audit_fields(),
        read_only("LastActivityDate", "date", "Last Activity"),
        *last_viewed_fields(),
    ],
)
