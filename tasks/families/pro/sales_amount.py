"""sales_amount_understanding: the rep with the highest sales amount in a period.

``params``: ``start``, ``end`` (a half-open UTC period), ``extreme`` ("max"). Gold, following the
policy text: the opportunities whose contract (``Opportunity.ContractID__c``) has a
CompanySignedDate in the period; each one's sales amount is the sum of Quantity x UnitPrice over
the items of the orders placed under that contract (``Order.ContractId``); amounts add up per
opportunity owner, exactly (decimals, never floats); the highest wins. None when no contract was
signed in the period.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from decimal import Decimal

from crmarena_sf.tasks.families.base import Draft, Solution
from crmarena_sf.tasks.families.pro.base import ProBuildContext, date_bounds, soql_date
from crmarena_sf.tasks.families.pro.rep_windows import generate_rep_task
from crmarena_sf.tasks.org_client import OrgClient, quote_list
from crmarena_sf.tasks.pro.sales_facts import decimal
from crmarena_sf.tasks.ranking import rank

NAME = "sales_amount_understanding"
METRIC = "exact_match"
NONE_SHARE = 0.2

POLICY = (
    "## Sales Amount Policy\n"
    "- A deal's sales amount is the sum of Quantity x UnitPrice over the items of the orders placed under "
    "its contract (the contract the opportunity's ContractID__c names).\n"
    "- A deal counts in a period when its contract's CompanySignedDate falls in the period, and it counts "
    "for the opportunity's owner."
)
QUESTIONS = {
    "max": (
        "Which agent brought in the highest sales amount {when}? Return only the Id of the agent.",
        "{When}, who was our top seller by sales amount? Give only the agent's Id.",
        "Identify the rep with the largest total sales {when}. Reply with the User Id only.",
        "Which agent closed the most revenue {when}, counting the orders of their signed deals? Return only the agent's Id.",
    )
}


def solve(client: OrgClient, params: dict) -> Solution:
    first, after = date_bounds(params)
    opportunities = client.query(
        "SELECT OwnerId, ContractID__c FROM Opportunity WHERE ContractID__c IN "
        f"(SELECT Id FROM Contract WHERE CompanySignedDate >= {soql_date(first)} "
        f"AND CompanySignedDate < {soql_date(after)})"
    )
    if not opportunities:
        return Solution(None)
    owner_of = {r["ContractID__c"]: r["OwnerId"] for r in opportunities}
    items = client.query(
        f"SELECT Order.ContractId, Quantity, UnitPrice FROM OrderItem WHERE Order.ContractId IN {quote_list(sorted(owner_of))}"
    )
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for owner in owner_of.values():
        totals[owner] += 0
    for r in items:
        totals[owner_of[r["Order"]["ContractId"]]] += decimal(r["Quantity"]) * decimal(r["UnitPrice"])
    ranking = rank(dict(totals), params["extreme"])
    return Solution(ranking.answer, ranking)


def generate(ctx: ProBuildContext, n: int, n_none: int) -> list[Draft]:
    sales = ctx.sales
    signed = sales.contract_signed
    deals = sorted(
        (signed[o.contract], o.owner, sales.order_amounts.get(o.contract, Decimal(0)))
        for o in sales.opportunities.values()
        if o.contract in signed
    )
    days_of = [day for day, _, _ in deals]

    def measure(start, end):
        lo, hi = bisect.bisect_left(days_of, start.date()), bisect.bisect_left(days_of, end.date())
        totals: dict[str, Decimal] = defaultdict(Decimal)
        for _, owner, amount in deals[lo:hi]:
            totals[owner] += amount
        return dict(totals)

    return generate_rep_task(ctx, n, n_none, (days_of[0], days_of[-1]), measure, QUESTIONS, POLICY)
