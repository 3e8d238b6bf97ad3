"""wrong_stage_rectification: the stage an opportunity should be in, when its StageName is wrong.

``params``: ``opportunity_id``. Gold: the stage its open ('Not Started') tasks belong to, by the
stages article (:mod:`.stage_tasks`); None when that is the opportunity's StageName, otherwise
that stage's label (Qualification, Discovery, Quote, Negotiation or Closed). Only deals are
asked about whose open tasks all belong to one and the same stage (a deal with tasks of
several stages open is activity_priority's question, not this one's).
"""

from __future__ import annotations

from crmarena_sf.tasks.families.base import Draft, Solution
from crmarena_sf.tasks.families.pro.base import ProBuildContext
from crmarena_sf.tasks.families.pro.stage_tasks import deal_drafts, read_deal
from crmarena_sf.tasks.org_client import OrgClient

NAME = "wrong_stage_rectification"
METRIC = "exact_match"
NONE_SHARE = 0.2

QUESTIONS = (
    "Does this opportunity's stage match the work on it? If it does not, what should the stage be?",
    "Is the StageName of this opportunity right, given its open tasks? If not, which stage is correct?",
    "Check whether this opportunity sits in the right stage; if it is in the wrong one, name the right one.",
    "Given the tasks planned on this opportunity, is its stage correct? If not, what should it be?",
)
ANSWER_FORMAT = (
    " Answer with the stage it belongs in (one of Qualification, Discovery, Quote, Negotiation, "
    "Closed), or None if its current stage fits."
)
REQUIRED = (
    "- Opportunity in question (Id): {opportunity_id}\n"
    "- An opportunity's stage is the stage its open ('Not Started') tasks belong to; the knowledge "
    "article on opportunity stages lists the activities of each stage."
)


def true_stage(stage: str, stages: dict[str, str | None]) -> str | None:
    """The stage the open tasks show when it is not ``stage`` (None: it is); LookupError when unclear."""
    found = set(stages.values())
    if len(found) != 1 or None in found:
        raise LookupError("the open tasks do not belong to exactly one stage")
    shown = found.pop()
    return None if shown == stage else shown


def solve(client: OrgClient, params: dict) -> Solution:
    stage, stages = read_deal(client, params["opportunity_id"])
    return Solution(true_stage(stage, stages))


def generate(ctx: ProBuildContext, n: int, n_none: int) -> list[Draft]:
    def draft_of(opportunity_id: str, answer) -> tuple[str, str]:
        return ctx.rnd.choice(QUESTIONS) + ANSWER_FORMAT, REQUIRED.format(opportunity_id=opportunity_id)

    return deal_drafts(ctx, n, n_none, true_stage, draft_of)
