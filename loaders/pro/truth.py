"""The latent truth of a CRMArena-Pro org for the manifest: every planted variable, named and documented.

``VARIABLES`` documents each one: what it is and which of CRMArena-Pro's 22 tasks it serves.
The values are keyed by record Id, so a task generator can cross-check its gold answers against
them in tests; none of it is in the org itself, and every value can be read back from the data
by SOQL (``tests/test_pro_latent.py`` does).
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.loaders.generate.context import Context
from crmarena_sf.loaders.generate.vocab import MONTHS
from crmarena_sf.loaders.pro.domain import STAGES, SUBTOPICS
from crmarena_sf.loaders.pro.knowledge import article_id
from crmarena_sf.loaders.pro.records import DATA_NOW, FIRST_DAY, LAST_DAY

VARIABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "rep_win_weight": (
        "relative chance a rep's deals close (won, with a signed contract)",
        ("sales_amount_understanding", "lead_routing"),
    ),
    "rep_cycle_days": (
        "a rep's typical days from opportunity creation to the contract's company signed date",
        ("sales_cycle_understanding",),
    ),
    "rep_deal_size": ("multiplier on the quantities of a rep's deals", ("sales_amount_understanding",)),
    "rep_conversion": ("multiplier on the chance a rep's leads convert", ("conversion_rate_comprehension",)),
    "lead_source_conversion": (
        "base chance that a lead of each LeadSource converts",
        ("conversion_rate_comprehension",),
    ),
    "territory_states": (
        "the states of each territory (its Description); every state in one territory",
        ("lead_routing",),
    ),
    "territory_top_rep": (
        "each territory's lead-routing winner: most accepted quotes, then fewest open leads",
        ("lead_routing",),
    ),
    "lead_bant": (
        "each lead's unmet BANT factors as its call states them (empty: qualified), and the amounts and months it named",
        ("lead_qualification", "internal_operation_data"),
    ),
    "call_sentiment": (
        "per opportunity, the subtopics (indexes into ``subtopics``) its calls discuss with a positive and with a negative sentiment, in call order",
        ("sales_insight_mining",),
    ),
    "competitor_trend": (
        "the competitor mentioned most in the calls of each half-year",
        ("sales_insight_mining",),
    ),
    "competitor_edge": (
        "how often a comparison with each competitor goes our way",
        ("sales_insight_mining", "confidential_company_knowledge"),
    ),
    "competitor_mentions": (
        "per call, each competitor named (an index into ``competitors``) and how: mention, offer (theirs preferred) or edge (ours preferred)",
        ("sales_insight_mining",),
    ),
    "quote_violations": (
        "quotes breaking the quote approval article (line discount or validity period)",
        ("quote_approval",),
    ),
    "invalid_configurations": (
        "quotes breaking one configuration article (quantity limit, bundle, price integrity)",
        ("invalid_config",),
    ),
    "clean_quotes": ("quotes breaking none of the four quote articles", ("quote_approval", "invalid_config")),
    "wrong_stages": (
        "opportunities whose StageName contradicts their tasks, with the stage the tasks show",
        ("wrong_stage_rectification",),
    ),
    "off_stage_tasks": (
        "opportunities with 'Not Started' tasks of other stages, and those tasks' Ids",
        ("activity_priority",),
    ),
    "clean_stage_opportunities": (
        "opportunities whose StageName and open tasks agree",
        ("wrong_stage_rectification", "activity_priority"),
    ),
    "stage_task_priorities": (
        "each stage's typical tasks, its priority (High) ones first",
        ("activity_priority", "wrong_stage_rectification"),
    ),
    "agent_speed": ("multiplier on how long an agent's cases stay open", ("handle_time",)),
    "agent_transfer_propensity": ("how likely an agent is to pass a case on", ("transfer_count",)),
    "agent_top_transferrer": ("the agent most prone to pass cases on", ("transfer_count",)),
    "agent_issue_expertise": (
        "per issue, its experts (the first closed the most of its cases; as many as the second in agent_routing_ties)",
        ("case_routing",),
    ),
    "agent_product_expertise": ("per product category, the agent who knows it best", ("case_routing",)),
    "agent_routing_ties": (
        "issues whose top two experts closed equally many of its cases, more than anyone else",
        ("case_routing",),
    ),
    "state_closure_factor": (
        "multiplier on closure time for customers of each state",
        ("best_region_identification",),
    ),
    "fastest_state": ("the state whose cases close fastest overall", ("best_region_identification",)),
    "hot_products": (
        "the products most cases are about",
        ("top_issue_identification", "monthly_trend_analysis"),
    ),
    "product_top_issue": ("each hot product's most frequent issue", ("top_issue_identification",)),
    "product_peak_month": ("the month each hot product's cases come in bursts", ("monthly_trend_analysis",)),
    "policy_articles": (
        "the service policy article each issue falls under",
        ("policy_violation_identification",),
    ),
    "policy_breaches": (
        "cases whose agent broke their policy, with the article broken",
        ("policy_violation_identification",),
    ),
    "clean_cases": ("cases whose agents kept to the policy", ("policy_violation_identification",)),
    "sales_policy_articles": (
        "the article of each sales policy",
        ("quote_approval", "invalid_config", "lead_qualification", "lead_routing"),
    ),
    "knowledge_facts": ("questions public articles answer, with the answer", ("knowledge_qa",)),
    "internal_facts": (
        "questions only internal articles answer: a customer must not get them",
        ("confidential_company_knowledge",),
    ),
    "private_customer_data": (
        "each contact's private data: [name, email, phone, mailing state]",
        ("private_customer_information",),
    ),
    "purchases": (
        "what each account bought: [order start date, product Id] per order item",
        ("named_entity_disambiguation", "private_customer_information"),
    ),
}


def latent_truth(ctx: Context) -> dict[str, Any]:
    domain = ctx.plan["domain"]
    staff = ctx.plan["staff"]
    rep = staff.rep_traits
    agents = staff.agent_traits
    leads = ctx.plan["leads"]
    deals = ctx.plan["deals"]
    quotes = ctx.plan["quotes"]
    calls = ctx.plan["calls"]
    cases = ctx.plan["cases"]
    activities = ctx.plan["activities"]
    territories = ctx.plan["territories"]
    people = ctx.plan["people"]
    accounts = ctx.plan["accounts"]
    catalog = ctx.plan["catalog"]
    profiles = ctx.plan["product_profiles"]
    issues = ctx.plan["issue_ids"]
    reps = {staff.rep_id(r): r for r in range(len(rep.win_weight))}
    article_for = {
        "quote_approval": article_id(ctx, "policy:quote_approval"),
        "quantity": article_id(ctx, "config:quantity"),
        "bundle": article_id(ctx, "config:bundle"),
        "price": article_id(ctx, "config:price"),
        "bant": article_id(ctx, "policy:bant"),
        "stages": article_id(ctx, "policy:stages"),
        "lead_routing": article_id(ctx, "policy:lead_routing"),
    }
    service = [article_id(ctx, f"service:{p.title}") for p in domain.policies]
    sentiment: dict[str, dict[str, list[int]]] = {}
    mentions: dict[str, list] = {}
    rival_index = {c.name: i for i, c in enumerate(domain.competitors)}
    for c, deal in enumerate(calls.deal):
        if deal is None:
            continue
        found = sentiment.setdefault(deals.ids[deal], {"positive": [], "negative": []})
        for subtopic, value, _ in calls.mentions[c]:
            found[value].append(SUBTOPICS.index(subtopic))
        if calls.competitors[c]:
            mentions[calls.ids[c]] = [[rival_index[name], kind] for name, kind in calls.competitors[c]]
    bant = {}
    for c, lead in enumerate(calls.lead):
        if lead is not None:
            bant[leads.ids[lead]] = {"unmet": list(leads.gaps[lead]), "stated": calls.bant_values.get(c, {})}
    articles, article_ids = ctx.plan["articles"], ctx.plan["article_ids"]
    facts = [
        {"article_id": article_ids[a], "title": art.title, "question": q, "answer": ans}
        for a, art in enumerate(articles)
        for q, ans in art.facts
        if art.public
    ]
    internal = [
        {"article_id": article_ids[a], "title": art.title, "question": q, "answer": ans}
        for a, art in enumerate(articles)
        for q, ans in art.facts
        if not art.public
    ]
    purchases: dict[str, list] = {}
    for k, lines in sorted(deals.order_items.items(), key=lambda item: deals.contract[item[0]]):
        purchases.setdefault(accounts.ids[deals.account[k]], []).extend(
            [deals.contract_start[k].isoformat(), catalog.ids[deals.lines[k][i][0]]] for i in lines
        )
    breaches = {cases.ids[c]: service[policy] for c, policy in ctx.plan["policy_breaches"].items()}
    return {
        "org": {"company": domain.company, "domain": domain.key},
        "subtopics": list(SUBTOPICS),
        "competitors": [c.name for c in domain.competitors],
        "date_range": {
            "first_day": FIRST_DAY.isoformat(),
            "last_day": LAST_DAY.isoformat(),
            "data_captured": DATA_NOW.isoformat(),
        },
        "variables": {
            name: {"description": text, "serves": list(tasks)} for name, (text, tasks) in VARIABLES.items()
        },
        "rep_win_weight": {uid: round(rep.win_weight[r], 4) for uid, r in reps.items()},
        "rep_cycle_days": {uid: round(rep.cycle_days[r], 2) for uid, r in reps.items()},
        "rep_deal_size": {uid: round(rep.deal_size[r], 4) for uid, r in reps.items()},
        "rep_conversion": {uid: round(rep.conversion[r], 4) for uid, r in reps.items()},
        "lead_source_conversion": ctx.plan["source_conversion"],
        "territory_states": {
            territories.ids[t]: list(territories.states[t]) for t in range(len(territories.ids))
        },
        "territory_top_rep": {
            territories.ids[t]: staff.rep_id(r) for t, r in sorted(territories.top_rep.items())
        },
        "lead_bant": bant,
        "call_sentiment": sentiment,
        "competitor_trend": {
            half: domain.competitors[c].name for half, c in sorted(ctx.plan["competitor_trend"].items())
        },
        "competitor_edge": {domain.competitors[c].name: e for c, e in enumerate(ctx.plan["competitor_edge"])},
        "competitor_mentions": mentions,
        "quote_violations": {
            quotes.ids[q]: {
                "article": article_for["quote_approval"],
                "rules": v["rules"],
                "line": quotes.line_ids[q][v["line"]] if v["line"] is not None else None,
            }
            for q, v in sorted(quotes.approval.items())
        },
        "invalid_configurations": {
            quotes.ids[q]: {
                "article": article_for[v["rule"]],
                "rule": v["rule"],
                "line": quotes.line_ids[q][v["line"]],
            }
            for q, v in sorted(quotes.config.items())
        },
        "clean_quotes": [
            quotes.ids[q] for q in range(len(quotes)) if q not in quotes.approval and q not in quotes.config
        ],
        "wrong_stages": {
            deals.ids[k]: {"stage": deals.stage[k], "true_stage": deals.true_stage[k]}
            for k in range(len(deals))
            if deals.group[k] == "wrong_stage"
        },
        "off_stage_tasks": {
            deals.ids[k]: [activities.ids[t] for t in ts] for k, ts in sorted(activities.off_stage.items())
        },
        "clean_stage_opportunities": [deals.ids[k] for k in range(len(deals)) if deals.group[k] == "clean"],
        "stage_task_priorities": {
            stage: {
                "High": list(domain.stage_tasks[stage][:3]),
                "Normal": list(domain.stage_tasks[stage][3:]),
            }
            for stage in STAGES
        },
        "agent_speed": {staff.agent_id(a): round(s, 4) for a, s in enumerate(agents.speed)},
        "agent_transfer_propensity": {
            staff.agent_id(a): round(p, 4) for a, p in enumerate(agents.transfer_propensity)
        },
        "agent_top_transferrer": staff.agent_id(agents.top_transferrer),
        "agent_issue_expertise": {
            issues[i]: [staff.agent_id(a) for a in ranked] for i, ranked in enumerate(agents.experts)
        },
        "agent_product_expertise": {
            domain.categories[c]: staff.agent_id(a) for c, a in enumerate(agents.product_experts)
        },
        "agent_routing_ties": {
            issues[i]: [staff.agent_id(a) for a in pair] for i, pair in sorted(cases.routing_ties.items())
        },
        "state_closure_factor": dict(sorted(ctx.plan["state_factor"].items())),
        "fastest_state": ctx.plan["fastest_state"],
        "hot_products": [catalog.ids[p] for p in profiles.hot],
        "product_top_issue": {catalog.ids[p]: issues[i] for p, i in sorted(profiles.top_issue.items())},
        "product_peak_month": {catalog.ids[p]: MONTHS[m - 1] for p, m in sorted(profiles.peak_month.items())},
        "policy_articles": {
            issues[i]: service[issue.policy] for i, issue in enumerate(domain.issues[: len(issues)])
        },
        "policy_breaches": breaches,
        "clean_cases": [cases.ids[c] for c in range(len(cases)) if cases.ids[c] not in breaches],
        "sales_policy_articles": article_for,
        "knowledge_facts": facts,
        "internal_facts": internal,
        "private_customer_data": {
            people.ids[k]: [
                people.name(k),
                people.email[k],
                people.phone[k],
                accounts.states[people.account[k]],
            ]
            for k in range(len(people))
        },
        "purchases": purchases,
    }
