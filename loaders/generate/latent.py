"""The latent variables behind the org: hidden traits that shape the records and that tasks probe.

- agents: workload, speed (handle time), propensity to transfer cases, expertise per issue
  (an expert gets, keeps and closes more of that issue's cases, and closes them faster);
- products: how often they draw complaints, their dominant issue (defect profile) and the
  month their complaints peak (seasonality);
- customers: how often they complain and, for habitual complainers, a favourite issue;
- regions: a closure-time factor per state, with one planted fastest state.

The values are drawn here; :mod:`crmarena_sf.loaders.generate.cases` realizes them into cases and
repairs the few random draws that would blur a planted answer. What the manifest records
is built by :func:`truth` from the realized plan.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from crmarena_sf.loaders.generate import vocab


@dataclass
class AgentTraits:
    workload: list[float]
    speed: list[float]
    """Multiplier on closure time (below 1 is faster)."""
    transfer_propensity: list[float]
    experts: list[list[int]]
    """Per issue, agent indexes by decreasing expertise: [top expert, second, ...]."""
    top_transferrer: int

    def expertise(self, agent: int, issue: int) -> int:
        """0 for none, 2 for the issue's top expert, 1 for a secondary expert."""
        ranked = self.experts[issue]
        if ranked and ranked[0] == agent:
            return 2
        return 1 if agent in ranked[1:] else 0


def draw_agent_traits(rnd: random.Random, n_agents: int, n_issues: int) -> AgentTraits:
    """Agents' hidden traits; each issue gets a distinct top expert while there are enough agents."""
    workload = [rnd.lognormvariate(0, 0.9) for _ in range(n_agents)]
    speed = [rnd.lognormvariate(0, 0.4) for _ in range(n_agents)]
    propensity = [rnd.betavariate(1.2, 8) for _ in range(n_agents)]
    top_transferrer = rnd.randrange(n_agents)
    propensity[top_transferrer] = max(propensity) * 1.6 + 0.2
    order = list(range(n_agents))
    rnd.shuffle(order)
    experts = []
    for issue in range(n_issues):
        top = order[issue % n_agents]
        others = [a for a in rnd.sample(range(n_agents), min(3, n_agents)) if a != top][:2]
        experts.append([top, *others])
    return AgentTraits(workload, speed, propensity, experts, top_transferrer)


@dataclass
class RegionTraits:
    factor: dict[str, float]
    """Multiplier on closure time per state code."""
    fastest: str


def draw_region_traits(rnd: random.Random) -> RegionTraits:
    """Closure-time factors per state; the planted fastest state is a populous one (many cases)."""
    factor = {s.code: rnd.uniform(0.8, 1.35) for s in vocab.STATES}
    populous = [s.code for s in vocab.STATES if s.weight >= 5]
    fastest = rnd.choice(populous)
    factor[fastest] = 0.42
    return RegionTraits(factor, fastest)


@dataclass
class CustomerHabits:
    rate: list[float]
    """Relative propensity to open cases."""
    favorite_issue: list[int | None]
    """The issue a habitual complainer keeps raising (None for everyone else)."""


def draw_customer_habits(rnd: random.Random, n_customers: int, n_issues: int) -> CustomerHabits:
    rate, favorite = [], []
    for _ in range(n_customers):
        habitual = rnd.random() < 0.1
        rate.append(rnd.lognormvariate(0, 0.6) * (5.0 if habitual else 1.0))
        favorite.append(rnd.randrange(n_issues) if habitual else None)
    return CustomerHabits(rate, favorite)


@dataclass
class ProductProfiles:
    case_weight: list[float]
    """Relative chance that a case concerns the product (a few "hot" products draw most cases)."""
    hot: list[bool]
    peak_month: list[int]
    """1..12: the month complaints about the product peak."""
    seasonality: list[float]
    """Share of the product's cases that fall in its peak month."""
    top_issue: list[int]
    issue_weights: list[list[float]]


def draw_product_profiles(rnd: random.Random, n_products: int, n_issues: int, n_hot: int) -> ProductProfiles:
    hot_set = set(rnd.sample(range(n_products), min(n_hot, n_products)))
    weights, hot, peak, season, top, issue_weights = [], [], [], [], [], []
    for p in range(n_products):
        is_hot = p in hot_set
        hot.append(is_hot)
        weights.append(rnd.uniform(8, 14) if is_hot else rnd.lognormvariate(0, 0.5) * 0.35)
        peak.append(rnd.randint(1, 12))
        season.append(rnd.uniform(0.35, 0.5) if is_hot else rnd.uniform(0.1, 0.3))
        dominant = rnd.randrange(n_issues)
        top.append(dominant)
        w = [rnd.uniform(0.2, 1.0) for _ in range(n_issues)]
        w[dominant] = sum(w) * 0.9
        issue_weights.append(w)
    return ProductProfiles(weights, hot, peak, season, top, issue_weights)


def month_name(month: int) -> str:
    return vocab.MONTHS[month - 1]


def lognormal_noise(rnd: random.Random, sigma: float) -> float:
    """A positive multiplier with median 1."""
    return math.exp(rnd.gauss(0, sigma))
