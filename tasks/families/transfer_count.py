"""transfer_count: the agent who transferred the most or the fewest cases in a period (Service Manager).

Gold, following the policy text: qualified agents as in handle_time (at least ``min_cases``
cases first assigned to them in [start, end)); each 'Owner Assignment' row in the period
with a previous owner counts one transfer for that previous owner; every qualified agent is
ranked, those with no transfer at 0 (CRMArena's solver left them out, so its "fewest" only
ranked agents with at least one transfer). None when no agent qualifies.
"""

from __future__ import annotations

from collections import Counter

from crmarena_sf.tasks.families.agent_windows import (
    QUALIFICATION,
    qualified_agents,
    qualified_in_memory,
    window_filter,
)
from crmarena_sf.tasks.families.base import BuildContext, Draft, Solution
from crmarena_sf.tasks.families.handle_time import generate_agent_task
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.ranking import rank

NAME = "transfer_count"
PERSONA = "manager"
METRIC = "exact_match"
NONE_SHARE = 39 / 130

POLICY = (
    "## Transfer Count Policy\n"
    "- Transfer count: how many times an agent reassigned a case to another agent. Each transfer of a case "
    "from agent A to agent B adds one to A's count; transfers are dated by their 'Owner Assignment' history "
    "record. An agent with no transfer has a count of 0.\n" + QUALIFICATION
)

QUESTIONS = {
    "max": (
        "Which agent {managed} {when} transferred the most cases? Return only the agent's Id.",
        "{When}, who had the highest transfer count among agents {managed}? Give only the Id of the agent.",
        "Identify the agent with the most case transfers {when} among those {managed}. Reply with the User Id only.",
        "Among agents {managed} {when}, which one passed the most cases on to other agents? Return just the agent Id.",
    ),
    "min": (
        "Which agent {managed} {when} transferred the fewest cases? Return only the agent's Id.",
        "{When}, who had the lowest transfer count among agents {managed}? Give only the Id of the agent.",
        "Identify the agent with the fewest case transfers {when} among those {managed}. Reply with the User Id only.",
        "Among agents {managed} {when}, which one passed the fewest cases on to other agents? Return just the agent Id.",
    ),
}


def solve(client: OrgClient, params: dict) -> Solution:
    agents = qualified_agents(client, params)
    if not agents:
        return Solution(None, detail={"qualified": []})
    rows = client.query(
        "SELECT OldValue__c, COUNT(Id) n FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' "
        f"AND OldValue__c != NULL AND {window_filter(params)} GROUP BY OldValue__c"
    )
    counts = {a: 0 for a in agents}
    for r in rows:
        if r["OldValue__c"] in counts:
            counts[r["OldValue__c"]] = r["n"]
    ranking = rank(counts, params["extreme"])
    return Solution(ranking.answer, ranking, {"qualified": agents})


def expected(ctx: BuildContext, start, end, min_cases: int, extreme: str) -> tuple[str | None, bool]:
    agents = qualified_in_memory(ctx, start, end, min_cases)
    moves = Counter(a.old for a in ctx.facts.assignments_in(start, end) if a.old is not None)
    ranking = rank({a: moves.get(a, 0) for a in agents}, extreme)
    # Worth asking: no qualified agent (None), or at least two agents and one transfer among them.
    return ranking.answer, not ranking.best or (
        ranking.unique and len(agents) >= 2 and any(moves[a] for a in agents)
    )


def generate(ctx: BuildContext, n: int, n_none: int) -> list[Draft]:
    return generate_agent_task(ctx, n, n_none, expected, QUESTIONS, POLICY)
