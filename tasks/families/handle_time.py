"""handle_time: the agent with the shortest or longest average handle time in a period (Service Manager).

Gold, following the policy text (CRMArena's solver counted transfers-in as managed cases
and looked for transfers only inside the period; the text says otherwise):

1. qualified agents: at least ``min_cases`` cases first assigned to them in [start, end)
   (:mod:`crmarena_sf.tasks.families.agent_windows`);
2. their Closed cases created in [start, end) that were never transferred (no 'Owner
   Assignment' row with a previous owner, whenever it happened);
3. mean handle time (ClosedDate - CreatedDate) per owner; the lowest ("min") or highest
   ("max") wins.

None when no qualified agent has such a case.
"""

from __future__ import annotations

from collections import defaultdict

from crmarena_sf.tasks.families.agent_windows import (
    QUALIFICATION,
    managed_phrase,
    qualified_agents,
    qualified_in_memory,
    window_filter,
)
from crmarena_sf.tasks.families.base import (
    BuildContext,
    Draft,
    Quota,
    Solution,
    random_window,
    when_slots,
    window_params,
    window_required,
)
from crmarena_sf.tasks.org_client import OrgClient, quote_list
from crmarena_sf.tasks.periods import parse_iso
from crmarena_sf.tasks.ranking import mean, rank

NAME = "handle_time"
PERSONA = "manager"
METRIC = "exact_match"
NONE_SHARE = 39 / 130

POLICY = (
    "## Handle Time Policy\n"
    "- Handle time: how long a case took to close, from its CreatedDate to its ClosedDate. "
    "Only Closed cases created in the period count.\n"
    "- Handle time is not computed for cases that were ever transferred to another agent.\n" + QUALIFICATION
)

QUESTIONS = {
    "min": (
        "Which agent {managed} {when} had the shortest average handle time? Return only the agent's Id.",
        "{When}, among agents {managed}, who closed cases fastest on average? Give only the Id of the agent.",
        "Find the agent with the lowest average handle time {when}, considering only agents {managed}. Reply with the agent Id only.",
        "Who is the quickest agent by average handle time {when} among those {managed}? Return just the User Id.",
    ),
    "max": (
        "Which agent {managed} {when} had the longest average handle time? Return only the agent's Id.",
        "{When}, among agents {managed}, whose cases took the longest to close on average? Give only the Id of the agent.",
        "Find the agent with the highest average handle time {when}, considering only agents {managed}. Reply with the agent Id only.",
        "Who was the slowest agent by average handle time {when} among those {managed}? Return just the User Id.",
    ),
}


def solve(client: OrgClient, params: dict) -> Solution:
    agents = qualified_agents(client, params)
    if not agents:
        return Solution(None, detail={"qualified": []})
    rows = client.query(
        "SELECT OwnerId, CreatedDate, ClosedDate FROM Case WHERE Status = 'Closed' "
        f"AND {window_filter(params)} AND OwnerId IN {quote_list(agents)} "
        "AND Id NOT IN (SELECT CaseId__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' "
        "AND OldValue__c != NULL)"
    )
    seconds = defaultdict(list)
    for r in rows:
        seconds[r["OwnerId"]].append(
            int((parse_iso(r["ClosedDate"]) - parse_iso(r["CreatedDate"])).total_seconds())
        )
    ranking = rank({a: mean(v) for a, v in seconds.items()}, params["extreme"])
    return Solution(ranking.answer, ranking, {"qualified": agents})


def expected(ctx: BuildContext, start, end, min_cases: int, extreme: str) -> tuple[str | None, bool]:
    agents = set(qualified_in_memory(ctx, start, end, min_cases))
    transferred = {a.case for a in ctx.facts.assignments if a.old is not None}
    seconds = defaultdict(list)
    for case in ctx.facts.cases_created(start, end):
        if case.status == "Closed" and case.closed and case.owner in agents and case.id not in transferred:
            seconds[case.owner].append(int((case.closed - case.created).total_seconds()))
    ranking = rank({a: mean(v) for a, v in seconds.items()}, extreme)
    # Worth asking: no agent at all (None), or at least two agents to compare.
    return ranking.answer, not ranking.best or (ranking.unique and len(seconds) >= 2)


def generate(ctx: BuildContext, n: int, n_none: int) -> list[Draft]:
    return generate_agent_task(ctx, n, n_none, expected, QUESTIONS, POLICY)


def generate_agent_task(
    ctx: BuildContext, n: int, n_none: int, expected_fn, questions, policy
) -> list[Draft]:
    """Drafts for a task over qualified agents in a window: ``n - n_none`` unique answers, ``n_none`` Nones."""
    rnd = ctx.rnd
    drafts, seen, quota = [], set(), Quota(n, n_none)
    for _ in range(300 * n):
        if quota.full:
            break
        today, window = random_window(
            ctx, {"month": (1, 12), "quarter": (1, 4), "week": (1, 12), "day": (5, 60)}
        )
        min_cases = rnd.choice((1, 1, 1, 2, 2, 3, 4, 5, 6))
        extreme = rnd.choice(("min", "max"))
        key = (window.start, window.end, min_cases, extreme)
        if key in seen:
            continue
        answer, unique = expected_fn(ctx, window.start, window.end, min_cases, extreme)
        if not unique or not quota.wants(answer):
            continue
        seen.add(key)
        quota.take(answer)
        query = rnd.choice(questions[extreme]).format(
            **when_slots(window), managed=managed_phrase(min_cases, rnd)
        )
        params = window_params(window, min_cases=min_cases, extreme=extreme)
        drafts.append(Draft(params, query, window_required(today, policy), answer, key))
    return drafts
