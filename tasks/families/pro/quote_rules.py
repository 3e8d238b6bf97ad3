"""The four quote articles, read from the org, and which of them a quote breaks.

quote_approval and invalid_config ask whether a quote keeps to company policy, each about its
own articles:

- "Quote Approval Policy": every line's Discount at most the stated percentage, and the
  ExpirationDate at most the stated number of days after the day the quote was created;
- "Product Quantity Limits": a line's Quantity at most its product's stated limit;
- "Bundle Requirements": an add-on only with the product it extends on the same quote (B2B:
  ``- Add-on requires Base``), a care plan only with a vehicle (B2C: the article lists the care
  plans; a vehicle is a product whose primary category is none of theirs);
- "Price Integrity Rule": every line's UnitPrice equal to its price book entry's UnitPrice.

The rules are parsed from the articles' own text (:func:`read_rules`), so the thresholds an agent
reads are the ones the gold answers use. :func:`broken` names the articles a quote breaks.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal

APPROVAL = "Quote Approval Policy"
QUANTITY = "Product Quantity Limits"
BUNDLE = "Bundle Requirements"
PRICE = "Price Integrity Rule"
CONFIG = (QUANTITY, BUNDLE, PRICE)


@dataclass
class QuoteRules:
    discount_limit: Decimal
    validity_days: int
    quantity_limits: dict[str, Decimal]
    """Product name -> most units per line."""
    requires: dict[str, str] = field(default_factory=dict)
    """Add-on name -> the product it needs (B2B)."""
    care_plans: set[str] = field(default_factory=set)
    """Products that need a vehicle on the same quote (B2C)."""


def read_rules(articles: dict[str, str]) -> QuoteRules:
    """The rules of the four articles, from their texts (title -> text)."""
    approval = articles[APPROVAL]
    discount = re.search(r"Discount is at most ([\d.]+)%", approval)
    days = re.search(r"at most (\d+) days after", approval)
    if not discount or not days:
        raise LookupError("the quote approval article states no discount limit or validity period")
    limits = {
        m[1].strip(): Decimal(m[2])
        for m in re.finditer(r"^- (.+?): at most (\d+) per quote line$", articles[QUANTITY], re.M)
    }
    bundle = articles[BUNDLE]
    requires = {m[1].strip(): m[2].strip() for m in re.finditer(r"^- (.+?) requires (.+)$", bundle, re.M)}
    care_plans = set()
    if "with a vehicle" in bundle:
        care_plans = {m[1].strip() for m in re.finditer(r"^- (.+)$", bundle, re.M)}
    return QuoteRules(Decimal(discount[1]), int(days[1]), limits, requires, care_plans)


@dataclass(frozen=True)
class Line:
    product: str
    """Product2 Id."""
    name: str
    quantity: Decimal
    unit_price: Decimal
    discount: Decimal
    list_price: Decimal | None


def broken(
    rules: QuoteRules,
    created: dt.datetime,
    expires: dt.date | None,
    lines: list[Line],
    category: dict[str, str],
) -> set[str]:
    """The titles of the articles a quote breaks (``category``: product name -> primary category name)."""
    out = set()
    if any(line.discount > rules.discount_limit for line in lines) or (
        expires is not None and (expires - created.date()).days > rules.validity_days
    ):
        out.add(APPROVAL)
    if any(line.quantity > rules.quantity_limits.get(line.name, line.quantity) for line in lines):
        out.add(QUANTITY)
    names = {line.name for line in lines}
    if any(line.name in rules.requires and rules.requires[line.name] not in names for line in lines):
        out.add(BUNDLE)
    if rules.care_plans and any(line.name in rules.care_plans for line in lines):
        plan_categories = {category.get(name) for name in rules.care_plans}
        if not any(category.get(line.name) not in plan_categories for line in lines):
            out.add(BUNDLE)
    if any(line.list_price is None or line.unit_price != line.list_price for line in lines):
        out.add(PRICE)
    return out
