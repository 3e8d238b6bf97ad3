"""top_issue_identification: the issue reported most often about a product in a period (Service Analyst).

Gold (CRMArena's ``get_issue_counts`` in SalesforceAIResearch/CRMArena crm_sandbox/env/functions.py, with the period half-open): the
product's cases created in [start, end) grouped by IssueId__c; the issue with the highest
count. None when the product has no case in the period.
"""

from __future__ import annotations

from collections import Counter

from crmarena_sf.tasks.families.base import BuildContext, Draft, Solution
from crmarena_sf.tasks.families.product_windows import generate_product_task, product_case_filter
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.ranking import rank

NAME = "top_issue_identification"
PERSONA = "analyst"
METRIC = "exact_match"
NONE_SHARE = 39 / 130

POLICY = "- A case concerns a product through its order item. A period selects cases by CreatedDate."

QUESTIONS = (
    "What was the most frequently reported problem with the {product} {when}? The product's Id is {product_id}. Return only the Id of the issue, or None if there were no cases.",
    "{When}, which issue came up most often in cases about the {product} (product Id {product_id})? Give only the issue Id, or None if no case was opened.",
    "Which issue did customers report most for the {product} {when}? Its product Id is {product_id}. Reply with the Issue__c Id only, or None when there were no cases.",
    "For the {product} (Id {product_id}), what was the top complaint {when}? Return just the Id of the most reported issue, or None if there were none.",
)


def solve(client: OrgClient, params: dict) -> Solution:
    rows = client.query(
        f"SELECT IssueId__c, COUNT(Id) n FROM Case WHERE {product_case_filter(params)} GROUP BY IssueId__c"
    )
    ranking = rank({r["IssueId__c"]: r["n"] for r in rows if r["IssueId__c"]}, "max")
    return Solution(ranking.answer, ranking)


def expected(cases, start, end) -> tuple[str | None, bool]:
    counts = Counter(c.issue for c in cases if start <= c.created < end and c.issue)
    ranking = rank(dict(counts), "max")
    # Worth asking: no case at all (None), or at least three cases to count.
    return ranking.answer, not ranking.best or (ranking.unique and sum(counts.values()) >= 3)


def generate(ctx: BuildContext, n: int, n_none: int) -> list[Draft]:
    return generate_product_task(ctx, n, n_none, expected, QUESTIONS, POLICY)
