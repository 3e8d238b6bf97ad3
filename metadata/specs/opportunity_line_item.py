"""OpportunityLineItem: an opportunity product, a line of an Opportunity (Object Reference:
OpportunityLineItem,
https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_opportunitylineitem.htm).

A detail of its Opportunity (deleted with it). Required on create: OpportunityId and Quantity
(a real org also wants a PricebookEntryId or Product2Id and a UnitPrice or TotalPrice, a rule
the emulator does not check). ``ListPrice``, ``Product2Id`` and ``ProductCode`` come from the
price book entry; ``TotalPrice`` is Quantity x UnitPrice, or UnitPrice TotalPrice / Quantity
when only the total is sent. ``Name`` (the opportunity's and the product's names) stays empty.
The entry must belong to the opportunity's price book (:mod:`crmarena_sf.emulator.store.price_books`).
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
    "OpportunityLineItem",
    "Opportunity Product",
    "Opportunity Product",
    "00k",
    searchable=False,
    scopes=[("everything", "All opportunity products")],
    fields=[
        id_field("Line Item ID"),
        field("OpportunityId", "reference", "Opportunity ID", to="Opportunity", child="OpportunityLineItems", cascade=True, required=True, updateable=False, relationshipOrder=0, writeRequiresMasterRead=True),
        read_only("SortOrder", "int", "Sort Order"),
        field("PricebookEntryId", "reference", "Price Book Entry ID", to="PricebookEntry", child="OpportunityLineItems", updateable=False, restrict=True),
        field("Product2Id", "reference", "Product ID", to="Product2", child="OpportunityLineItems", updateable=False),
        read_only("ProductCode", "string", "Product Code"),
        read_only("Name", "string", "Opportunity Product Name", length=376, nameField=True),
        field("Quantity", "double", "Quantity", required=True, precision=12, scale=2),
        field("TotalPrice", "currency", "Total Price"),
        field("UnitPrice", "currency", "Sales Price"),
        read_only("ListPrice", "currency", "List Price"),
        field("ServiceDate", "date", "Date"),
        field("Description", "string", "Line Description"),
        *audit_fields(),
        is_deleted(),
        *last_viewed_fields(),
    ],
)
