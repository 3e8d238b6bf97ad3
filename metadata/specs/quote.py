"""Quote: a proposed price for an opportunity's products (Object Reference: Quote,
https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_quote.htm).

A detail of its Opportunity (deleted with it). Required on create: Name, OpportunityId.
``QuoteNumber`` is an auto-number. ``AccountId`` comes from the opportunity; Subtotal,
TotalPrice, GrandTotal, Discount and LineItemCount sum the quote's line items
(:mod:`crmarena_sf.emulator.store.rollups`).
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
    "Quote",
    "Quote",
    "Quotes",
    "0Q0",
    feedEnabled=True,
    scopes=[("everything", "All quotes"), ("mine", "My quotes")],
    fields=[
        id_field("Quote ID"),
        field("OwnerId", "reference", "Owner ID", to="User", required=True, defaultedOnCreate=True),
        is_deleted(),
        field("Name", "string", "Quote Name", required=True, nameField=True),
        *audit_fields(),
        *last_viewed_fields(),
        field("OpportunityId", "reference", "Opportunity ID", to="Opportunity", child="Quotes", cascade=True, required=True, updateable=False, relationshipOrder=0, writeRequiresMasterRead=True),
        field("Pricebook2Id", "reference", "Price Book ID", to="Pricebook2", child="Quotes"),
        field("ContactId", "reference", "Contact ID", to="Contact", child="Quotes"),
        read_only("QuoteNumber", "string", "Quote Number", required=True, autoNumber=True, defaultedOnCreate=True, length=30),
        read_only("IsSyncing", "boolean", "Syncing", defaultedOnCreate=True),
        field("ShippingHandling", "currency", "Shipping and Handling"),
        field("Tax", "currency", "Tax"),
        field("Status", "picklist", "Status", values=["Draft", "Needs Review", "In Review", "Approved", "Rejected", "Presented", "Accepted", "Denied"], default="Draft"),
        field("ExpirationDate", "date", "Expiration Date"),
        field("Description", "textarea", "Description", length=32000),
        read_only("Subtotal", "currency", "Subtotal"),
        read_only("TotalPrice", "currency", "Total Price"),
        read_only("LineItemCount", "int", "Line Items"),
        *address_fields("Billing", "Bill To"),
        *address_fields("Shipping", "Ship To"),
        *address_fields("QuoteTo", "Quote To"),
        *address_fields("Additional", "Additional To"),
        field("BillingName", "string", "Bill To Name"),
        field("ShippingName", "string", "Ship To Name"),
        field("QuoteToName", "string", "Quote To Name"),
        field("AdditionalName", "string", "Additional To Name"),
        field("Email", "email", "Email"),
        field("Phone", "phone", "Phone"),
        field("Fax", "phone", "Fax"),
        field("ContractId", "reference", "Contract ID", to="Contract", child="Quotes"),
        read_only("AccountId", "reference", "Account ID", to="Account", child="Quotes"),
        read_only("Discount", "percent", "Discount", precision=5, scale=2),
        read_only("GrandTotal", "currency", "Grand Total"),
        read_only("CanCreateQuoteLineItems", "boolean", "Can Create Quote Line Items", defaultedOnCreate=True),
    ],
)
