"""QuoteLineItem: a line of a Quote (Object Reference: QuoteLineItem,
https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_quotelineitem.htm).

A detail of its Quote (deleted with it). Required on create: QuoteId, PricebookEntryId,
Quantity, UnitPrice. ``LineNumber`` is an auto-number and the name field; ``ListPrice`` and
``Product2Id`` come from the price book entry; ``OpportunityLineItemId`` is the opportunity
product a synced quote line mirrors; ``Subtotal`` is Quantity x UnitPrice and
``TotalPrice`` that less the discount.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import (
    audit_fields,
    id_field,
    is_deleted,
    last_viewed_fields,
    read_only,
)

SPEC = sobject(
    "QuoteLineItem",
    "Quote Line Item",
    "Quote Line Items",
    "0QL",
    searchable=False,
    scopes=[("everything", "All quote line items")],
    fields=[
        id_field("Line Item ID"),
        is_deleted(),
        read_only("LineNumber", "string", "Line Item Number", required=True, autoNumber=True, defaultedOnCreate=True, length=255, nameField=True),
        *audit_fields(),
        *last_viewed_fields(),
        field("QuoteId", "reference", "Quote ID", to="Quote", child="QuoteLineItems", cascade=True, required=True, updateable=False, relationshipOrder=0, writeRequiresMasterRead=True),
        field("PricebookEntryId", "reference", "Price Book Entry ID", to="PricebookEntry", child="QuoteLineItems", required=True, updateable=False, restrict=True),
        field("Quantity", "double", "Quantity", required=True, precision=12, scale=2),
        field("UnitPrice", "currency", "Sales Price", required=True),
        field("Discount", "percent", "Discount", precision=5, scale=2),
        field("Description", "string", "Line Item Description"),
        field("ServiceDate", "date", "Date"),
        field("Product2Id", "reference", "Product ID", to="Product2", child="QuoteLineItems", updateable=False),
        field("OpportunityLineItemId", "reference", "Line Item ID", to="OpportunityLineItem", updateable=False),
        read_only("SortOrder", "int", "Sort Order"),
        read_only("ListPrice", "currency", "List Price"),
        read_only("Subtotal", "currency", "Subtotal"),
        read_only("TotalPrice", "currency", "Total Price"),
    ],
)
