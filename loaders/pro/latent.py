"""The latent variables of a CRMArena-Pro org: hidden traits drawn first, realized by the steps.

Each variable is named in the manifest (:mod:`.truth`) with the task it serves, and each can be
read back from the data by SOQL (the tests do exactly that):

- sales reps: ``rep_win_weight`` (how many of their deals close: sales amount, lead routing's
  accepted quotes), ``rep_cycle_days`` (days from an opportunity's creation to the signed
  contract: sales cycle), ``rep_deal_size`` (quantities on their deals: sales amount),
  ``rep_conversion`` (how many of their leads convert: conversion rate), ``rep_workload``;
- ``lead_source_conversion``: the conversion propensity of each lead source (conversion rate);
- service agents: ``agent_speed`` (handle time), ``agent_transfer_propensity`` (transfer count),
  ``agent_issue_expertise`` and ``agent_product_expertise`` (case routing);
- ``state_closure_factor``: how fast cases of customers in each state close (best region);
- products: ``hot_products`` draw most cases, each with a ``product_top_issue`` (top issue) and
  a ``product_peak_month`` in which its cases come in bursts (monthly trend);
- ``competitor_trend``: which rival is mentioned most in each half-year of calls, and
  ``competitor_edge`` how often we come out ahead of each (sales insight mining).

The per-record latent variables (each lead's BANT signals, the sentiment of each call's
subtopics, planted quote and configuration violations, mis-staged opportunities, off-stage
tasks, planted policy breaches in case conversations) are drawn by the steps that write those
records and recorded the same way.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, fields

from crmarena_sf.loaders.generate.latent import AgentTraits as ServiceTraits
from crmarena_sf.loaders.generate.latent import draw_agent_traits as draw_service_traits


@dataclass
class RepTraits:
    win_weight: list[float]
    cycle_days: list[float]
    deal_size: list[float]
    conversion: list[float]
    workload: list[float]


def draw_rep_traits(rnd: random.Random, n: int) -> RepTraits:
    return RepTraits(
        win_weight=[rnd.lognormvariate(0, 0.7) for _ in range(n)],
        cycle_days=[rnd.uniform(25, 170) for _ in range(n)],
        deal_size=[rnd.lognormvariate(0, 0.45) for _ in range(n)],
        conversion=[rnd.lognormvariate(0, 0.55) for _ in range(n)],
        workload=[rnd.lognormvariate(0, 0.4) for _ in range(n)],
    )


LEAD_SOURCES = ("Web", "Phone Inquiry", "Partner Referral", "Purchased List", "Other")
"""Lead.LeadSource values of a new org (Object Reference: Lead)."""


def draw_source_conversion(rnd: random.Random) -> dict[str, float]:
    """Base probability that a lead of each source converts (referrals best, bought lists worst)."""
    base = {
        "Web": 0.22,
        "Phone Inquiry": 0.3,
        "Partner Referral": 0.45,
        "Purchased List": 0.07,
        "Other": 0.15,
    }
    return {source: round(p * rnd.uniform(0.85, 1.15), 4) for source, p in base.items()}


@dataclass
class AgentTraits(ServiceTraits):
    """CRMArena's service-agent traits (:class:`crmarena_sf.loaders.generate.latent.AgentTraits`:
    workload, speed, transfer propensity with one planted top transferrer, issue experts), plus
    the agent who knows each product category best."""

    product_experts: list[int] = field(default_factory=list)


def draw_agent_traits(rnd: random.Random, n_agents: int, n_issues: int, n_categories: int) -> AgentTraits:
    base = draw_service_traits(rnd, n_agents, n_issues)
    experts = [rnd.randrange(n_agents) for _ in range(n_categories)]
    return AgentTraits(**{f.name: getattr(base, f.name) for f in fields(base)}, product_experts=experts)


FASTEST_FACTOR = 0.45
"""The planted fastest state's closure-time multiplier (:mod:`.service` chooses the state)."""


def draw_state_factors(rnd: random.Random, states: list[str]) -> dict[str, float]:
    """Closure-time multiplier per state, 0.8 to 1.4."""
    return {s: round(rnd.uniform(0.8, 1.4), 4) for s in states}


@dataclass
class ProductProfiles:
    hot: list[int]
    """Indexes of the products most cases are about."""
    top_issue: dict[int, int]
    peak_month: dict[int, int]


def draw_product_profiles(
    rnd: random.Random, sellable: list[int], n_issues: int, n_hot: int
) -> ProductProfiles:
    hot = sorted(rnd.sample(sellable, min(n_hot, len(sellable))))
    issues = list(range(n_issues))
    rnd.shuffle(issues)
    months = list(range(1, 13))
    rnd.shuffle(months)
    return ProductProfiles(
        hot,
        {p: issues[k % n_issues] for k, p in enumerate(hot)},
        {p: months[k % 12] for k, p in enumerate(hot)},
    )


def draw_competitor_trend(
    rnd: random.Random, n_competitors: int, halves: list[str]
) -> tuple[dict[str, int], list[float]]:
    """The competitor leading the calls of each half-year, and how often we beat each one."""
    trend = {}
    previous = None
    for half in halves:
        choices = [c for c in range(n_competitors) if c != previous]
        previous = trend[half] = rnd.choice(choices)
    edge = [round(rnd.uniform(0.2, 0.8), 4) for _ in range(n_competitors)]
    return trend, edge


def lognormal_noise(rnd: random.Random, sigma: float) -> float:
    """A positive multiplier with median 1."""
    return math.exp(rnd.gauss(0, sigma))
