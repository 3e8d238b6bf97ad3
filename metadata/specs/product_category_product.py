"""ProductCategoryProduct: a product's membership of a category (Object Reference: ProductCategoryProduct).

A junction of ProductCategory and Product2 (CRMArena has 762). Required on create:
ProductCategoryId (master-detail) and ProductId; ``Name`` is an auto-number, ``CatalogId`` the
category's catalog. Fields as the Salesforce Field Reference lists them. Key prefix ``0ZH`` (not confirmed
from a public source; the other Commerce prefixes are 0ZS and 0ZG).
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import audit_fields, id_field, is_deleted, read_only

SPEC = sobject(
    "ProductCategoryProduct",
    "Product Category Product",
    "Product Category Products",
    "0ZH",
    searchable=False,
    scopes=[("everything", "All product category products")],
    fields=[
        id_field("Product Category Product ID"),
        is_deleted(),
        read_only("Name", "string", "Name", required=True, autoNumber=True, defaultedOnCreate=True, idLookup=True, nameField=True),
        *audit_fields(),
        field("ProductCategoryId", "reference", "Category ID", to="ProductCategory", child="CategoryProducts", cascade=True, required=True, updateable=False, relationshipOrder=0, writeRequiresMasterRead=True),
        field("ProductId", "reference", "Product ID", to="Product2", child="ProductCategoryProducts", cascade=True, required=True),
        field("IsPrimaryCategory", "boolean", "Is Primary Category"),
        read_only("CatalogId", "reference", "Catalog ID", to="ProductCatalog"),
        read_only("ProductToCategory", "string", "Product/Category Concatenation", length=30),
    ],
)
