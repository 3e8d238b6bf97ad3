"""The catalog: ProductCatalog, ProductCategory, Product2, ProductCategoryProduct, Pricebook2, PricebookEntry.

Every product has an entry in the standard price book (a real org refuses a custom
price book entry otherwise: STANDARD_PRICE_NOT_DEFINED); each custom price book lists most
products, at its own discount. The entries are built inside DuckDB (price books x products,
minus each book's exclusions), so a 2-million-entry catalog costs no Python loop.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass, field

from crmarena_sf.loaders.generate import catalog_words, latent, vocab
from crmarena_sf.loaders.generate.context import (
    STANDARD_PRICEBOOK_N,
    Context,
    audit_sql,
    autonumber,
    secs,
    ts,
)


@dataclass
class Catalog:
    names: list[str] = field(default_factory=list)
    category: list[int] = field(default_factory=list)
    family: list[str] = field(default_factory=list)
    """Lower-case family phrase of each product ("women's trail jacket")."""
    list_price: list[float] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    pricebooks: list[dict] = field(default_factory=list)
    """Custom price books: n, name, valid_from, valid_to (dates or None)."""
    excluded: dict[int, set[int]] = field(default_factory=dict)
    """Price book number -> product indexes it does not list."""
    profiles: latent.ProductProfiles | None = None

    def __len__(self) -> int:
        return len(self.names)


def _product_names(rnd, n: int) -> list[tuple[int, str, str, catalog_words.Item]]:
    """``n`` unique (category, name, family, item), spread evenly over the categories."""
    per_category = [
        n // len(catalog_words.CATEGORIES) + (1 if c < n % len(catalog_words.CATEGORIES) else 0)
        for c in range(len(catalog_words.CATEGORIES))
    ]
    out = []
    for c, (cat, want) in enumerate(zip(catalog_words.CATEGORIES, per_category)):
        combos = []
        for item in cat.items:
            audiences = catalog_words.AUDIENCES if item.gendered else ("",)
            for audience, style in itertools.product(audiences, cat.styles):
                family = f"{audience}{style} {item.noun}"
                combos += [
                    (f"{audience}{mod}{style} {item.noun}", family, item) for mod in catalog_words.MODIFIERS
                ]
        rnd.shuffle(combos)
        picked = combos[:want]
        # Bigger catalogs (--scale) reuse a name in other colorways.
        for k in range(want - len(picked)):
            name, family, item = combos[k % len(combos)]
            color = catalog_words.COLORWAYS[(k // len(combos)) % len(catalog_words.COLORWAYS)]
            round_ = k // (len(combos) * len(catalog_words.COLORWAYS))
            picked.append((f"{name} - {color}" + (f" {round_ + 1}" if round_ else ""), family, item))
        out += [(c, name, family.lower(), item) for name, family, item in picked]
    return out


def write_catalog(ctx: Context) -> None:
    rnd = ctx.rng("catalog")
    catalog = Catalog()
    created = secs(vocab.ORG_START + dt.timedelta(days=1))
    ctx.stage("raw_catalog", {"n": ("INTEGER", [1])})
    ctx.write(
        "ProductCatalog",
        f'SELECT {ctx.sql_id("ProductCatalog", "n")} AS "Id", \'{vocab.COMPANY} Catalog\' AS "Name", '
        f"{audit_sql(ts(str(created)), owner=True)} FROM raw_catalog",
    )
    n_categories = ctx.count("ProductCategory")
    cats = [catalog_words.CATEGORIES[i % len(catalog_words.CATEGORIES)] for i in range(n_categories)]
    ctx.stage(
        "raw_category",
        {
            "n": ("INTEGER", list(range(1, n_categories + 1))),
            "name": (
                "VARCHAR",
                [
                    c.name if i < len(catalog_words.CATEGORIES) else f"{c.name} {i + 1}"
                    for i, c in enumerate(cats)
                ],
            ),
            "description": ("VARCHAR", [f"{c.name}: {', '.join(i.noun for i in c.items)}." for c in cats]),
        },
    )
    ctx.write(
        "ProductCategory",
        f'SELECT {ctx.sql_id("ProductCategory", "n")} AS "Id", name AS "Name", description AS "Description", '
        f'{ctx.sql_id("ProductCatalog", "1")} AS "CatalogId", true AS "IsNavigational", n AS "SortOrder", '
        f"{audit_sql(ts(str(created)))} FROM raw_category ORDER BY n",
    )
    _write_products(ctx, rnd, catalog, created, n_categories)
    _write_pricebooks(ctx, rnd, catalog)
    ctx.plan["catalog"] = catalog


def _write_products(ctx: Context, rnd, catalog: Catalog, created: int, n_categories: int) -> None:
    n = ctx.count("Product2")
    rows: dict[str, list] = {k: [] for k in ("n", "name", "description", "code", "ext", "price", "active")}
    for i, (c, name, family, item) in enumerate(_product_names(rnd, n)):
        cat = catalog_words.CATEGORIES[c]
        price = round(rnd.uniform(*item.price)) - 0.01
        description = f"The {name} features {rnd.choice(cat.features)}. {rnd.choice(catalog_words.MATERIALS)}"
        rows["n"].append(i + 1)
        rows["name"].append(name)
        rows["description"].append(description)
        rows["code"].append(f"SC-{c + 1:02d}-{i + 1:06d}")
        rows["ext"].append(f"{cat.name}_{i + 1}")
        rows["price"].append(price)
        rows["active"].append(rnd.random() < 0.96)
        catalog.names.append(name)
        catalog.category.append(c % n_categories)
        catalog.family.append(family)
        catalog.list_price.append(price)
        catalog.ids.append(ctx.record_id("Product2", i + 1))
    ctx.stage(
        "raw_product",
        {
            "n": ("BIGINT", rows["n"]),
            "name": ("VARCHAR", rows["name"]),
            "description": ("VARCHAR", rows["description"]),
            "code": ("VARCHAR", rows["code"]),
            "ext": ("VARCHAR", rows["ext"]),
            "price": ("DECIMAL(18,2)", rows["price"]),
            "active": ("BOOLEAN", rows["active"]),
        },
    )
    ctx.write(
        "Product2",
        f'SELECT {ctx.sql_id("Product2", "n")} AS "Id", name AS "Name", code AS "ProductCode", '
        'description AS "Description", active AS "IsActive", '
        f'{audit_sql(ts(str(created)))}, \'Each\' AS "QuantityUnitOfMeasure", code AS "StockKeepingUnit", '
        'ext AS "External_ID__c" FROM raw_product ORDER BY n',
    )
    # Every product in its primary category; some also in a second one.
    n_links = max(ctx.count("ProductCategoryProduct"), n)
    extra = sorted(rnd.sample(range(n), min(n_links - n, n)))
    links = [(p, catalog.category[p], True) for p in range(n)]
    for p in extra:
        second = (catalog.category[p] + rnd.randint(1, n_categories - 1)) % n_categories
        links.append((p, second, False))
    links.sort(key=lambda link: (link[0], not link[2]))
    ctx.stage(
        "raw_category_product",
        {
            "n": ("BIGINT", list(range(1, len(links) + 1))),
            "prod": ("BIGINT", [p + 1 for p, _, _ in links]),
            "cat": ("BIGINT", [c + 1 for _, c, _ in links]),
            "is_primary": ("BOOLEAN", [primary for _, _, primary in links]),
        },
    )
    ctx.write(
        "ProductCategoryProduct",
        f'SELECT {ctx.sql_id("ProductCategoryProduct", "n")} AS "Id", {autonumber("n", 8)} AS "Name", '
        f'{audit_sql(ts(str(created)))}, {ctx.sql_id("ProductCategory", "cat")} AS "ProductCategoryId", '
        f'{ctx.sql_id("Product2", "prod")} AS "ProductId", is_primary AS "IsPrimaryCategory", '
        f'{ctx.sql_id("ProductCatalog", "1")} AS "CatalogId" FROM raw_category_product ORDER BY n',
    )
    hot = max(3, round(n * 0.08))
    catalog.profiles = latent.draw_product_profiles(
        ctx.rng("product-profiles"), n, len(ctx.plan["issues"]), hot
    )


EVERGREEN = (
    ("Online Store", "Everyday prices for orders placed on our website and app."),
    ("Retail Stores", "Shelf prices in Shoes & Clothings stores."),
    ("Loyalty Members", "Member pricing for Shoes & Clothings Rewards members."),
    ("Outlet", "Prices in outlet stores and the online outlet."),
    ("Team Sales", "Discounted pricing for schools, clubs and teams."),
    ("Employee Pricing", "Staff discount prices."),
    ("Wholesale Partners", "Prices for authorized resellers."),
)
SEASONS = (
    ("Winter Clearance", (1, 1), (2, 28), 0.7),
    ("Spring Sale", (3, 1), (4, 30), 0.85),
    ("Memorial Day Sale", (5, 20), (5, 31), 0.8),
    ("Summer Sale", (6, 1), (8, 15), 0.85),
    ("Back to School", (8, 1), (9, 15), 0.9),
    ("Fall Collection", (9, 16), (11, 20), 0.95),
    ("Black Friday", (11, 21), (11, 30), 0.7),
    ("Holiday Gifts", (12, 1), (12, 31), 0.85),
)


def _write_pricebooks(ctx: Context, rnd, catalog: Catalog) -> None:
    specs = [(name, desc, None, None, round(rnd.uniform(0.85, 1.0), 2)) for name, desc in EVERGREEN]
    for year in range(2020, 2025):
        for name, start, end, factor in SEASONS:
            valid_from = dt.datetime(year, *start)
            valid_to = dt.datetime(year, *end, 23, 59, 59)
            specs.append(
                (
                    f"{name} {year}",
                    f"{name} prices, {valid_from:%b %d} to {valid_to:%b %d, %Y}.",
                    valid_from,
                    valid_to,
                    factor,
                )
            )
    n = ctx.count("Pricebook2")
    specs = [
        specs[i % len(specs)]
        if i < len(specs)
        else (f"{specs[i % len(specs)][0]} ({i})", *specs[i % len(specs)][1:])
        for i in range(n)
    ]
    n_products = len(catalog)
    custom_total = max(ctx.count("PricebookEntry") - n_products, 0)
    quotas = [custom_total // n + (1 if k < custom_total % n else 0) for k in range(n)] if n else []
    excluded_rows = ([], [])
    for k, (name, _desc, valid_from, valid_to, _factor) in enumerate(specs):
        number = STANDARD_PRICEBOOK_N + 1 + k
        quota = min(quotas[k], n_products)
        missing = set(rnd.sample(range(n_products), n_products - quota))
        catalog.excluded[number] = missing
        catalog.pricebooks.append({"n": number, "name": name, "valid_from": valid_from, "valid_to": valid_to})
        for p in sorted(missing):
            excluded_rows[0].append(number)
            excluded_rows[1].append(p + 1)
    created = secs(vocab.ORG_START + dt.timedelta(days=2))
    ctx.stage(
        "raw_pricebook",
        {
            "n": ("BIGINT", [STANDARD_PRICEBOOK_N + 1 + k for k in range(n)]),
            "name": ("VARCHAR", [s[0] for s in specs]),
            "description": ("VARCHAR", [s[1] for s in specs]),
            "valid_from": ("TIMESTAMP", [s[2] for s in specs]),
            "valid_to": ("TIMESTAMP", [s[3] for s in specs]),
            "factor": ("DOUBLE", [s[4] for s in specs]),
        },
    )
    ctx.stage("raw_pbe_excluded", {"pb": ("BIGINT", excluded_rows[0]), "prod": ("BIGINT", excluded_rows[1])})
    ctx.write(
        "Pricebook2",
        f'SELECT {ctx.sql_id("Pricebook2", "n")} AS "Id", name AS "Name", {audit_sql(ts(str(created)))}, '
        'true AS "IsActive", description AS "Description", false AS "IsStandard", '
        'valid_from AS "ValidFrom", valid_to AS "ValidTo" FROM raw_pricebook ORDER BY n',
    )
    ctx.writer.con.execute(
        f"""CREATE TABLE raw_pbe AS
        WITH pairs AS (
            SELECT {STANDARD_PRICEBOOK_N}::BIGINT AS pb, p.n AS prod, p.price AS price FROM raw_product p
            UNION ALL
            SELECT b.n, p.n, floor(p.price * b.factor) + 0.99
            FROM raw_pricebook b CROSS JOIN raw_product p
            WHERE NOT EXISTS (SELECT 1 FROM raw_pbe_excluded x WHERE x.pb = b.n AND x.prod = p.n)
        )
        SELECT row_number() OVER (ORDER BY pb, prod) AS n, pb, prod, price FROM pairs ORDER BY n"""
    )
    # A plain projection of raw_pbe keeps its (numbered) order; the names come from a small lookup.
    ctx.write(
        "PricebookEntry",
        f'SELECT {ctx.sql_id("PricebookEntry", "e.n")} AS "Id", p.name AS "Name", '
        f'{ctx.sql_id("Pricebook2", "e.pb")} AS "Pricebook2Id", {ctx.sql_id("Product2", "e.prod")} AS "Product2Id", '
        'e.price AS "UnitPrice", true AS "IsActive", false AS "UseStandardPrice", '
        f'{audit_sql(ts(str(created)))}, p.code AS "ProductCode", false AS "IsArchived" '
        "FROM raw_pbe e JOIN raw_product p ON p.n = e.prod ORDER BY e.n",
    )
