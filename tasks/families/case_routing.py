"""case_routing: the best agent for a case, by the routing policy (Service Manager).

The question shows only a case's Subject and Description; its issue and product are hidden
in ``params`` (``issue_id``, ``product_id``; ``case_id`` names the case whose text is shown).
Gold follows the policy text, each step only among the agents tied at the previous one:

1. issue expertise: most Closed cases with that issue (by current owner);
2. product expertise: most Closed cases about that product (through the order item);
3. workload: fewest cases whose Status is not 'Closed' (CRMArena's solver counted only the
   status 'Open', which this org's picklist does not even have; the text says "not Closed").

Agents with no case at a step count 0 there. The org is counted as it is, the shown case
included. Every instance's answer is settled by one of the steps (never a tie).

Which step settles an instance is planted: the generators (default and Pro orgs) make each
issue's top expert strictly close the most of its cases, except in a seeded share of the issues
(:data:`crmarena_sf.loaders.generate.cases.ROUTING_TIE_SHARE`, two in five, drawn from the org's
seed) where the top two experts closed exactly as many, more than anyone else (the manifest's
``routing_ties`` / ``agent_routing_ties``). A case of such an issue is settled by product
expertise, or by workload when the two closed equally many cases about its product too
(mostly none). Cases are drawn for the instances in proportion to their issues, so about as
large a share of instances as of cases falls on a tied issue.
"""

from __future__ import annotations

from collections import Counter

from crmarena_sf.tasks.families.base import BuildContext, Draft, Solution
from crmarena_sf.tasks.org_client import OrgClient, quote, quote_list
from crmarena_sf.tasks.ranking import rank

NAME = "case_routing"
PERSONA = "manager"
METRIC = "exact_match"
NONE_SHARE = 0.0

POLICY = (
    "## Case Routing Policy\n"
    "The best agent for a new case is chosen by these criteria, in order:\n"
    "- Issue expertise: the agent who has closed the most cases with the issue that best matches the new case.\n"
    "- Product expertise: if agents tie on issue expertise, the one among them who has closed the most cases "
    "about the product the new case concerns.\n"
    "- Workload: if they still tie, the one among them with the fewest cases whose Status is not 'Closed'."
)

QUESTIONS = (
    "Apply the case routing policy to pick the best agent for the case below. Return only the agent's Id.",
    "Which agent should this new case go to under the routing policy? Give only the Id of the agent.",
    "Route the following case to the most suitable agent according to the case routing policy. Reply with the agent Id only.",
    "Using the routing policy, who is the right agent to handle this case? Return just the User Id.",
)


def solve(client: OrgClient, params: dict) -> Solution:
    rows = client.query(
        "SELECT OwnerId, COUNT(Id) n FROM Case WHERE Status = 'Closed' "
        f"AND IssueId__c = {quote(params['issue_id'])} GROUP BY OwnerId"
    )
    ranking = rank({r["OwnerId"]: r["n"] for r in rows}, "max")
    steps = ["issue"]
    if len(ranking.best) > 1:
        tied = ranking.best
        rows = client.query(
            f"SELECT OwnerId, COUNT(Id) n FROM Case WHERE Status = 'Closed' AND OwnerId IN {quote_list(tied)} "
            f"AND OrderItemId__c IN (SELECT Id FROM OrderItem WHERE Product2Id = {quote(params['product_id'])}) "
            "GROUP BY OwnerId"
        )
        ranking = rank({a: 0 for a in tied} | {r["OwnerId"]: r["n"] for r in rows}, "max")
        steps.append("product")
    if len(ranking.best) > 1:
        tied = ranking.best
        rows = client.query(
            f"SELECT OwnerId, COUNT(Id) n FROM Case WHERE Status != 'Closed' AND OwnerId IN {quote_list(tied)} "
            "GROUP BY OwnerId"
        )
        ranking = rank({a: 0 for a in tied} | {r["OwnerId"]: r["n"] for r in rows}, "min")
        steps.append("workload")
    return Solution(ranking.answer, ranking, {"steps": steps})


def expected(ctx: BuildContext, issue: str, product: str) -> str | None:
    facts = ctx.facts
    closed = [c for c in facts.cases if c.status == "Closed"]
    ranking = rank(dict(Counter(c.owner for c in closed if c.issue == issue)), "max")
    if len(ranking.best) > 1:
        tied = set(ranking.best)
        counts = Counter(c.owner for c in closed if c.owner in tied and facts.product_of_case(c) == product)
        ranking = rank({a: counts.get(a, 0) for a in tied}, "max")
    if len(ranking.best) > 1:
        tied = set(ranking.best)
        counts = Counter(c.owner for c in facts.cases if c.owner in tied and c.status != "Closed")
        ranking = rank({a: counts.get(a, 0) for a in tied}, "min")
    return ranking.answer


def generate(ctx: BuildContext, n: int, n_none: int) -> list[Draft]:
    rnd = ctx.rnd
    candidates = [c for c in ctx.facts.cases if c.issue and ctx.facts.product_of_case(c) and c.description]
    rnd.shuffle(candidates)
    drafts = []
    for case in candidates:
        if len(drafts) >= n:
            break
        product = ctx.facts.product_of_case(case)
        answer = expected(ctx, case.issue, product)
        if answer is None:
            continue
        query = (
            f"{rnd.choice(QUESTIONS)}\n## Case\n- Subject: {case.subject}\n- Description: {case.description}"
        )
        params = {"case_id": case.id, "issue_id": case.issue, "product_id": product}
        drafts.append(Draft(params, query, POLICY, answer, (case.id,)))
    return drafts
