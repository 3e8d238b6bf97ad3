"""best_region_identification: the state whose cases closed fastest in a period (Service Analyst).

Gold (CRMArena's solver, SalesforceAIResearch/CRMArena test_functions/functions.py): the Closed cases created in [start, end), each
with its account's ShippingState; the mean closure time (ClosedDate - CreatedDate, in
seconds) per state; the state with the lowest mean. Cases whose account has no state are
left out. There is no None answer: only periods with closed cases are asked about.
"""

from __future__ import annotations

from collections import defaultdict

from crmarena_sf.tasks.families.base import (
    BuildContext,
    Draft,
    Solution,
    random_window,
    when_slots,
    window_params,
    window_required,
)
from crmarena_sf.tasks.org_client import OrgClient, soql_datetime
from crmarena_sf.tasks.periods import parse_iso
from crmarena_sf.tasks.ranking import mean, rank

NAME = "best_region_identification"
PERSONA = "analyst"
METRIC = "exact_match"
NONE_SHARE = 0.0

POLICY = "- Closure time of a case: its ClosedDate minus its CreatedDate. A period selects cases by CreatedDate; only Closed cases count."

QUESTIONS = (
    "Which state closed its customers' cases fastest on average {when}? Return only the two-letter state abbreviation (for example, TX).",
    "{When}, customers in which state had their cases resolved in the shortest average time? Answer with just the state's two-letter code.",
    "Looking at cases opened {when}, which shipping state had the lowest average time from case creation to closure? Reply with only the two-letter state code.",
    "Which state had the quickest average case closure {when}? Give only the two-letter abbreviation, such as NY.",
    "Find the state whose customers' cases were closed most quickly on average {when}. Respond with the two-letter state code only.",
)


def solve(client: OrgClient, params: dict) -> Solution:
    rows = client.query(
        "SELECT Account.ShippingState, CreatedDate, ClosedDate FROM Case WHERE Status = 'Closed' "
        f"AND CreatedDate >= {soql_datetime(parse_iso(params['start']))} "
        f"AND CreatedDate < {soql_datetime(parse_iso(params['end']))}"
    )
    seconds = defaultdict(list)
    for r in rows:
        state = (r.get("Account") or {}).get("ShippingState")
        if state and r["ClosedDate"]:
            seconds[state].append(
                int((parse_iso(r["ClosedDate"]) - parse_iso(r["CreatedDate"])).total_seconds())
            )
    ranking = rank({s: mean(v) for s, v in seconds.items()}, "min")
    return Solution(ranking.answer, ranking)


def expected(ctx: BuildContext, start, end) -> tuple[str | None, bool]:
    seconds = defaultdict(list)
    for case in ctx.facts.cases_created(start, end):
        state = ctx.facts.states.get(case.account) if case.account else None
        if case.status == "Closed" and case.closed and state:
            seconds[state].append(int((case.closed - case.created).total_seconds()))
    ranking = rank({s: mean(v) for s, v in seconds.items()}, "min")
    # Worth asking: several states to compare.
    return ranking.answer, ranking.unique and len(seconds) >= 3


def generate(ctx: BuildContext, n: int, n_none: int) -> list[Draft]:
    drafts, seen = [], set()
    for _ in range(200 * n):
        if len(drafts) >= n:
            break
        today, window = random_window(ctx, {"month": (1, 18), "quarter": (1, 6), "week": (2, 20)})
        answer, unique = expected(ctx, window.start, window.end)
        key = (window.start, window.end)
        if not unique or key in seen:
            continue
        seen.add(key)
        query = ctx.rnd.choice(QUESTIONS).format(**when_slots(window))
        drafts.append(Draft(window_params(window), query, window_required(today, POLICY), answer, key))
    return drafts
