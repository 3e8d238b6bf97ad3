"""Opportunities and what a won deal leaves behind: line items, contracts, orders and order items.

Every converted lead opens an opportunity at its conversion; the others are deals with the
accounts (B2C: repeat purchases by the same consumers, in the official proportions). Which deals
close follows the owner's latent ``rep_win_weight``; a closed deal is signed
``rep_cycle_days`` (times noise) after its creation (sales-cycle task), has a contract
(``Opportunity.ContractID__c``; its ``CompanySignedDate`` is the signing day) and an order whose
items repeat the deal's products and quantities (sales-amount task: Quantity x UnitPrice of the
order's items, for deals whose contract was signed in the period). Quantities scale with the
owner's ``rep_deal_size``.

``Closed`` is the one closed stage and always a won deal; open deals sit in the four earlier
stages. Two planted groups serve the stage tasks, and are disjoint:

- ``wrong_stage``: a deal whose StageName contradicts its tasks (wrong-stage-rectification):
  its true stage (what its tasks show, :mod:`.activities`) is Closed for about four in ten,
  then Negotiation, Quote and Discovery; its StageName is another, earlier stage than Closed;
- ``off_stage``: a deal with the right StageName whose 'Not Started' tasks include some that
  belong to other stages (activity-priority).

Every other deal is ``clean``: its StageName is its true stage and its open tasks fit it.
Counts are exact: line items, order items and quote lines are allotted so the totals are the
profile's.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from decimal import Decimal

from crmarena_sf.loaders.generate.context import Context
from crmarena_sf.loaders.generate.rng import Weighted
from crmarena_sf.loaders.pro import latent
from crmarena_sf.loaders.pro.catalog import Catalog
from crmarena_sf.loaders.pro.domain import STAGES, Domain
from crmarena_sf.loaders.pro.records import DATA_NOW, FIRST_DAY, LAST_DAY, audit, autonumber, emit
from crmarena_sf.metadata.crmarena_pro import PRO_STAGES

OPEN_STAGE_WEIGHTS = {"Qualification": 0.3, "Discovery": 0.26, "Quote": 0.24, "Negotiation": 0.2}
WRONG_TRUE_STAGES = {"Closed": 0.42, "Negotiation": 0.28, "Quote": 0.2, "Discovery": 0.1}
PLANTED_PER_SCALE = 110
"""Mis-staged deals, and deals with off-stage tasks, per unit of scale (each task needs 80 positives)."""
PROBABILITY = {stage: p for stage, p, _ in PRO_STAGES}


@dataclass
class Deals:
    account: list[int] = field(default_factory=list)
    contact: list[int] = field(default_factory=list)
    owner: list[int] = field(default_factory=list)
    created: list[dt.datetime] = field(default_factory=list)
    source: list[str | None] = field(default_factory=list)
    lead: list[int | None] = field(default_factory=list)
    true_stage: list[str] = field(default_factory=list)
    stage: list[str] = field(default_factory=list)
    """StageName as recorded (differs from the true stage for ``wrong_stage`` deals)."""
    group: list[str] = field(default_factory=list)
    """``clean``, ``wrong_stage`` or ``off_stage``."""
    signed: list[dt.datetime | None] = field(default_factory=list)
    lines: list[list[tuple[int, int]]] = field(default_factory=list)
    """Per deal, its (product index, quantity) line items."""
    line_ids: list[list[str]] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    contract: dict[int, int] = field(default_factory=dict)
    """Deal -> contract number (closed deals)."""
    contract_start: dict[int, dt.date] = field(default_factory=dict)
    order_items: dict[int, list[int]] = field(default_factory=dict)
    """Closed deal -> indexes of its line items its order repeats."""
    order_item_ids: dict[int, list[str]] = field(default_factory=dict)
    last_activity: list[dt.datetime] = field(default_factory=list)
    """The latest moment of the deal's life (its signing, or the capture for open deals)."""

    def __len__(self) -> int:
        return len(self.account)

    def amount(self, k: int, catalog: Catalog) -> Decimal:
        return sum((catalog.price(p) * q for p, q in self.lines[k]), Decimal(0))


def plan_deals(ctx: Context) -> None:
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-deals")
    staff = ctx.plan["staff"]
    traits = staff.rep_traits
    leads = ctx.plan["leads"]
    accounts = ctx.plan["accounts"]
    people = ctx.plan["people"]
    n = ctx.count("Opportunity")
    deals = Deals()
    converted = [k for k in range(len(leads)) if leads.converted[k] is not None]
    pick_rep = Weighted(range(ctx.sizing.reps), traits.workload)
    account_weight = Weighted(
        range(len(accounts)), [rnd.lognormvariate(0, 0.7) for _ in range(len(accounts))]
    )
    for k in converted[:n]:
        deals.account.append(leads.account[k])
        deals.contact.append(leads.contact[k])
        deals.owner.append(leads.owner[k])
        deals.created.append(leads.converted[k])
        deals.source.append(leads.source[k])
        deals.lead.append(k)
        leads.opportunity[k] = len(deals.lead) - 1
    while len(deals.account) < n:
        a = account_weight.pick(rnd)
        if not accounts.contacts[a]:
            continue
        contact = rnd.choice(accounts.contacts[a])
        earliest = max(FIRST_DAY, people.created[contact] + dt.timedelta(days=1))
        span = int((LAST_DAY - dt.timedelta(days=2) - earliest).total_seconds())
        if span <= 0:
            continue
        deals.account.append(a)
        deals.contact.append(contact)
        owner = (
            accounts.owner_rep[a] if domain.business_accounts and rnd.random() < 0.5 else pick_rep.pick(rnd)
        )
        deals.owner.append(owner)
        deals.created.append(earliest + dt.timedelta(seconds=rnd.randrange(span)))
        deals.source.append(None)
        deals.lead.append(None)
    # Record numbers follow creation, as a real org's Ids do.
    order = sorted(range(n), key=lambda k: (deals.created[k], k))
    for name in ("account", "contact", "owner", "created", "source", "lead"):
        values = getattr(deals, name)
        setattr(deals, name, [values[k] for k in order])
    for k, lead in enumerate(deals.lead):
        if lead is not None:
            leads.opportunity[lead] = k
    deals.ids = [ctx.record_id("Opportunity", k + 1) for k in range(n)]
    _stages(ctx, rnd, deals, traits)
    _lines(ctx, rnd, deals, traits)
    deals.names = [
        f"{accounts.names[deals.account[k]] or people.name(deals.contact[k])} - {domain.products[deals.lines[k][0][0]].name}"
        for k in range(n)
    ]
    ctx.plan["deals"] = deals


def _stages(ctx: Context, rnd, deals: Deals, traits: latent.RepTraits) -> None:
    n = len(deals)
    n_closed = min(ctx.count("Contract"), n)
    cycle = [traits.cycle_days[deals.owner[k]] * latent.lognormal_noise(rnd, 0.25) for k in range(n)]
    candidates = [k for k in range(n) if deals.created[k] + dt.timedelta(days=cycle[k] + 2) < LAST_DAY]
    # Weighted sampling without replacement (Efraimidis-Spirakis keys): older deals and better reps close.
    keys = []
    for k in candidates:
        age = (LAST_DAY - deals.created[k]).days
        weight = traits.win_weight[deals.owner[k]] * min(1.0, age / 240)
        keys.append((rnd.random() ** (1 / max(weight, 1e-6)), k))
    closed = {k for _, k in sorted(keys, reverse=True)[:n_closed]}
    open_stage = Weighted(list(OPEN_STAGE_WEIGHTS), list(OPEN_STAGE_WEIGHTS.values()))
    for k in range(n):
        if k in closed:
            signed = deals.created[k] + dt.timedelta(days=cycle[k])
            signed = signed.replace(hour=rnd.randint(9, 17), minute=rnd.randrange(60))
            deals.true_stage.append("Closed")
            deals.signed.append(signed)
            deals.last_activity.append(signed)
        else:
            deals.true_stage.append(open_stage.pick(rnd))
            deals.signed.append(None)
            deals.last_activity.append(DATA_NOW - dt.timedelta(days=1))
    deals.stage = list(deals.true_stage)
    deals.group = ["clean"] * n
    planted = min(round(PLANTED_PER_SCALE * ctx.sizing.scale), n // 5)
    by_stage = {s: [k for k in range(n) if deals.true_stage[k] == s] for s in STAGES}
    for s in by_stage.values():
        rnd.shuffle(s)
    for stage, share in WRONG_TRUE_STAGES.items():
        for k in by_stage[stage][: round(planted * share)]:
            deals.group[k] = "wrong_stage"
            deals.stage[k] = rnd.choice([s for s in STAGES[:-1] if s != stage])
    rest = [k for k in range(n) if deals.group[k] == "clean"]
    for k in rnd.sample(rest, min(planted, len(rest))):
        deals.group[k] = "off_stage"


def _lines(ctx: Context, rnd, deals: Deals, traits: latent.RepTraits) -> None:
    """Line items: counts allotted to reach the profile's total exactly, products that fit each domain."""
    domain: Domain = ctx.plan["domain"]
    catalog: Catalog = ctx.plan["catalog"]
    n = len(deals)
    total = ctx.count("OpportunityLineItem")
    cap = 9 if domain.business_accounts else 7
    counts = [1] * n
    weights = [traits.deal_size[deals.owner[k]] * (1.3 if deals.signed[k] else 1.0) for k in range(n)]
    spread = Weighted(range(n), weights)
    remaining = total - n
    while remaining > 0:
        k = spread.pick(rnd)
        if counts[k] < cap:
            counts[k] += 1
            remaining -= 1
    # Every closed deal's order repeats some of its lines: the closed deals must hold enough of them.
    closed = [k for k in range(n) if deals.signed[k]]
    need = ctx.count("OrderItem")
    open_ = [k for k in range(n) if not deals.signed[k]]
    while closed and sum(counts[k] for k in closed) < need:
        donor = max(open_, key=lambda k: (counts[k], -k))
        taker = min(closed, key=lambda k: (counts[k], k))
        if counts[donor] <= 1 or counts[taker] >= cap:
            break
        counts[donor] -= 1
        counts[taker] += 1
    popularity = Weighted(catalog.sellable, [ctx.plan["product_popularity"][p] for p in catalog.sellable])
    products = domain.products
    for k in range(n):
        size = traits.deal_size[deals.owner[k]]
        chosen = _choose_products(rnd, domain, popularity, counts[k])
        deals.lines.append([(p, _quantity(rnd, products[p], size)) for p in chosen])
    # An add-on line takes its base tool's quantity (one add-on seat per tool seat).
    for k in range(n):
        by_name = {products[p].name: q for p, q in deals.lines[k]}
        deals.lines[k] = [
            (
                p,
                min(by_name.get(products[p].base, q), products[p].max_quantity)
                if products[p].kind == "addon" and products[p].base in by_name
                else q,
            )
            for p, q in deals.lines[k]
        ]
    number = 0
    for k in range(n):
        ids = []
        for _ in deals.lines[k]:
            number += 1
            ids.append(ctx.record_id("OpportunityLineItem", number))
        deals.line_ids.append(ids)


def _choose_products(rnd, domain: Domain, popularity: Weighted, count: int) -> list[int]:
    """``count`` distinct products a deal of this domain would hold, a core product first.

    B2B: a design tool first; an add-on only with its base tool. B2C: one vehicle first, then
    care plans and accessories (never a second vehicle on one deal).
    """
    products = domain.products
    core = [
        p
        for p in popularity.items
        if products[p].kind in (("seat",) if domain.business_accounts else ("unit",))
        and products[p].max_quantity >= 1
    ]
    if not domain.business_accounts:
        core = [p for p in core if products[p].category < 4]
    chosen = [rnd.choice(core)] if count else []
    tries = 0
    while len(chosen) < count and tries < 400:
        tries += 1
        p = popularity.pick(rnd)
        product = products[p]
        if p in chosen:
            continue
        if domain.business_accounts:
            if product.kind == "addon" and product.base not in {products[c].name for c in chosen}:
                base = domain.product_index(product.base)
                if len(chosen) + 2 <= count and base not in chosen:
                    chosen.append(base)
                else:
                    continue
        elif product.category < 4:
            continue  # one vehicle per deal
        chosen.append(p)
    if len(chosen) < count:
        for p in popularity.items:
            if len(chosen) >= count:
                break
            product = products[p]
            ok = (
                p not in chosen
                and (
                    product.kind != "addon"
                    or (domain.business_accounts and product.base in {products[c].name for c in chosen})
                    or not domain.business_accounts
                )
                and (domain.business_accounts or product.category == 4)
            )
            if ok:
                chosen.append(p)
    return chosen[:count]


def _quantity(rnd, product, size: float) -> int:
    if product.kind == "service":
        return max(1, min(product.max_quantity, round(rnd.uniform(1, 6))))
    if product.max_quantity == 1:
        return 1
    if product.kind == "unit":
        return max(1, min(product.max_quantity, round(rnd.uniform(1, 2.5) * size)))
    quantity = round(math.exp(rnd.gauss(math.log(6), 0.6)) * size)
    return max(1, min(product.max_quantity, quantity))


def write_deals(ctx: Context) -> None:
    """Opportunity, OpportunityLineItem, Contract, Order and OrderItem."""
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-deal-rows")
    deals: Deals = ctx.plan["deals"]
    catalog: Catalog = ctx.plan["catalog"]
    staff = ctx.plan["staff"]
    accounts = ctx.plan["accounts"]
    people = ctx.plan["people"]
    traits = staff.rep_traits
    n = len(deals)
    closed = [k for k in range(n) if deals.signed[k]]
    contract_ids = {}
    for number, k in enumerate(sorted(closed, key=lambda k: (deals.signed[k], k)), start=1):
        deals.contract[k] = number
        contract_ids[k] = ctx.record_id("Contract", number)
    rows, line_rows = [], []
    for k in range(n):
        owner = staff.rep_id(deals.owner[k])
        amount = deals.amount(k, catalog)
        stage = deals.stage[k]
        signed = deals.signed[k]
        if signed:
            close_date = signed.date()
        else:
            expected = deals.created[k] + dt.timedelta(days=traits.cycle_days[deals.owner[k]])
            close_date = max(expected, DATA_NOW + dt.timedelta(days=rnd.randint(14, 120))).date()
        probability = PROBABILITY[stage]
        quarter = (close_date.month - 1) // 3 + 1
        rows.append(
            {
                "Id": deals.ids[k],
                "AccountId": accounts.ids[deals.account[k]],
                "Name": deals.names[k],
                "Description": f"{domain.deal_noun.capitalize()} for {accounts.names[deals.account[k]] or people.name(deals.contact[k])}.",
                "StageName": stage,
                "Amount": amount,
                "Probability": probability,
                "ExpectedRevenue": amount * probability / 100,
                "CloseDate": close_date,
                "Type": "New Customer" if deals.lead[k] is not None else "Existing Customer - Upgrade",
                "LeadSource": deals.source[k],
                "IsClosed": stage == "Closed",
                "IsWon": stage == "Closed",
                "ForecastCategory": "Closed" if stage == "Closed" else "Pipeline",
                "ForecastCategoryName": "Closed" if stage == "Closed" else "Pipeline",
                "HasOpportunityLineItem": True,
                "Pricebook2Id": catalog.pricebook_id,
                "OwnerId": owner,
                **audit(ctx, deals.created[k], deals.last_activity[k] if signed else deals.created[k], owner),
                "FiscalQuarter": quarter,
                "FiscalYear": close_date.year,
                "Fiscal": f"{close_date.year} {quarter}",
                "ContactId": people.ids[deals.contact[k]],
                "HasOpenActivity": False,
                "HasOverdueTask": False,
                "ContractID__c": contract_ids.get(k),
            }
        )
        for i, ((p, q), line_id) in enumerate(zip(deals.lines[k], deals.line_ids[k])):
            price = catalog.price(p)
            line_rows.append(
                {
                    "Id": line_id,
                    "OpportunityId": deals.ids[k],
                    "SortOrder": i + 1,
                    "PricebookEntryId": catalog.entry_ids[p],
                    "Product2Id": catalog.ids[p],
                    "ProductCode": None,
                    "Name": f"{deals.names[k]} {domain.products[p].name}",
                    "Quantity": Decimal(q),
                    "TotalPrice": price * q,
                    "UnitPrice": price,
                    "ListPrice": price,
                    **audit(ctx, deals.created[k], by=owner),
                }
            )
    emit(ctx, "Opportunity", rows)
    emit(ctx, "OpportunityLineItem", line_rows)
    _write_contracts_and_orders(ctx, rnd, deals, catalog, contract_ids)


def _write_contracts_and_orders(
    ctx: Context, rnd, deals: Deals, catalog: Catalog, contract_ids: dict[int, str]
) -> None:
    domain: Domain = ctx.plan["domain"]
    staff = ctx.plan["staff"]
    accounts = ctx.plan["accounts"]
    people = ctx.plan["people"]
    closed = sorted(contract_ids, key=lambda k: deals.contract[k])
    # Order items: each order repeats some of its deal's lines; the totals are the profile's.
    keep = {k: len(deals.lines[k]) for k in closed}
    excess = sum(keep.values()) - ctx.count("OrderItem")
    while excess > 0:
        k = rnd.choice([k for k in closed if keep[k] > 1])
        keep[k] -= 1
        excess -= 1
    contract_rows, order_rows, item_rows = [], [], []
    item_number = 0
    for k in closed:
        number = deals.contract[k]
        signed = deals.signed[k]
        owner = staff.rep_id(deals.owner[k])
        start = signed.date() + dt.timedelta(days=rnd.randint(1, 10))
        term = rnd.choice((12, 24, 36))
        end_month = start.month - 1 + term
        end = dt.date(start.year + end_month // 12, end_month % 12 + 1, 1) - dt.timedelta(days=1)
        end = end.replace(day=min(start.day, end.day)) if start.day > 1 else end
        deals.contract_start[k] = start
        customer_signed = max(signed.date() - dt.timedelta(days=rnd.randint(0, 4)), deals.created[k].date())
        contract_rows.append(
            {
                "Id": contract_ids[k],
                "AccountId": accounts.ids[deals.account[k]],
                "Pricebook2Id": catalog.pricebook_id,
                "StartDate": start,
                "EndDate": end,
                "ContractTerm": term,
                "OwnerId": owner,
                "Status": "Activated",
                "CompanySignedId": owner,
                "CompanySignedDate": signed.date(),
                "CustomerSignedId": people.ids[deals.contact[k]],
                "CustomerSignedTitle": (people.title[deals.contact[k]] or "Customer")[:40],
                "CustomerSignedDate": customer_signed,
                "ActivatedById": owner,
                "ActivatedDate": signed,
                "StatusCode": "Activated",
                "Description": f"{domain.deal_noun.capitalize()} agreement for {deals.names[k]}.",
                "ContractNumber": autonumber("Contract", "ContractNumber", number),
                **audit(ctx, signed, signed, owner),
            }
        )
        lines = sorted(rnd.sample(range(len(deals.lines[k])), keep[k]))
        deals.order_items[k] = lines
        ids = []
        total = Decimal(0)
        for i in lines:
            p, q = deals.lines[k][i]
            item_number += 1
            item_id = ctx.record_id("OrderItem", item_number)
            ids.append(item_id)
            price = catalog.price(p)
            total += price * q
            item_rows.append(
                {
                    "Id": item_id,
                    "Product2Id": catalog.ids[p],
                    "OrderId": ctx.record_id("Order", number),
                    "PricebookEntryId": catalog.entry_ids[p],
                    "AvailableQuantity": Decimal(q),
                    "Quantity": Decimal(q),
                    "UnitPrice": price,
                    "ListPrice": price,
                    "TotalPrice": price * q,
                    **audit(ctx, signed, by=owner),
                    "OrderItemNumber": autonumber("OrderItem", "OrderItemNumber", item_number),
                }
            )
        deals.order_item_ids[k] = ids
        order_rows.append(
            {
                "Id": ctx.record_id("Order", number),
                "OwnerId": owner,
                "ContractId": contract_ids[k],
                "AccountId": accounts.ids[deals.account[k]],
                "Pricebook2Id": catalog.pricebook_id,
                "OpportunityId": deals.ids[k],
                "EffectiveDate": start,
                "IsReductionOrder": False,
                "Status": "Activated",
                "Name": deals.names[k][:80],
                "ShippingCity": accounts.cities[deals.account[k]],
                "ShippingState": accounts.states[deals.account[k]],
                "ShippingCountry": "United States",
                "ActivatedDate": signed,
                "ActivatedById": owner,
                "StatusCode": "Activated",
                "OrderNumber": autonumber("Order", "OrderNumber", number),
                "TotalAmount": total,
                **audit(ctx, signed, by=owner),
            }
        )
    emit(ctx, "Contract", contract_rows)
    emit(ctx, "Order", order_rows)
    emit(ctx, "OrderItem", item_rows)
