"""ProductCatalog: a Commerce catalog of product categories (Object Reference: ProductCatalog).

ProductCategory.CatalogId points here. Key prefix ``0ZS``.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import (
    audit_fields,
    id_field,
    is_deleted,
    last_viewed_fields,
    owner_field,
    read_only,
)

SPEC = sobject(
    "ProductCatalog",
    "Catalog",
    "Catalogs",
    "0ZS",
    scopes=[("everything", "All catalogs"), ("mine", "My catalogs")],
    fields=[
        id_field("Catalog ID"),
        owner_field(),
        is_deleted(),
        field("Name", "string", "Name", required=True, nameField=True),
        *audit_fields(),
        *last_viewed_fields(),
        read_only("NumberOfCategories", "int", "Number of Categories"),
    ],
)
