"""CRMArena's service tasks on the Pro orgs: v1's generators and solvers, where the policy is the same.

Seven of the nine CRMArena tasks keep their v1 family's policy text, generator and reference
solver on the sales orgs (each v1 module's docstring says how its question and gold are made);
only CRMArena-Pro's None shares differ (20 of 100 where it has None answers, none for case
routing and monthly trend), and:

- best_region_identification has None answers in CRMArena-Pro (v1 has none): periods in which
  no customer with a state had a case closed, found among recent periods after the data's
  last day (:func:`crmarena_sf.tasks.families.pro.base.quiet_window`);
- named_entity_disambiguation's customers name a product by the vague description its
  catalog entry gives (``Product2.Description``: "The BoardWeave Studio is a circuit board
  layout suite with ..."), or that description less a word, instead of its name less a word
  (the Pro catalogs' names are two or three words).

knowledge_qa and policy_violation_identification read the Pro orgs' own articles and agents'
statements, so they have families of their own (:mod:`.knowledge_qa`, :mod:`.policy_violation`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from crmarena_sf.tasks.families import (
    best_region,
    case_routing,
    handle_time,
    monthly_trend,
    named_entity,
    top_issue,
    transfer_count,
)
from crmarena_sf.tasks.families.base import BuildContext, Draft, when_slots, window_params, window_required
from crmarena_sf.tasks.families.pro.base import quiet_window


@dataclass(frozen=True)
class SharedFamily:
    """A v1 family run on a Pro org: its name, generator and solver."""

    NAME: str
    generate: Callable
    solve: Callable
    doc: str


def _shared(module, generate: Callable | None = None) -> SharedFamily:
    return SharedFamily(module.NAME, generate or module.generate, module.solve, module.__doc__ or "")


def best_region_generate(ctx: BuildContext, n: int, n_none: int) -> list[Draft]:
    """v1's answered periods, then ``n_none`` periods without a closed case of a customer with a state."""
    drafts = best_region.generate(ctx, n - n_none, 0)
    seen = {d.key for d in drafts}
    for _ in range(200 * max(n_none, 1)):
        if len(drafts) >= n:
            break
        today, window = quiet_window(ctx)
        key = (window.start, window.end)
        if key in seen or best_region.expected(ctx, window.start, window.end)[0] is not None:
            continue
        seen.add(key)
        query = ctx.rnd.choice(best_region.QUESTIONS).format(**when_slots(window))
        required = window_required(today, best_region.POLICY)
        drafts.append(Draft(window_params(window), query, required, None, key))
    ctx.rnd.shuffle(drafts)
    return drafts


_DESCRIBED = re.compile(r"^The .+? is an? (?P<family>.+?) with ")


def description_terms(ctx: BuildContext, product: str) -> list[str]:
    """The vague names of a product: the ends of its catalog description's noun phrase ("layout suite",
    "board layout suite" ...), which a search finds in other products' descriptions too."""
    description = (ctx.sales.products.get(product) or {}).get("Description") or ""
    found = _DESCRIBED.match(description)
    if not found:
        return []
    words = found["family"].lower().split()
    return [" ".join(words[i:]) for i in range(len(words))]


SHARED = {
    f.NAME: f
    for f in (
        _shared(case_routing),
        _shared(handle_time),
        _shared(transfer_count),
        _shared(top_issue),
        _shared(monthly_trend),
        _shared(best_region, best_region_generate),
        _shared(named_entity, partial(named_entity.generate, terms=description_terms, passes=12)),
    )
}
"""Task name -> the v1 family run on the Pro orgs."""
