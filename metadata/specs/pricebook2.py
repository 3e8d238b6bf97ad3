"""Pricebook2: a price book (Object Reference: Pricebook2).

A new org has the standard price book (``IsStandard`` true, not createable); every product
needs a standard-price entry before it can be priced in a custom book.
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
    "Pricebook2",
    "Price Book",
    "Price Books",
    "01s",
    scopes=[("everything", "All price books")],
    fields=[
        id_field("Price Book ID"),
        is_deleted(),
        field("Name", "string", "Price Book Name", required=True, nameField=True),
        *audit_fields(),
        *last_viewed_fields(),
        field("IsActive", "boolean", "Active"),
        field("IsArchived", "boolean", "Archived", createable=False, updateable=False),
        field("Description", "string", "Description"),
        read_only("IsStandard", "boolean", "Is Standard Price Book"),
        field("ValidFrom", "datetime", "Valid From"),
        field("ValidTo", "datetime", "Valid To"),
    ],
)
