"""Orders and order items: every case's product was bought in an order placed before the case.

Each case gets its own order (Activated, a few days to weeks before the case), holding the
case's product first; the remaining orders are ordinary purchases. Orders use one price
book valid on their date (the standard one or a custom one listing the products), and each
item's PricebookEntryId is the entry of that book for that product (joined inside DuckDB).
A customer never places two orders on the same day and an order never holds two products
of the same family, so "the women's trail jacket I bought on <date>" names one product
(named-entity-disambiguation task). Record numbers follow the order date, as a real org's
Ids and order numbers follow creation time.
"""

from __future__ import annotations

import datetime as dt
from array import array

from crmarena_sf.emulator.store.derive import AUTONUMBER_FORMATS
from crmarena_sf.loaders.generate import vocab
from crmarena_sf.loaders.generate.context import STANDARD_PRICEBOOK_N, Context, audit_sql, autonumber, ts
from crmarena_sf.loaders.generate.rng import Weighted

BATCH = 200_000
EPOCH_DAY = dt.date(1970, 1, 1).toordinal()
"""Rows handed to DuckDB at a time (bounded memory for large orgs)."""


def write_orders(ctx: Context) -> None:
    rnd = ctx.rng("orders")
    customers, catalog, cases = ctx.plan["customers"], ctx.plan["catalog"], ctx.plan["cases"]
    n_orders = max(ctx.count("Order"), len(cases))
    n_items = max(ctx.count("OrderItem"), n_orders)
    account = array("i")
    day = array("i")
    moment = array("i")
    pricebook = array("i")
    activated = array("b")
    used_days: dict[int, set[int]] = {}
    valid_on: dict[int, list[int]] = {}
    for k in range(len(cases)):
        c = cases.customer[k]
        latest = (cases.created[k] - dt.timedelta(days=1)).date()
        target = latest - dt.timedelta(days=int(rnd.expovariate(1 / 9)))
        when = _free_day(
            used_days, c, max(target, customers.since[c].date()), customers.since[c].date(), latest, rnd
        )
        account.append(c)
        day.append(when.toordinal())
        moment.append(rnd.randint(7 * 3600, 22 * 3600))
        pricebook.append(_pricebook_for(rnd, catalog, when, cases.product[k], valid_on))
        activated.append(1)
    activity = Weighted(range(len(customers)), [rnd.lognormvariate(0, 0.7) for _ in range(len(customers))])
    last_day = vocab.LAST_CASE.date()
    while len(account) < n_orders:
        c = activity.pick(rnd)
        first = max(customers.since[c].date(), vocab.FIRST_ORDER)
        span = (last_day - first).days
        target = first + dt.timedelta(days=rnd.randrange(max(span, 1)))
        when = _free_day(used_days, c, target, first, last_day, rnd)
        account.append(c)
        day.append(when.toordinal())
        moment.append(rnd.randint(7 * 3600, 22 * 3600))
        pricebook.append(_pricebook_for(rnd, catalog, when, None, valid_on))
        activated.append(1 if rnd.random() < 0.93 else 0)
    sizes = array("i", [1]) * n_orders
    for _ in range(n_items - n_orders):
        sizes[rnd.randrange(n_orders)] += 1
    order_of = sorted(range(n_orders), key=lambda o: (day[o], moment[o], o))
    _stage_orders(ctx, rnd, order_of, account, day, moment, pricebook, activated, sizes)
    _write(ctx)


def _free_day(
    used: dict[int, set[int]], c: int, target: dt.date, first: dt.date, last: dt.date, rnd
) -> dt.date:
    """``target``, or the nearest day in [first, last] on which customer ``c`` has no order yet."""
    taken = used.setdefault(c, set())
    for step in range(0, 400):
        for candidate in (target - dt.timedelta(days=step), target + dt.timedelta(days=step)):
            if first <= candidate <= last and candidate.toordinal() not in taken:
                taken.add(candidate.toordinal())
                return candidate
    return target


def _pricebook_for(rnd, catalog, when: dt.date, product: int | None, valid_on: dict[int, list[int]]) -> int:
    """A price book valid on ``when`` (listing ``product``): standard for about a third of orders."""
    if rnd.random() < 0.35 or not catalog.pricebooks:
        return STANDARD_PRICEBOOK_N
    day = when.toordinal()
    valid = valid_on.get(day)
    if valid is None:
        moment = dt.datetime.combine(when, dt.time(12))
        valid = valid_on[day] = [
            b["n"]
            for b in catalog.pricebooks
            if b["valid_from"] is None or b["valid_from"] <= moment <= b["valid_to"]
        ]
    if product is not None:
        valid = [n for n in valid if product not in catalog.excluded[n]]
    return rnd.choice(valid) if valid else STANDARD_PRICEBOOK_N


def _stage_orders(ctx: Context, rnd, order_of, account, day, moment, pricebook, activated, sizes) -> None:
    catalog, cases = ctx.plan["catalog"], ctx.plan["cases"]
    popularity = Weighted(range(len(catalog)), [rnd.lognormvariate(0, 1.0) for _ in range(len(catalog))])
    n_cases = len(cases)
    case_item = array("q", [0]) * n_cases
    order_cols = {k: [] for k in ("n", "acct", "pb", "day", "created", "activated")}
    item_cols = {k: [] for k in ("n", "ord", "prod", "pb", "qty")}
    item_n = 0
    for number, o in enumerate(order_of, start=1):
        created = (day[o] - EPOCH_DAY) * 86400 + moment[o]
        order_cols["n"].append(number)
        order_cols["acct"].append(account[o] + 1)
        order_cols["pb"].append(pricebook[o])
        order_cols["day"].append(day[o])
        order_cols["created"].append(created)
        order_cols["activated"].append(bool(activated[o]))
        products = [cases.product[o]] if o < n_cases else []
        excluded = catalog.excluded.get(pricebook[o], ())
        families = {catalog.family[p] for p in products}
        while len(products) < sizes[o]:
            p = _extra_product(rnd, popularity, catalog, excluded, families, products)
            products.append(p)
            families.add(catalog.family[p])
        for i, p in enumerate(products):
            item_n += 1
            if i == 0 and o < n_cases:
                case_item[o] = item_n
            item_cols["n"].append(item_n)
            item_cols["ord"].append(number)
            item_cols["prod"].append(p + 1)
            item_cols["pb"].append(pricebook[o])
            item_cols["qty"].append(_quantity(rnd))
        if len(item_cols["n"]) >= BATCH:
            _flush(ctx, "raw_order_item", item_cols)
        if len(order_cols["n"]) >= BATCH:
            _flush(ctx, "raw_order", order_cols)
    _flush(ctx, "raw_order_item", item_cols)
    _flush(ctx, "raw_order", order_cols)
    cases.order_item = list(case_item)


def _extra_product(
    rnd, popularity: Weighted, catalog, excluded, families: set[str], chosen: list[int]
) -> int:
    for _ in range(40):
        p = popularity.pick(rnd)
        if p not in excluded and catalog.family[p] not in families and p not in chosen:
            return p
    start = rnd.randrange(len(catalog))
    for step in range(len(catalog)):
        p = (start + step) % len(catalog)
        if p not in excluded and catalog.family[p] not in families and p not in chosen:
            return p
    raise ValueError("the catalog is too small for the order sizes of this profile")


def _quantity(rnd) -> int:
    roll = rnd.random()
    return 1 if roll < 0.7 else 2 if roll < 0.9 else 3 if roll < 0.97 else rnd.randint(4, 5)


_TYPES = {
    "raw_order": {
        "n": "BIGINT",
        "acct": "BIGINT",
        "pb": "BIGINT",
        "day": "INTEGER",
        "created": "BIGINT",
        "activated": "BOOLEAN",
    },
    "raw_order_item": {"n": "BIGINT", "ord": "BIGINT", "prod": "BIGINT", "pb": "BIGINT", "qty": "INTEGER"},
}


def _flush(ctx: Context, table: str, cols: dict[str, list]) -> None:
    if not cols["n"] and ctx.writer.is_staged(table):
        return
    ctx.stage(table, {k: (_TYPES[table][k], v) for k, v in cols.items()})
    for v in cols.values():
        v.clear()


def _write(ctx: Context) -> None:
    admin = ctx.record_id("User", 1)
    item_digits = AUTONUMBER_FORMATS.get(("OrderItem", "OrderItemNumber"), (8, 1))[0]
    order_digits, order_first = AUTONUMBER_FORMATS.get(("Order", "OrderNumber"), (8, 1))
    ctx.write(
        "OrderItem",
        f'SELECT {ctx.sql_id("OrderItem", "i.n")} AS "Id", {ctx.sql_id("Product2", "i.prod")} AS "Product2Id", '
        f'{ctx.sql_id("Order", "i.ord")} AS "OrderId", {ctx.sql_id("PricebookEntry", "e.n")} AS "PricebookEntryId", '
        'i.qty AS "AvailableQuantity", i.qty AS "Quantity", e.price AS "UnitPrice", e.price AS "ListPrice", '
        'e.price * i.qty AS "TotalPrice", '
        f'{audit_sql(ts("o.created"))}, {autonumber("i.n", item_digits)} AS "OrderItemNumber" '
        "FROM raw_order_item i JOIN raw_pbe e ON e.pb = i.pb AND e.prod = i.prod JOIN raw_order o ON o.n = i.ord "
        "ORDER BY i.n",
    )
    ctx.write(
        "Order",
        f'SELECT {ctx.sql_id("Order", "o.n")} AS "Id", \'{admin}\' AS "OwnerId", '
        f'{ctx.sql_id("Account", "o.acct")} AS "AccountId", {ctx.sql_id("Pricebook2", "o.pb")} AS "Pricebook2Id", '
        'DATE \'0001-01-01\' + (o.day - 1) AS "EffectiveDate", false AS "IsReductionOrder", '
        "CASE WHEN o.activated THEN 'Activated' ELSE 'Draft' END AS \"Status\", "
        'c.street AS "ShippingStreet", c.city AS "ShippingCity", c.state AS "ShippingState", '
        'c.zip AS "ShippingPostalCode", \'United States\' AS "ShippingCountry", '
        f'CASE WHEN o.activated THEN {ts("o.created")} END AS "ActivatedDate", '
        f"CASE WHEN o.activated THEN '{admin}' END AS \"ActivatedById\", "
        "CASE WHEN o.activated THEN 'Activated' ELSE 'Draft' END AS \"StatusCode\", "
        f'{autonumber(f"o.n + {order_first - 1}", order_digits)} AS "OrderNumber", '
        'coalesce(t.total, 0) AS "TotalAmount", '
        f"{audit_sql(ts('o.created'))} "
        "FROM raw_order o JOIN raw_customer c ON c.n = o.acct "
        "LEFT JOIN (SELECT i.ord, sum(e.price * i.qty) AS total FROM raw_order_item i "
        "JOIN raw_pbe e ON e.pb = i.pb AND e.prod = i.prod GROUP BY i.ord) t ON t.ord = o.n ORDER BY o.n",
    )
