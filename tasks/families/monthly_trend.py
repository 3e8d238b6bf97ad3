"""monthly_trend_analysis: the month with significantly more cases about a product (Service Analyst).

Gold (CRMArena's seasonality solver, SalesforceAIResearch/CRMArena test_functions/functions.py): the product's cases created in
[start, end), counted per calendar month name with years merged (March 2021 and March 2022
count together); the month with more cases than every other month. There is no None answer:
only periods with such a month are asked about.
"""

from __future__ import annotations

from collections import Counter

from crmarena_sf.tasks.families.base import BuildContext, Draft, Solution
from crmarena_sf.tasks.families.product_windows import generate_product_task, product_case_filter
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.periods import MONTHS
from crmarena_sf.tasks.ranking import rank

NAME = "monthly_trend_analysis"
PERSONA = "analyst"
METRIC = "exact_match"
NONE_SHARE = 0.0

POLICY = (
    "- A case concerns a product through its order item. A period selects cases by CreatedDate (UTC).\n"
    "- Months with the same name in different years count together."
)

QUESTIONS = (
    "Was there a month {when} in which cases about the {product} were significantly higher than in the other months? The product's Id is {product_id}. Return only the name of the month.",
    "{When}, in which month did we receive noticeably more cases for the {product} (product Id {product_id}) than in any other month? Give only the month name.",
    "Looking at the {product} (Id {product_id}) {when}, which month stands out with more cases than every other month? Reply with just the month's name.",
    "Which month {when} had clearly the most cases concerning the {product}? The associated product Id is {product_id}. Answer with the month name only.",
)


def solve(client: OrgClient, params: dict) -> Solution:
    rows = client.query(
        "SELECT CALENDAR_MONTH(CreatedDate) m, COUNT(Id) n FROM Case "
        f"WHERE {product_case_filter(params)} GROUP BY CALENDAR_MONTH(CreatedDate)"
    )
    ranking = rank({MONTHS[r["m"] - 1]: r["n"] for r in rows}, "max")
    return Solution(ranking.answer, ranking)


def expected(cases, start, end) -> tuple[str | None, bool]:
    counts = Counter(MONTHS[c.created.month - 1] for c in cases if start <= c.created < end)
    ranking = rank(dict(counts), "max")
    # A period with cases in a single month has no "other months" to stand out from.
    return ranking.answer, ranking.unique and len(counts) > 1 and sum(counts.values()) >= 4


def generate(ctx: BuildContext, n: int, n_none: int) -> list[Draft]:
    return generate_product_task(
        ctx, n, n_none, expected, QUESTIONS, POLICY, named=("quarter", "season", "year")
    )
