"""What quote_approval and invalid_config share: a quote read by SOQL and judged by the four quote articles.

:func:`read_quote` reads the articles (one SOQL query by title), the quote, its lines with their
price book entry's price and, on an org whose bundle article speaks of vehicles, the products'
primary categories; :func:`crmarena_sf.tasks.families.pro.quote_rules.broken` judges it. The
candidate search reads the same objects once for all quotes (:mod:`crmarena_sf.tasks.pro.sales_facts`).
"""

from __future__ import annotations

from crmarena_sf.tasks.families.pro.quote_rules import APPROVAL, CONFIG, Line, broken, read_rules
from crmarena_sf.tasks.org_client import OrgClient, quote, quote_list
from crmarena_sf.tasks.periods import parse_iso
from crmarena_sf.tasks.pro.sales_facts import day, decimal
from crmarena_sf.tasks.pro.texts import article_text

TITLES = (APPROVAL, *CONFIG)


def read_quote(client: OrgClient, quote_id: str) -> tuple[set[str], dict[str, str]]:
    """(titles of the articles the quote breaks, article title -> Id)."""
    rows = client.query(
        f"SELECT Id, Title, FAQ_Answer__c FROM Knowledge__kav WHERE Title IN {quote_list(TITLES)} "
        "AND PublishStatus = 'Online' AND Language = 'en_US'"
    )
    ids = {r["Title"]: r["Id"] for r in rows}
    rules = read_rules({r["Title"]: article_text(r["FAQ_Answer__c"]) for r in rows})
    head = client.query(f"SELECT CreatedDate, ExpirationDate FROM Quote WHERE Id = {quote(quote_id)}")[0]
    lines = [
        Line(
            r["Product2Id"],
            (r.get("Product2") or {}).get("Name") or "",
            decimal(r["Quantity"]),
            decimal(r["UnitPrice"]),
            decimal(r["Discount"]),
            decimal((r.get("PricebookEntry") or {}).get("UnitPrice"))
            if (r.get("PricebookEntry") or {}).get("UnitPrice") is not None
            else None,
        )
        for r in client.query(
            "SELECT Product2Id, Product2.Name, Quantity, UnitPrice, Discount, PricebookEntry.UnitPrice "
            f"FROM QuoteLineItem WHERE QuoteId = {quote(quote_id)}"
        )
    ]
    category: dict[str, str] = {}
    if rules.care_plans:
        category = {
            (r.get("Product") or {}).get("Name"): (r.get("ProductCategory") or {}).get("Name")
            for r in client.query(
                "SELECT Product.Name, ProductCategory.Name FROM ProductCategoryProduct WHERE IsPrimaryCategory = true"
            )
        }
    found = broken(rules, parse_iso(head["CreatedDate"]), day(head["ExpirationDate"]), lines, category)
    return found, ids


def all_quotes(sales) -> dict[str, set[str]]:
    """Quote Id -> the titles of the articles it breaks, for every quote (the candidate search)."""
    rules = read_rules({title: sales.article(title).text for title in TITLES})
    names = {p: r["Name"] for p, r in sales.products.items()}
    category = {names[p]: c for p, c in sales.primary_category.items() if p in names}
    out = {}
    for quote_id, head in sorted(sales.quotes.items()):
        lines = [
            Line(x.product, x.product_name, x.quantity, x.unit_price, x.discount, x.list_price)
            for x in sales.quote_lines.get(quote_id, [])
        ]
        if lines:
            out[quote_id] = broken(rules, head["created"], head["expires"], lines, category)
    return out


def article_ids(sales) -> dict[str, str]:
    return {title: sales.article(title).id for title in TITLES}
