"""conversion_rate_comprehension: the rep with the highest or lowest lead conversion rate in a period.

``params``: ``start``, ``end`` (a half-open UTC period), ``extreme``. Gold, following the policy
text: the leads created (CreatedDate) in the period, per owner; those among them converted
within the same period (IsConverted, with a ConvertedDate in it); rate = converted / created,
compared exactly; the highest ("max") or lowest ("min") wins. None when no lead was created in
the period.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from fractions import Fraction

from crmarena_sf.tasks.families.base import Draft, Solution
from crmarena_sf.tasks.families.pro.base import ProBuildContext, date_bounds
from crmarena_sf.tasks.families.pro.rep_windows import generate_rep_task
from crmarena_sf.tasks.org_client import OrgClient, soql_datetime
from crmarena_sf.tasks.periods import parse_iso
from crmarena_sf.tasks.ranking import rank

NAME = "conversion_rate_comprehension"
METRIC = "exact_match"
NONE_SHARE = 0.2

POLICY = (
    "## Conversion Rate Policy\n"
    "- An agent's conversion rate for a period: of the leads they own that were created in the period, "
    "the share converted within that same period (ConvertedDate in the period), times 100%.\n"
    "- Conversion rate = converted leads / leads created x 100%."
)
QUESTIONS = {
    "max": (
        "Which agent had the highest lead conversion rate {when}? Return only the Id of the agent.",
        "{When}, who converted the largest share of their new leads? Give only the agent's Id.",
        "Find the rep with the best lead conversion rate {when}. Reply with the User Id only.",
    ),
    "min": (
        "Whose leads converted least often {when}? Answer with that agent's Id alone.",
        "{When}, who converted the smallest share of their new leads? Give only the agent's Id.",
        "Find the rep with the weakest lead conversion rate {when}. Reply with the User Id only.",
    ),
}


def rates(leads, first, after) -> dict[str, Fraction]:
    """Owner -> converted / created, from (owner, converted, converted date) of the period's leads."""
    created, converted = defaultdict(int), defaultdict(int)
    for owner, is_converted, converted_on in leads:
        created[owner] += 1
        if is_converted and converted_on is not None and first <= converted_on < after:
            converted[owner] += 1
    return {owner: Fraction(converted[owner], n) for owner, n in created.items()}


def solve(client: OrgClient, params: dict) -> Solution:
    first, after = date_bounds(params)
    rows = client.query(
        "SELECT OwnerId, IsConverted, ConvertedDate FROM Lead "
        f"WHERE CreatedDate >= {soql_datetime(parse_iso(params['start']))} "
        f"AND CreatedDate < {soql_datetime(parse_iso(params['end']))}"
    )
    leads = [
        (r["OwnerId"], r["IsConverted"], parse_iso(r["ConvertedDate"]).date() if r["ConvertedDate"] else None)
        for r in rows
    ]
    ranking = rank(rates(leads, first, after), params["extreme"])
    return Solution(ranking.answer, ranking)


def generate(ctx: ProBuildContext, n: int, n_none: int) -> list[Draft]:
    leads = sorted(ctx.sales.leads.values(), key=lambda lead: (lead.created, lead.id))
    created = [lead.created for lead in leads]

    def measure(start, end):
        period = leads[bisect.bisect_left(created, start) : bisect.bisect_left(created, end)]
        return rates([(x.owner, x.converted, x.converted_on) for x in period], start.date(), end.date())

    return generate_rep_task(
        ctx, n, n_none, (leads[0].created.date(), leads[-1].created.date()), measure, QUESTIONS, POLICY
    )
