"""sales_cycle_understanding: the rep whose deals closed fastest or slowest on average in a period.

``params``: ``start``, ``end`` (a half-open UTC period), ``extreme`` ("min" quickest, "max"
slowest). Gold, following the policy text: the opportunities whose contract
(``Opportunity.ContractID__c``) has a CompanySignedDate in the period; a deal's sales cycle is
the number of days from the opportunity's CreatedDate (its UTC date) to that CompanySignedDate;
the exact mean per opportunity owner; the lowest or highest wins. None when no contract was
signed in the period.
"""

from __future__ import annotations

import bisect
from collections import defaultdict

from crmarena_sf.tasks.families.base import Draft, Solution
from crmarena_sf.tasks.families.pro.base import ProBuildContext, date_bounds, soql_date
from crmarena_sf.tasks.families.pro.rep_windows import generate_rep_task
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.periods import parse_iso
from crmarena_sf.tasks.ranking import mean, rank

NAME = "sales_cycle_understanding"
METRIC = "exact_match"
NONE_SHARE = 0.2

POLICY = (
    "## Sales Cycle Policy\n"
    "- A deal's sales cycle is the number of days from the opportunity's creation date to the company "
    "signed date of its contract (the contract the opportunity's ContractID__c names).\n"
    "- A deal counts in a period when that company signed date falls in the period; an agent's sales "
    "cycle is the average over the deals they own."
)
QUESTIONS = {
    "min": (
        "Which agent had the shortest average sales cycle {when}? Return only the Id of the agent.",
        "{When}, whose deals went from opportunity to signed contract fastest on average? Give only the agent's Id.",
        "Whose deals closed fastest on average {when}? Reply with the User Id only.",
    ),
    "max": (
        "Which agent had the longest average sales cycle {when}? Return only the Id of the agent.",
        "{When}, whose deals took the longest on average from opportunity to signed contract? Give only the agent's Id.",
        "Find the rep with the slowest average time to close deals {when}. Reply with the User Id only.",
    ),
}


def solve(client: OrgClient, params: dict) -> Solution:
    first, after = date_bounds(params)
    rows = client.query(
        "SELECT OwnerId, CreatedDate, ContractID__c FROM Opportunity WHERE ContractID__c IN "
        f"(SELECT Id FROM Contract WHERE CompanySignedDate >= {soql_date(first)} "
        f"AND CompanySignedDate < {soql_date(after)})"
    )
    if not rows:
        return Solution(None)
    signed = {
        r["Id"]: r["CompanySignedDate"]
        for r in client.query(
            f"SELECT Id, CompanySignedDate FROM Contract WHERE CompanySignedDate >= {soql_date(first)} "
            f"AND CompanySignedDate < {soql_date(after)}"
        )
    }
    days = defaultdict(list)
    for r in rows:
        signed_on = parse_iso(signed[r["ContractID__c"]]).date()
        days[r["OwnerId"]].append((signed_on - parse_iso(r["CreatedDate"]).date()).days)
    ranking = rank({owner: mean(v) for owner, v in days.items()}, params["extreme"])
    return Solution(ranking.answer, ranking)


def generate(ctx: ProBuildContext, n: int, n_none: int) -> list[Draft]:
    sales = ctx.sales
    signed = sales.contract_signed
    deals = sorted(
        (signed[o.contract], o.owner, (signed[o.contract] - o.created.date()).days)
        for o in sales.opportunities.values()
        if o.contract in signed
    )
    days_of = [day for day, _, _ in deals]

    def measure(start, end):
        lo, hi = bisect.bisect_left(days_of, start.date()), bisect.bisect_left(days_of, end.date())
        cycles = defaultdict(list)
        for _, owner, cycle in deals[lo:hi]:
            cycles[owner].append(cycle)
        return {owner: mean(v) for owner, v in cycles.items()}

    return generate_rep_task(ctx, n, n_none, (days_of[0], days_of[-1]), measure, QUESTIONS, POLICY)
