"""The personas of the Pro task records: three pools of sixteen, written for this project.

CRMArena-Pro gives every record a one-sentence ``persona`` (its user simulator speaks as it in
the multi-turn splits; single-turn runs do not show it). Its official B2B split draws them from
three pools: employees' work styles for the internal tasks and internal_operation_data,
consumers for knowledge_qa, private_customer_information and confidential_company_knowledge,
and business buyers for named_entity_disambiguation. The suites here assign them the same way,
except that named_entity_disambiguation on the B2C org (a car dealership's consumers; the B2C
split was not available to compare) draws from the consumers. Each instance's persona is drawn
with the build's seeded random generator.
"""

from __future__ import annotations

EMPLOYEES = (
    "You plan your week on Monday morning and like answers that fit into that plan.",
    "You check every figure twice before it goes into a report.",
    "You work from the numbers and distrust anecdotes.",
    "You want the short answer first and the details only if you ask.",
    "You keep a running list of open items and close them one by one.",
    "You are new to the team and careful to follow the documented process.",
    "You juggle several accounts and need answers you can act on quickly.",
    "You look for patterns across teams rather than single cases.",
    "You are preparing for a quarterly business review and want solid facts.",
    "You prefer to settle questions with data before a meeting, not during it.",
    "You coach other reps and like to understand why an answer is right.",
    "You are wary of exceptions and want the rule applied as written.",
    "You care about fairness when work is assigned across the team.",
    "You are under a deadline today and need one clear answer.",
    "You like tidy records and notice when something is out of place.",
    "You compare this month with the last before drawing conclusions.",
)
"""Work styles of the company's own staff (sales, service and operations)."""

CONSUMERS = (
    "You are a first-time buyer who asks plain questions.",
    "You read the small print before you agree to anything.",
    "You are comparing offers from several companies this week.",
    "You bought from this company before and expect to be recognized.",
    "You are in a hurry and type short messages.",
    "You are polite but persistent until you get what you asked for.",
    "You are worried about hidden costs.",
    "You like to know how things work before you use them.",
    "You are shopping on behalf of an elderly parent.",
    "You had a frustrating experience last time and are a little impatient.",
    "You care about the environmental footprint of what you buy.",
    "You prefer to solve problems yourself with a bit of guidance.",
    "You are curious and ask follow-up questions.",
    "You are budget-minded and watch every dollar.",
    "You are a loyal customer who recommends the company to friends.",
    "You are cautious about sharing your personal details.",
)
"""Individual customers of the company."""

BUYERS = (
    "You buy software for an engineering department of forty people.",
    "You run procurement for a mid-sized manufacturer and track every contract.",
    "You are an IT manager responsible for licences and renewals.",
    "You are a project lead who ordered tools for a new product line.",
    "You handle vendor relations and want clear records of what was bought.",
    "You are a finance controller reconciling last quarter's purchases.",
    "You are an operations manager who signs off on equipment orders.",
    "You are the technical owner of your team's design tool stack.",
    "You are a purchasing agent who places orders for several sites.",
    "You are a startup's co-founder who made the purchase yourself.",
    "You manage a lab and keep an inventory of every tool you license.",
    "You are an administrator who onboards new engineers to the tools.",
    "You are reviewing spend with a vendor before a renewal talk.",
    "You coordinate purchases between engineering and finance.",
    "You are a department head checking what your team ordered.",
    "You are an office manager who keeps the company's purchase records.",
)
"""People who buy for a business."""

POOLS = {"employee": EMPLOYEES, "consumer": CONSUMERS, "buyer": BUYERS}


def persona(pool: str, suite: str, rnd) -> str:
    """A persona from ``pool`` (named_entity_disambiguation's buyers become consumers on the B2C org)."""
    if pool == "buyer" and suite == "pro-b2c":
        pool = "consumer"
    return rnd.choice(POOLS[pool])
