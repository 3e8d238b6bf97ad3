"""Product2: a product the company sells (Object Reference: Product2).

CRMArena adds ``External_ID__c`` (Text(255), External ID, values like
"Women’s Athletic Wear, Outdoor Apparel_75"; CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db); it is an idLookup field
like every external id, so upserts and relationship columns can key on it. Left out:
``ExternalDataSourceId`` (ExternalDataSource is not in this schema).
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
    "Product2",
    "Product",
    "Products",
    "01t",
    feedEnabled=True,
    scopes=[("everything", "All products")],
    fields=[
        id_field("Product ID"),
        field("Name", "string", "Product Name", required=True, nameField=True),
        field("ProductCode", "string", "Product Code"),
        field("Description", "textarea", "Product Description", length=4000),
        field("IsActive", "boolean", "Active"),
        *audit_fields(),
        field("Family", "picklist", "Product Family", values=["None"]),
        field("ExternalId", "string", "External ID"),
        field("DisplayUrl", "url", "Display URL", length=1000),
        field("QuantityUnitOfMeasure", "picklist", "Quantity Unit Of Measure", values=["Each"]),
        is_deleted(),
        read_only("IsArchived", "boolean", "Archived"),
        *last_viewed_fields(),
        field("StockKeepingUnit", "string", "Product SKU", length=180),
        # CRMArena's custom external id (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db).
        field("External_ID__c", "string", "External ID", externalId=True, idLookup=True),
    ],
)
