"""What the top-issue and monthly-trend tasks share: a product's cases in a period.

A case concerns a product through its order item (Case.OrderItemId__c -> OrderItem.Product2Id).
"""

from __future__ import annotations

from collections import Counter

from crmarena_sf.tasks.families.base import (
    BuildContext,
    Draft,
    Quota,
    random_window,
    when_slots,
    window_params,
    window_required,
)
from crmarena_sf.tasks.org_client import quote, soql_datetime
from crmarena_sf.tasks.org_facts import CaseFact
from crmarena_sf.tasks.periods import parse_iso


def product_case_filter(params: dict) -> str:
    """The WHERE clause of a product's cases created in [start, end)."""
    return (
        f"OrderItemId__c IN (SELECT Id FROM OrderItem WHERE Product2Id = {quote(params['product_id'])}) "
        f"AND CreatedDate >= {soql_datetime(parse_iso(params['start']))} "
        f"AND CreatedDate < {soql_datetime(parse_iso(params['end']))}"
    )


def cases_by_product(ctx: BuildContext) -> dict[str, list[CaseFact]]:
    by_product: dict[str, list[CaseFact]] = {}
    for case in ctx.facts.cases:
        product = ctx.facts.product_of_case(case)
        if product:
            by_product.setdefault(product, []).append(case)
    return by_product


def generate_product_task(
    ctx: BuildContext,
    n: int,
    n_none: int,
    expected_fn,
    questions,
    policy: str,
    named=("month", "quarter", "season"),
) -> list[Draft]:
    """Drafts about a product's cases in a window: ``n - n_none`` unique answers, ``n_none`` Nones."""
    rnd = ctx.rnd
    by_product = cases_by_product(ctx)
    weights = Counter({p: len(v) for p, v in by_product.items()})
    products = sorted(weights)
    drafts, seen, quota = [], set(), Quota(n, n_none)
    for _ in range(300 * n):
        if quota.full:
            break
        product = rnd.choices(products, weights=[weights[p] ** 1.5 for p in products])[0]
        today, window = random_window(ctx, {"month": (2, 18), "quarter": (1, 6), "year": (1, 3)}, named)
        key = (product, window.start, window.end)
        if key in seen:
            continue
        answer, unique = expected_fn(by_product[product], window.start, window.end)
        if not unique or not quota.wants(answer):
            continue
        seen.add(key)
        quota.take(answer)
        query = rnd.choice(questions).format(
            **when_slots(window),
            product=ctx.facts.products[product],
            product_id=product,
        )
        params = {"product_id": product, **window_params(window)}
        drafts.append(Draft(params, query, window_required(today, policy), answer, key))
    return drafts
