"""lead_routing: the sales rep a new lead goes to, by territory, accepted quotes and open leads.

``params``: ``state``, the lead's region (a two-letter state code, as the official task gives it).
Gold, following the policy text step by step, each step only among the reps still tied:

1. territory: the Territory2 whose Description (a comma-separated list of state codes) lists
   the state; its reps are its UserTerritory2Association users;
2. quote success: most quotes in status 'Accepted', each counted for the owner of its opportunity;
3. workload: fewest leads not converted (``IsConverted`` false).

Every instance is settled by one of the steps (the candidate search ranks every territory and
skips a state whose ranking ends in a tie); states are asked about more than once, in other
words (the official split has 100 questions over 28 states). No None answer.
"""

from __future__ import annotations

from crmarena_sf.tasks.families.base import Draft, Solution
from crmarena_sf.tasks.families.pro.base import ProBuildContext
from crmarena_sf.tasks.org_client import OrgClient, quote, quote_list
from crmarena_sf.tasks.ranking import Ranking, rank

NAME = "lead_routing"
METRIC = "exact_match"
NONE_SHARE = 0.0

POLICY = (
    "## Lead Routing Policy\n"
    "A new lead goes to one sales rep, chosen by these criteria in order:\n"
    "- Territory: the territory whose description (a comma-separated list of state codes) lists the "
    "lead's state; only the reps assigned to that territory are considered.\n"
    "- Quote success: among them, the rep with the most quotes in status 'Accepted' (a quote counts for "
    "the owner of its opportunity).\n"
    "- Workload: if reps still tie, the one among them with the fewest leads that are not converted."
)
QUESTIONS = (
    "Which sales rep should this new lead be assigned to? Return only the Id of the rep.",
    "Who is the right agent to take over this lead under our routing policy? Give only the User Id.",
    "Route this lead: which rep should own it? Reply with the rep's Id only.",
    "Apply the lead routing policy and tell me who should work this lead. Return just the agent's Id.",
    "Who should this incoming lead be assigned to? Answer with that agent's Id alone.",
)


def territory_states(description: str) -> set[str]:
    return {part.strip() for part in (description or "").split(",") if part.strip()}


def route(reps: list[str], accepted: dict[str, int], open_leads: dict[str, int]) -> Ranking:
    """The two-step ranking of a territory's reps (quotes, then fewer open leads among the tied)."""
    ranking = rank({r: accepted.get(r, 0) for r in reps}, "max")
    if len(ranking.best) > 1:
        ranking = rank({r: open_leads.get(r, 0) for r in ranking.best}, "min")
    return ranking


def solve(client: OrgClient, params: dict) -> Solution:
    state = params["state"]
    territories = [
        r["Id"]
        for r in client.query("SELECT Id, Description FROM Territory2")
        if state in territory_states(r["Description"])
    ]
    if len(territories) != 1:
        raise LookupError(f"{len(territories)} territories list {state}")
    reps = sorted(
        {
            r["UserId"]
            for r in client.query(
                f"SELECT UserId FROM UserTerritory2Association WHERE Territory2Id = {quote(territories[0])}"
            )
        }
    )
    rows = client.query(
        "SELECT Opportunity.OwnerId, COUNT(Id) n FROM Quote WHERE Status = 'Accepted' "
        f"AND Opportunity.OwnerId IN {quote_list(reps)} GROUP BY Opportunity.OwnerId"
    )
    accepted = {r["OwnerId"]: r["n"] for r in rows}
    steps = ["quotes"]
    ranking = rank({r: accepted.get(r, 0) for r in reps}, "max")
    if len(ranking.best) > 1:
        tied = ranking.best
        rows = client.query(
            f"SELECT OwnerId, COUNT(Id) n FROM Lead WHERE IsConverted = false AND OwnerId IN {quote_list(tied)} "
            "GROUP BY OwnerId"
        )
        open_leads = {r["OwnerId"]: r["n"] for r in rows}
        ranking = rank({r: open_leads.get(r, 0) for r in tied}, "min")
        steps.append("workload")
    return Solution(ranking.answer, ranking, {"territory": territories[0], "steps": steps})


def generate(ctx: ProBuildContext, n: int, n_none: int) -> list[Draft]:
    rnd, sales = ctx.rnd, ctx.sales
    winner: dict[str, str] = {}
    for territory, description in sorted(sales.territories.items()):
        reps = sorted(set(sales.territory_members.get(territory, [])))
        ranking = route(reps, sales.accepted_quotes, sales.open_leads)
        if ranking.unique:
            for state in territory_states(description):
                winner[state] = ranking.answer
    states = sorted(winner)
    choices = [(s, q) for s in states for q in range(len(QUESTIONS))]
    rnd.shuffle(choices)
    drafts = []
    for state, q in choices[:n]:
        required = f"{POLICY}\n\n## Lead's region: {state}"
        drafts.append(Draft({"state": state}, QUESTIONS[q], required, winner[state], (state, q)))
    return drafts
