"""The catalog: ProductCatalog, ProductCategory, Product2, ProductCategoryProduct, Pricebook2, PricebookEntry.

Every sellable product has its list price in the standard price book (a real org refuses any
other entry for a product without one: STANDARD_PRICE_NOT_DEFINED, Object Reference,
PricebookEntry); the retired product has none, which is why the official dumps count one entry
fewer than products. The one custom price book is an old, inactive partner list without
entries. Each product sits in its primary category and some in a second one. A product's
``family`` is the vague name a customer uses for it (named-entity disambiguation) and is
unique in the catalog.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from crmarena_sf.loaders.generate.context import STANDARD_PRICEBOOK_N, Context
from crmarena_sf.loaders.pro.domain import Domain, Product
from crmarena_sf.loaders.pro.records import ORG_START, audit, emit


@dataclass
class Catalog:
    products: tuple[Product, ...]
    ids: list[str]
    entry_ids: dict[int, str]
    """Product index -> its standard price book entry."""
    sellable: list[int]
    pricebook_id: str

    def price(self, p: int) -> Decimal:
        return Decimal(str(self.products[p].price)).quantize(Decimal("0.01"))


def write_catalog(ctx: Context) -> None:
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-catalog")
    created = ORG_START
    catalog_id = ctx.record_id("ProductCatalog", 1)
    emit(
        ctx,
        "ProductCatalog",
        [{"Id": catalog_id, "Name": f"{domain.company} Catalog", **audit(ctx, created)}],
    )
    n_categories = ctx.count("ProductCategory")
    category_ids = [ctx.record_id("ProductCategory", c + 1) for c in range(n_categories)]
    emit(
        ctx,
        "ProductCategory",
        [
            {
                "Id": category_ids[c],
                "Name": domain.categories[c % len(domain.categories)],
                "Description": f"{domain.company}'s {domain.categories[c % len(domain.categories)]} products.",
                "CatalogId": catalog_id,
                "IsNavigational": True,
                "SortOrder": c + 1,
                **audit(ctx, created),
            }
            for c in range(n_categories)
        ],
    )
    products = domain.products
    ids = [ctx.record_id("Product2", p + 1) for p in range(len(products))]
    rows = []
    for p, product in enumerate(products):
        category = domain.categories[product.category]
        rows.append(
            {
                "Id": ids[p],
                "Name": product.name,
                "ProductCode": f"{domain.key.upper()}-{product.category + 1:02d}-{p + 1:03d}",
                "Description": f"The {product.name} is a {product.family} with {' and '.join(product.features)}.",
                "IsActive": product.active,
                **audit(ctx, created),
                "QuantityUnitOfMeasure": "Each",
                "StockKeepingUnit": f"{domain.key.upper()}{p + 1:04d}",
                "External_ID__c": f"{category}_{p + 1}",
            }
        )
    emit(ctx, "Product2", rows)
    n_links = ctx.count("ProductCategoryProduct")
    links = [(p, products[p].category, True) for p in range(len(products))]
    extra = sorted(rnd.sample(range(len(products)), max(0, min(n_links - len(products), len(products)))))
    for p in extra:
        second = (products[p].category + 1 + rnd.randrange(max(n_categories - 1, 1))) % n_categories
        links.append((p, second, False))
    links.sort(key=lambda link: (link[0], not link[2]))
    emit(
        ctx,
        "ProductCategoryProduct",
        [
            {
                "Id": ctx.record_id("ProductCategoryProduct", k + 1),
                "Name": f"{k + 1:08d}",
                **audit(ctx, created),
                "ProductCategoryId": category_ids[c % n_categories],
                "ProductId": ids[p],
                "IsPrimaryCategory": primary,
                "CatalogId": catalog_id,
            }
            for k, (p, c, primary) in enumerate(links)
        ],
    )
    standard = ctx.record_id("Pricebook2", STANDARD_PRICEBOOK_N)
    emit(
        ctx,
        "Pricebook2",
        [
            {
                "Id": ctx.record_id("Pricebook2", STANDARD_PRICEBOOK_N + 1 + k),
                "Name": "Partner Price Book 2019" if k == 0 else f"Partner Price Book 2019 ({k + 1})",
                **audit(ctx, created),
                "IsActive": False,
                "Description": "Prices for resellers until 2019; kept for reference, no longer used.",
                "IsStandard": False,
            }
            for k in range(ctx.count("Pricebook2"))
        ],
    )
    sellable = [p for p, product in enumerate(products) if product.active]
    entries = {}
    rows = []
    for k, p in enumerate(sellable[: ctx.count("PricebookEntry")]):
        entries[p] = ctx.record_id("PricebookEntry", k + 1)
        price = Decimal(str(products[p].price)).quantize(Decimal("0.01"))
        rows.append(
            {
                "Id": entries[p],
                "Name": products[p].name,
                "Pricebook2Id": standard,
                "Product2Id": ids[p],
                "UnitPrice": price,
                "IsActive": True,
                "UseStandardPrice": False,
                **audit(ctx, created),
                "ProductCode": f"{domain.key.upper()}-{products[p].category + 1:02d}-{p + 1:03d}",
                "IsArchived": False,
            }
        )
    emit(ctx, "PricebookEntry", rows)
    ctx.plan["catalog"] = Catalog(products, ids, entries, sorted(entries), standard)
