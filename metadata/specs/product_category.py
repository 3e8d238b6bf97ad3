"""ProductCategory: a category of products in a catalog (Object Reference: ProductCategory).

CRMArena has 12 categories (Id, Name, CatalogId). ``CatalogId`` is required: a category is a
detail of its catalog. Key prefix ``0ZG``.
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
    "ProductCategory",
    "Category",
    "Categories",
    "0ZG",
    scopes=[("everything", "All categories")],
    fields=[
        id_field("Category ID"),
        is_deleted(),
        field("Name", "string", "Name", required=True, length=200, nameField=True),
        *audit_fields(),
        *last_viewed_fields(),
        field("Description", "textarea", "Description"),
        field("Code", "string", "Code"),
        field("CatalogId", "reference", "Catalog ID", to="ProductCatalog", child="Categories", cascade=True, required=True, updateable=False, relationshipOrder=0, writeRequiresMasterRead=True),
        field("ParentCategoryId", "reference", "Category ID", to="ProductCategory", child="ChildCategories"),
        field("IsNavigational", "boolean", "Show In Menu"),
        field("SortOrder", "int", "Sort Order"),
        read_only("NumberOfProducts", "int", "Number of Products"),
    ],
)
