"""Quotes and their lines, with planted approval and configuration violations.

Deals past discovery carry quotes (a won deal's last quote is 'Accepted', earlier ones
'Denied'; an open deal's last quote is in draft, review or presented); a deal may hold a second
quote. Each quote's lines repeat the deal's line items, and the totals are the profile's.

Two planted groups, disjoint, each against its own knowledge articles (:mod:`.knowledge`):

- ``quote_violations`` (quote-approval task): a line discount above the approval article's
  limit, or an expiration date later than its validity period after the quote's creation, or
  both; every other quote keeps within them;
- ``invalid_configurations`` (invalid-config task), one rule each: a line's quantity above the
  product's limit (the quantity article), an add-on without the product it extends on the same
  quote (the bundle article), or a line whose UnitPrice is not the product's list price (the
  price-integrity article: reductions go in Discount).

Every other quote breaks none of the four articles (``clean_quotes``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from crmarena_sf.loaders.generate.context import Context
from crmarena_sf.loaders.generate.rng import Weighted
from crmarena_sf.loaders.pro.catalog import Catalog
from crmarena_sf.loaders.pro.deals import Deals
from crmarena_sf.loaders.pro.domain import Domain
from crmarena_sf.loaders.pro.records import DATA_NOW, audit, autonumber, emit

APPROVAL_PER_SCALE = 105
CONFIG_PER_RULE = 40
CONFIG_RULES = ("quantity", "bundle", "price")


@dataclass
class QuoteLine:
    product: int
    quantity: int
    price: Decimal
    discount: Decimal
    deal_line: int | None
    """Index of the deal's line item it repeats (None: a product the deal does not hold)."""


@dataclass
class Quotes:
    deal: list[int] = field(default_factory=list)
    created: list[dt.datetime] = field(default_factory=list)
    expires: list[dt.date] = field(default_factory=list)
    status: list[str] = field(default_factory=list)
    lines: list[list[QuoteLine]] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    line_ids: list[list[str]] = field(default_factory=list)
    approval: dict[int, dict] = field(default_factory=dict)
    """Quote -> {rules: [...], line: line index or None}."""
    config: dict[int, dict] = field(default_factory=dict)
    """Quote -> {rule, line}."""

    def __len__(self) -> int:
        return len(self.deal)


def plan_quotes(ctx: Context) -> None:
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-quotes")
    deals: Deals = ctx.plan["deals"]
    catalog: Catalog = ctx.plan["catalog"]
    n_quotes = ctx.count("Quote")
    eligible = [k for k in range(len(deals)) if deals.true_stage[k] in ("Quote", "Negotiation", "Closed")]
    if len(eligible) < n_quotes:
        eligible += [k for k in range(len(deals)) if deals.true_stage[k] == "Discovery"][
            : n_quotes - len(eligible)
        ]
    per_deal = {k: 1 for k in eligible[:n_quotes]}
    extra = Weighted(list(per_deal), [1.0] * len(per_deal))
    while sum(per_deal.values()) < n_quotes:
        k = extra.pick(rnd)
        if per_deal[k] < 3:
            per_deal[k] += 1
    quotes = Quotes()
    planned = []
    for k, count in per_deal.items():
        start = deals.created[k]
        end = deals.signed[k] or min(DATA_NOW - dt.timedelta(days=2), start + dt.timedelta(days=200))
        span = max(int((end - start).total_seconds()), 3600 * count)
        moments = sorted(start + dt.timedelta(seconds=rnd.randrange(span // 2, span)) for _ in range(count))
        for i, when in enumerate(moments):
            last = i == count - 1
            planned.append((when, k, _status(rnd, deals.true_stage[k], last)))
    planned.sort(key=lambda q: (q[0], q[1]))
    for when, k, status in planned:
        quotes.deal.append(k)
        quotes.created.append(when)
        quotes.status.append(status)
        quotes.expires.append(
            (when + dt.timedelta(days=domain.quote_validity_days - rnd.randint(0, 10))).date()
        )
    quotes.ids = [ctx.record_id("Quote", q + 1) for q in range(len(quotes.deal))]
    _lines(ctx, rnd, quotes, deals, catalog)
    _plant(ctx, rnd, quotes, domain, catalog)
    number = 0
    for q in range(len(quotes)):
        ids = []
        for _ in quotes.lines[q]:
            number += 1
            ids.append(ctx.record_id("QuoteLineItem", number))
        quotes.line_ids.append(ids)
    ctx.plan["quotes"] = quotes


def _status(rnd, stage: str, last: bool) -> str:
    if stage == "Closed":
        return "Accepted" if last else "Denied"
    if not last:
        return rnd.choice(("Rejected", "Denied"))
    if stage == "Negotiation":
        return rnd.choice(("Presented", "Approved", "In Review"))
    return rnd.choice(("Draft", "Needs Review", "In Review", "Presented"))


def _lines(ctx: Context, rnd, quotes: Quotes, deals: Deals, catalog: Catalog) -> None:
    """Each quote repeats its deal's lines, trimmed (or, short of the total, topped up) to the profile's count."""
    domain: Domain = ctx.plan["domain"]
    sizes = [len(deals.lines[k]) for k in quotes.deal]
    target = ctx.count("QuoteLineItem")
    total = sum(sizes)
    while total > target:
        q = rnd.randrange(len(sizes))
        if sizes[q] > 1:
            sizes[q] -= 1
            total -= 1
    extras = [0] * len(sizes)
    while total < target:
        q = rnd.randrange(len(sizes))
        if extras[q] < 2:
            extras[q] += 1
            total += 1
    for q, k in enumerate(quotes.deal):
        kept = sorted(rnd.sample(range(len(deals.lines[k])), sizes[q]))
        # Keep an add-on's base tool whenever the add-on stays (dropping it would plant a violation).
        held = {deals.lines[k][i][0] for i in kept}
        for i in list(kept):
            p = deals.lines[k][i][0]
            base = domain.products[p].base
            if domain.products[p].kind == "addon" and not _has_base(domain, held, base):
                kept.remove(i)
                held.discard(p)
        lines = [
            QuoteLine(
                deals.lines[k][i][0], deals.lines[k][i][1], catalog.price(deals.lines[k][i][0]), Decimal(0), i
            )
            for i in kept
        ]
        missing = sizes[q] - len(lines) + extras[q]
        for p in rnd.sample(catalog.sellable, len(catalog.sellable)):
            if missing <= 0:
                break
            product = domain.products[p]
            if (
                p in held
                or product.kind == "addon"
                or (not domain.business_accounts and product.category < 4)
            ):
                continue
            lines.append(QuoteLine(p, 1, catalog.price(p), Decimal(0), None))
            held.add(p)
            missing -= 1
        for line in lines:
            line.discount = _clean_discount(rnd, domain)
        quotes.lines.append(lines)


def _has_base(domain: Domain, held: set[int], base: str | None) -> bool:
    if base == "vehicle":
        return any(domain.products[p].category < 4 for p in held)
    return base is not None and any(domain.products[p].name == base for p in held)


def _clean_discount(rnd, domain: Domain) -> Decimal:
    limit = domain.discount_limit
    if rnd.random() < 0.55:
        return Decimal(0)
    steps = [d for d in (2.5, 5, 7.5, 10, 12.5, 15, 17.5, 20) if d <= limit]
    return Decimal(str(rnd.choice(steps)))


def _plant(ctx: Context, rnd, quotes: Quotes, domain: Domain, catalog: Catalog) -> None:
    scale = ctx.sizing.scale
    order = list(range(len(quotes)))
    rnd.shuffle(order)
    taken: set[int] = set()
    for rule in CONFIG_RULES:
        want = max(1, round(CONFIG_PER_RULE * scale))
        for q in order:
            if want == 0:
                break
            if q in taken:
                continue
            line = _plant_config(rnd, quotes, q, rule, domain, catalog)
            if line is not None:
                quotes.config[q] = {"rule": rule, "line": line}
                taken.add(q)
                want -= 1
    want = max(1, round(APPROVAL_PER_SCALE * scale))
    for q in order:
        if want == 0:
            break
        if q in taken:
            continue
        rules = rnd.choice((["discount"], ["discount"], ["validity"], ["discount", "validity"]))
        line = None
        if "discount" in rules:
            line = rnd.randrange(len(quotes.lines[q]))
            over = Decimal(str(round(domain.discount_limit + rnd.uniform(3, 15), 1)))
            quotes.lines[q][line].discount = over
        if "validity" in rules:
            days = domain.quote_validity_days + rnd.randint(10, 60)
            quotes.expires[q] = (quotes.created[q] + dt.timedelta(days=days)).date()
        quotes.approval[q] = {"rules": rules, "line": line}
        taken.add(q)
        want -= 1


def _plant_config(rnd, quotes: Quotes, q: int, rule: str, domain: Domain, catalog: Catalog) -> int | None:
    lines = quotes.lines[q]
    products = domain.products
    if rule == "quantity":
        i = rnd.randrange(len(lines))
        product = products[lines[i].product]
        lines[i].quantity = product.max_quantity + (1 if product.max_quantity == 1 else rnd.randint(3, 30))
        return i
    if rule == "price":
        i = rnd.randrange(len(lines))
        list_price = catalog.price(lines[i].product)
        lines[i].price = (list_price * Decimal(str(round(rnd.uniform(0.7, 0.92), 2)))).quantize(
            Decimal("0.01")
        )
        lines[i].discount = Decimal(0)
        return i
    # bundle: an add-on stays, the product it extends is swapped for one it does not extend
    held = {line.product for line in lines}
    for i, line in enumerate(lines):
        product = products[line.product]
        if product.kind != "addon":
            continue
        bases = [j for j, other in enumerate(lines) if _extends(domain, product, other.product)]
        if len(bases) != 1:
            continue
        j = bases[0]
        replacements = [
            p
            for p in catalog.sellable
            if p not in held
            and products[p].kind != "addon"
            and not _extends(domain, product, p)
            and (domain.business_accounts or products[p].category == 4)
        ]
        if not replacements:
            return None
        p = rnd.choice(replacements)
        lines[j] = QuoteLine(
            p, min(lines[j].quantity, products[p].max_quantity), catalog.price(p), lines[j].discount, None
        )
        return i
    return None


def _extends(domain: Domain, addon, p: int) -> bool:
    """True when product ``p`` is what ``addon`` needs on the quote."""
    if addon.base == "vehicle":
        return domain.products[p].category < 4
    return domain.products[p].name == addon.base


def write_quotes(ctx: Context) -> None:
    domain: Domain = ctx.plan["domain"]
    quotes: Quotes = ctx.plan["quotes"]
    deals: Deals = ctx.plan["deals"]
    catalog: Catalog = ctx.plan["catalog"]
    staff = ctx.plan["staff"]
    accounts = ctx.plan["accounts"]
    people = ctx.plan["people"]
    rows, line_rows = [], []
    line_number = 0
    for q in range(len(quotes)):
        k = quotes.deal[q]
        owner = staff.rep_id(deals.owner[k])
        subtotal, total, list_total = Decimal(0), Decimal(0), Decimal(0)
        for i, (line, line_id) in enumerate(zip(quotes.lines[q], quotes.line_ids[q])):
            line_number += 1
            gross = line.price * line.quantity
            net = (gross * (100 - line.discount) / 100).quantize(Decimal("0.01"))
            subtotal += gross
            total += net
            list_total += catalog.price(line.product) * line.quantity
            line_rows.append(
                {
                    "Id": line_id,
                    "LineNumber": autonumber("QuoteLineItem", "LineNumber", line_number),
                    "QuoteId": quotes.ids[q],
                    "PricebookEntryId": catalog.entry_ids[line.product],
                    "Quantity": Decimal(line.quantity),
                    "UnitPrice": line.price,
                    "Discount": line.discount,
                    "Product2Id": catalog.ids[line.product],
                    "OpportunityLineItemId": deals.line_ids[k][line.deal_line]
                    if line.deal_line is not None
                    else None,
                    "SortOrder": i + 1,
                    "ListPrice": catalog.price(line.product),
                    "Subtotal": gross,
                    "TotalPrice": net,
                    **audit(ctx, quotes.created[q], by=owner),
                }
            )
        contact = deals.contact[k]
        rows.append(
            {
                "Id": quotes.ids[q],
                "OwnerId": owner,
                "Name": f"{deals.names[k]} - Quote {q + 1}"[:255],
                **audit(ctx, quotes.created[q], by=owner),
                "OpportunityId": deals.ids[k],
                "Pricebook2Id": catalog.pricebook_id,
                "ContactId": people.ids[contact],
                "QuoteNumber": autonumber("Quote", "QuoteNumber", q + 1),
                "IsSyncing": False,
                "Status": quotes.status[q],
                "ExpirationDate": quotes.expires[q],
                "Description": f"Quote for the {domain.deal_noun} of {accounts.names[deals.account[k]] or people.name(contact)}.",
                "Subtotal": subtotal,
                "TotalPrice": total,
                "LineItemCount": len(quotes.lines[q]),
                "Email": people.email[contact],
                "AccountId": accounts.ids[deals.account[k]],
                "Discount": ((subtotal - total) / subtotal * 100).quantize(Decimal("0.01"))
                if subtotal
                else Decimal(0),
                "GrandTotal": total,
                "CanCreateQuoteLineItems": True,
            }
        )
    emit(ctx, "Quote", rows)
    emit(ctx, "QuoteLineItem", line_rows)
