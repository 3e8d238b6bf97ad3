"""Asset: a product a customer owns (Object Reference: Asset); Case.AssetId points here.

Required on create: Name, and an AccountId or ContactId (a validation the org runs, not a
describe flag). Left out: the lifecycle-management amounts of Subscription Management.
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
    "Asset",
    "Asset",
    "Assets",
    "02i",
    feedEnabled=True,
    scopes=[("everything", "All assets"), ("mine", "My assets")],
    fields=[
        id_field("Asset ID"),
        field("ContactId", "reference", "Contact ID", to="Contact", child="Assets", cascade=True),
        field("AccountId", "reference", "Account ID", to="Account", child="Assets", cascade=True),
        field("ParentId", "reference", "Parent Asset ID", to="Asset", child="ChildAssets"),
        read_only("RootAssetId", "reference", "Root Asset ID", to="Asset"),
        field("Product2Id", "reference", "Product ID", to="Product2", child="Assets"),
        read_only("ProductCode", "string", "Product Code"),
        field("IsCompetitorProduct", "boolean", "Competitor Asset"),
        *audit_fields(),
        is_deleted(),
        field("Name", "string", "Asset Name", required=True, nameField=True),
        field("SerialNumber", "string", "Serial Number", length=80),
        field("InstallDate", "date", "Install Date"),
        field("PurchaseDate", "date", "Purchase Date"),
        field("UsageEndDate", "date", "Usage End Date"),
        field("LifecycleStartDate", "datetime", "Lifecycle Start Date"),
        field("LifecycleEndDate", "datetime", "Lifecycle End Date"),
        field("Status", "picklist", "Status", values=["Purchased", "Shipped", "Installed", "Registered", "Obsolete"]),
        field("Price", "currency", "Price"),
        field("Quantity", "double", "Quantity", scale=2),
        field("Description", "textarea", "Description", length=32000),
        field("OwnerId", "reference", "Owner ID", to="User", required=True, defaultedOnCreate=True),
        field("AssetProvidedById", "reference", "Asset Provided By ID", to="Account", child="ProvidedAssets"),
        field("AssetServicedById", "reference", "Asset Serviced By ID", to="Account", child="ServicedAssets"),
        field("IsInternal", "boolean", "Internal Asset"),
        read_only("AssetLevel", "int", "Asset Level"),
        read_only("StockKeepingUnit", "string", "Product SKU", length=180),
        *address_fields("", ""),
        *last_viewed_fields(),
    ],
)
