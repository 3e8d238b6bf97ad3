"""Sales Territories: one active territory model and type, ten territories of states, and who covers them.

Each territory's ``Description`` lists its states as two-letter codes separated by commas, and
every state belongs to exactly one territory (lead-routing task: the lead's state finds its
territory). Each sales rep covers four territories (its home territory and three others), so
every territory has about a dozen to twenty reps.

Lead routing ranks a territory's reps by accepted quotes (a quote counts for the owner of its
opportunity), then by fewest open (unconverted) leads. :func:`repair_routing` makes sure the
ranking has one winner in every territory (the latent ``territory_top_rep``): where two reps
tie on both, the runner-up trades that territory for one of the winner's rivals elsewhere.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field

from crmarena_sf.loaders.generate.context import Context
from crmarena_sf.loaders.pro.domain import Domain
from crmarena_sf.loaders.pro.records import ORG_START, audit, emit

PER_REP = 4


@dataclass
class Territories:
    ids: list[str]
    names: list[str]
    states: list[tuple[str, ...]]
    members: list[list[int]] = field(default_factory=list)
    """Per territory, the rep indexes associated with it."""
    top_rep: dict[int, int] = field(default_factory=dict)


def plan_territories(ctx: Context) -> None:
    """Territory2Model, Territory2Type and Territory2 (written now); memberships planned, written later."""
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-territories")
    created = ORG_START + dt.timedelta(days=3)
    model_id = ctx.record_id("Territory2Model", 1)
    type_id = ctx.record_id("Territory2Type", 1)
    emit(
        ctx,
        "Territory2Model",
        [
            {
                "Id": model_id,
                "Name": f"{domain.company} Sales Regions",
                "DeveloperName": "Sales_Regions",
                "Description": "Territories by US state for the sales team.",
                **audit(ctx, created),
                "ActivatedDate": created,
                "State": "Active",
            }
        ],
    )
    emit(
        ctx,
        "Territory2Type",
        [
            {
                "Id": type_id,
                "DeveloperName": "Geographic_Region",
                "Language": "en_US",
                "MasterLabel": "Geographic Region",
                "Description": "A group of neighbouring states.",
                "Priority": 1,
                **audit(ctx, created),
            }
        ],
    )
    n = min(ctx.count("Territory2"), len(domain.territories))
    ids = [ctx.record_id("Territory2", t + 1) for t in range(n)]
    emit(
        ctx,
        "Territory2",
        [
            {
                "Id": ids[t],
                "Name": domain.territories[t][0],
                "Territory2TypeId": type_id,
                "Territory2ModelId": model_id,
                "Description": ", ".join(domain.territories[t][1]),
                "AccountAccessLevel": "Read/Write",
                "OpportunityAccessLevel": "Read/Write",
                "CaseAccessLevel": "Read Only",
                "ContactAccessLevel": "Read Only",
                "DeveloperName": domain.territories[t][0].replace(" ", "_").replace("-", "_"),
            }
            for t in range(n)
        ],
    )
    territories = Territories(
        ids, [t[0] for t in domain.territories[:n]], [t[1] for t in domain.territories[:n]]
    )
    territories.members = [[] for _ in range(n)]
    for r in range(ctx.sizing.reps):
        home = r % n
        # The least covered territories first, so a small org still has a rep in every one.
        candidates = sorted(
            (t for t in range(n) if t != home), key=lambda t: (len(territories.members[t]), rnd.random())
        )
        for t in [home, *candidates[: min(PER_REP - 1, n - 1)]]:
            territories.members[t].append(r)
    ctx.plan["territories"] = territories


def routing_rank(territories: Territories, t: int, accepted: Counter, open_leads: Counter) -> list[int]:
    """The reps of territory ``t``, best first: most accepted quotes, then fewest open leads, then index."""
    return sorted(territories.members[t], key=lambda r: (-accepted[r], open_leads[r], r))


def _tied(territories: Territories, t: int, accepted: Counter, open_leads: Counter) -> bool:
    ranked = routing_rank(territories, t, accepted, open_leads)
    if len(ranked) < 2:
        return False
    a, b = ranked[0], ranked[1]
    return (accepted[a], open_leads[a]) == (accepted[b], open_leads[b])


def repair_routing(ctx: Context) -> None:
    """Give every territory a unique lead-routing winner, then write the associations."""
    territories: Territories = ctx.plan["territories"]
    accepted, open_leads = routing_counts(ctx)
    n = len(territories.members)
    for _ in range(20 * n):
        tied = [t for t in range(n) if _tied(territories, t, accepted, open_leads)]
        if not tied:
            break
        t = tied[0]
        ranked = routing_rank(territories, t, accepted, open_leads)
        runner_up = ranked[1]
        # Swap the runner-up out of t for a rep of another territory who ranks below t's winner.
        best = ranked[0]
        swapped = False
        for u in range(n):
            if u == t:
                continue
            for r in territories.members[u]:
                if r in territories.members[t] or runner_up in territories.members[u]:
                    continue
                if (accepted[r], -open_leads[r]) < (accepted[best], -open_leads[best]):
                    territories.members[t][territories.members[t].index(runner_up)] = r
                    territories.members[u][territories.members[u].index(r)] = runner_up
                    swapped = True
                    break
            if swapped:
                break
        if not swapped:
            break
    territories.top_rep = {t: routing_rank(territories, t, accepted, open_leads)[0] for t in range(n)}
    _write_associations(ctx)


def routing_counts(ctx: Context) -> tuple[Counter, Counter]:
    """Per rep: accepted quotes (through their opportunities) and open (unconverted) leads."""
    quotes = ctx.plan["quotes"]
    deals = ctx.plan["deals"]
    leads = ctx.plan["leads"]
    accepted = Counter(
        deals.owner[quotes.deal[q]] for q in range(len(quotes)) if quotes.status[q] == "Accepted"
    )
    open_leads = Counter(leads.owner[k] for k in range(len(leads)) if leads.converted[k] is None)
    return accepted, open_leads


def _write_associations(ctx: Context) -> None:
    territories: Territories = ctx.plan["territories"]
    staff = ctx.plan["staff"]
    # Like Territory2, an association's only audit fields are LastModified*, which no one sets:
    # the org stamps them (a load fills them in, :mod:`crmarena_sf.loaders.fill`).
    rows = []
    for t, members in enumerate(territories.members):
        for r in sorted(members):
            rows.append(
                {
                    "Id": None,
                    "UserId": staff.rep_id(r),
                    "Territory2Id": territories.ids[t],
                    "IsActive": True,
                    "RoleInTerritory2": "Sales Rep",
                }
            )
    rows.sort(key=lambda row: (row["UserId"], row["Territory2Id"]))
    for k, row in enumerate(rows):
        row["Id"] = ctx.record_id("UserTerritory2Association", k + 1)
    emit(ctx, "UserTerritory2Association", rows)
