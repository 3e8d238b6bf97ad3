"""Order: a customer's order, with its order products (Object Reference: Order).

Required on create: AccountId, EffectiveDate, Status. A real org creates orders as Draft and
activates them once they have items (``StatusCode`` follows Status); CRMArena's orders are
'Activated'. ``OrderNumber`` is an auto-number and the name field; ``TotalAmount`` sums the
items. Orders can be owned by a queue; ``OpportunityId`` and ``QuoteId`` name the deal and the
quote an order came from.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import (
    address_fields,
    audit_fields,
    id_field,
    is_deleted,
    last_viewed_fields,
    owner_field,
    read_only,
)

SPEC = sobject(
    "Order",
    "Order",
    "Orders",
    "801",
    feedEnabled=True,
    scopes=[("everything", "All orders"), ("mine", "My orders"), ("queue_owned", "Queue owned orders"), ("user_owned", "User owned orders")],
    fields=[
        id_field("Order ID"),
        owner_field(),
        field("ContractId", "reference", "Contract ID", to="Contract", child="Orders"),
        field("AccountId", "reference", "Account ID", to="Account", child="Orders", cascade=True, restrict=True, required=True),
        field("Pricebook2Id", "reference", "Price Book ID", to="Pricebook2", child="Orders"),
        field("OriginalOrderId", "reference", "Original Order ID", to="Order", child="Orders", updateable=False),
        field("OpportunityId", "reference", "Opportunity ID", to="Opportunity", child="Orders"),
        field("QuoteId", "reference", "Quote ID", to="Quote", child="Orders", updateable=False),
        field("EffectiveDate", "date", "Order Start Date", required=True),
        field("EndDate", "date", "Order End Date"),
        field("IsReductionOrder", "boolean", "Reduction Order", updateable=False),
        field("Status", "picklist", "Status", values=["Draft", "Activated"], required=True),
        field("Description", "textarea", "Description", length=32000),
        field("CustomerAuthorizedById", "reference", "Customer Authorized By ID", to="Contact", restrict=True),
        field("CustomerAuthorizedDate", "date", "Customer Authorized Date"),
        field("CompanyAuthorizedById", "reference", "Company Authorized By ID", to="User"),
        field("CompanyAuthorizedDate", "date", "Company Authorized Date"),
        field("Type", "picklist", "Order Type", values=[]),
        *address_fields("Billing", "Billing"),
        *address_fields("Shipping", "Shipping"),
        field("Name", "string", "Order Name", length=80),
        field("PoDate", "date", "PO Date"),
        field("PoNumber", "string", "PO Number", length=80),
        field("OrderReferenceNumber", "string", "Order Reference Number", length=80),
        field("BillToContactId", "reference", "Bill To Contact ID", to="Contact", restrict=True),
        field("ShipToContactId", "reference", "Ship To Contact ID", to="Contact", restrict=True),
        read_only("ActivatedDate", "datetime", "Activated Date"),
        read_only("ActivatedById", "reference", "Activated By ID", to="User"),
        read_only("StatusCode", "picklist", "Status Category", values=["Draft", "Activated", ("Canceled", "Cancelled"), "Expired"], required=True, defaultedOnCreate=True, restrictedPicklist=True),
        read_only("OrderNumber", "string", "Order Number", required=True, autoNumber=True, defaultedOnCreate=True, idLookup=True, length=30, nameField=True),
        read_only("TotalAmount", "currency", "Order Amount", required=True, defaultedOnCreate=True),
        *audit_fields(),
        is_deleted(),
        *last_viewed_fields(),
    ],
)
