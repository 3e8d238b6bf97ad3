"""The latent truth for the manifest: what the generator planted, keyed by record Id.

It never goes into the org (agents must discover it from the data); task generation and
tests check answers against it. Lists that grow with the org (clean cases, sample
purchases for disambiguation) are capped so a ``--scale`` manifest stays small.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.loaders.generate import vocab
from crmarena_sf.loaders.generate.cases import DATA_NOW
from crmarena_sf.loaders.generate.context import Context
from crmarena_sf.loaders.generate.latent import month_name

SAMPLE_CAP = 1000


def _iso(value) -> str:
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


def latent_truth(ctx: Context) -> dict[str, Any]:
    """Everything planted, as JSON-ready values in a stable order."""
    issues = ctx.plan["issues"]
    agents = ctx.plan["agents"]
    traits = agents.traits
    customers = ctx.plan["customers"]
    catalog = ctx.plan["catalog"]
    profiles = catalog.profiles
    cases = ctx.plan["cases"]
    regions = ctx.plan["regions"]
    case_ids = [ctx.record_id("Case", k + 1) for k in range(len(cases))]
    hot = [p for p in range(len(catalog)) if profiles.hot[p]]
    expertise: dict[str, dict[str, str]] = {}
    for issue, ranked in enumerate(traits.experts):
        for rank, agent in enumerate(ranked):
            expertise.setdefault(agents.ids[agent], {})[issues[issue]] = "top" if rank == 0 else "secondary"
    violations = {case_ids[k]: article for k, article in sorted(ctx.plan.get("violations", {}).items())}
    clean = [case_ids[k] for k in range(len(cases)) if case_ids[k] not in violations][:SAMPLE_CAP]
    families: dict[str, list[str]] = {}
    for p, family in enumerate(catalog.family):
        families.setdefault(family, []).append(catalog.ids[p])
    return {
        "date_range": {
            "first_case_created": _iso(min(cases.created)) if len(cases) else None,
            "last_case_created": _iso(max(cases.created)) if len(cases) else None,
            "data_captured": _iso(DATA_NOW),
            "first_order": vocab.FIRST_ORDER.isoformat(),
        },
        "issues": {issues[i]: kind.name for i, kind in enumerate(ctx.plan["issue_kinds"])},
        "best_agent_by_issue": {issues[i]: agents.ids[ranked[0]] for i, ranked in enumerate(traits.experts)},
        "routing_ties": {
            issues[i]: [agents.ids[a] for a in pair] for i, pair in sorted(cases.routing_ties.items())
        },
        "agent_expertise": dict(sorted(expertise.items())),
        "agent_speed": {agents.ids[a]: round(s, 4) for a, s in enumerate(traits.speed)},
        "transfer_propensity": {agents.ids[a]: round(p, 4) for a, p in enumerate(traits.transfer_propensity)},
        "top_transferrer": agents.ids[traits.top_transferrer],
        "hot_products": [catalog.ids[p] for p in hot],
        "product_top_issue": {catalog.ids[p]: issues[profiles.top_issue[p]] for p in hot},
        "product_peak_month": {catalog.ids[p]: month_name(profiles.peak_month[p]) for p in hot},
        "state_closure_factor": {s: round(f, 4) for s, f in sorted(regions.factor.items())},
        "fastest_state": regions.fastest,
        "customer_habits": {
            customers.account_ids[c]: {
                "case_rate": round(customers.habits.rate[c], 4),
                "favorite_issue": issues[customers.habits.favorite_issue[c]],
            }
            for c in range(len(customers))
            if customers.habits.favorite_issue[c] is not None
        },
        "policy_articles": {
            issues[i]: article for i, article in sorted(ctx.plan.get("policy_article", {}).items())
        },
        "policy_violations": violations,
        "clean_cases": clean,
        "knowledge_facts": [
            {"article_id": article_id, "title": title, "question": q, "answer": a}
            for article_id, title, article in ctx.plan.get("articles", [])
            for q, a in article.facts
        ],
        "product_families": {f: ids for f, ids in sorted(families.items()) if len(ids) > 1},
    }
