"""PricebookEntry: a product's price in a price book (Object Reference: PricebookEntry).

Required on create: Pricebook2Id, Product2Id, UnitPrice (neither reference can change later).
``Name`` and ``ProductCode`` are copied from the product by the org.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, read_only

SPEC = sobject(
    "PricebookEntry",
    "Price Book Entry",
    "Price Book Entries",
    "01u",
    mruEnabled=False,
    searchable=False,
    scopes=[("everything", "All price book entries")],
    fields=[
        id_field("Price Book Entry ID"),
        read_only("Name", "string", "Product Name", nameField=True),
        field("Pricebook2Id", "reference", "Price Book ID", to="Pricebook2", child="PricebookEntries", cascade=True, required=True, updateable=False),
        field("Product2Id", "reference", "Product ID", to="Product2", child="PricebookEntries", cascade=True, required=True, updateable=False),
        field("UnitPrice", "currency", "List Price", required=True),
        field("IsActive", "boolean", "Active"),
        field("UseStandardPrice", "boolean", "Use Standard Price"),
        *audit_fields(),
        read_only("ProductCode", "string", "Product Code"),
        is_deleted(),
        read_only("IsArchived", "boolean", "Archived"),
    ],
)
