"""OrderItem: an order product, a line of an Order (Object Reference: OrderItem).

A detail of its Order (deleted with it). Required on create: OrderId, PricebookEntryId (an entry
of the order's price book), Quantity, UnitPrice. ``Product2Id`` follows from the price-book
entry; ``ListPrice``, ``TotalPrice`` and ``OrderItemNumber`` (auto-number, the name field) are
computed by the org. ``QuoteLineItemId`` is the quote line the item was ordered from.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, read_only

SPEC = sobject(
    "OrderItem",
    "Order Product",
    "Order Products",
    "802",
    mruEnabled=False,
    searchable=False,
    scopes=[("everything", "All order products")],
    fields=[
        id_field("Order Product ID"),
        field("Product2Id", "reference", "Product ID", to="Product2", updateable=False),
        is_deleted(),
        field("OrderId", "reference", "Order ID", to="Order", child="OrderItems", cascade=True, required=True, updateable=False, relationshipOrder=0, writeRequiresMasterRead=True),
        field("PricebookEntryId", "reference", "Price Book Entry ID", to="PricebookEntry", required=True, updateable=False, restrict=True),
        field("OriginalOrderItemId", "reference", "Original Order Item ID", to="OrderItem", updateable=False),
        field("QuoteLineItemId", "reference", "Quote Line Item ID", to="QuoteLineItem", updateable=False),
        read_only("AvailableQuantity", "double", "Available Quantity", scale=2),
        field("Quantity", "double", "Quantity", required=True, scale=2),
        field("UnitPrice", "currency", "Unit Price", required=True),
        read_only("ListPrice", "currency", "List Price"),
        read_only("TotalPrice", "currency", "Total Price"),
        field("ServiceDate", "date", "Start Date"),
        field("EndDate", "date", "End Date"),
        field("Description", "string", "Line Description"),
        *audit_fields(),
        read_only("OrderItemNumber", "string", "Order Product Number", required=True, autoNumber=True, defaultedOnCreate=True, length=10, nameField=True),
    ],
)
