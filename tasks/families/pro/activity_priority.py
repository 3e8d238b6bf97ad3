"""activity_priority: the open tasks of an opportunity that belong to another stage than its own.

``params``: ``opportunity_id``. Gold: the opportunity's tasks with Status 'Not Started' whose
Subject is an activity of another stage than the opportunity's StageName, by the stages article
(:mod:`.stage_tasks`); their Ids, sorted, as a list (an exact set). None when every open task
fits the stage. Only deals are asked about whose every open task is an activity of exactly one
stage, and at least one of them of the deal's own stage (so the StageName is not itself in
doubt, as it is for the deals wrong_stage_rectification asks about): no task is borderline.
"""

from __future__ import annotations

from crmarena_sf.tasks.families.base import Draft, Solution
from crmarena_sf.tasks.families.pro.base import ProBuildContext
from crmarena_sf.tasks.families.pro.stage_tasks import deal_drafts, guide_text, read_deal
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.pro.texts import STAGE_ARTICLE

NAME = "activity_priority"
METRIC = "exact_match"
NONE_SHARE = 0.2

QUESTIONS = (
    "Which of this opportunity's 'Not Started' tasks do not belong to its current stage?",
    "Which open ('Not Started') tasks on this opportunity belong to some other stage than the one it is in?",
    "Some 'Not Started' tasks on this opportunity may belong to a different stage. Which ones?",
    "Find the tasks marked 'Not Started' for this opportunity that are out of step with its stage.",
)
ANSWER_FORMAT = " Return only the Ids of those tasks, or None if every open task fits the stage."


def off_stage(stage: str, stages: dict[str, str | None]) -> tuple[str, ...] | None:
    """The off-stage task Ids (None: all fit); LookupError when a task or the stage is in doubt."""
    if not stages or None in stages.values():
        raise LookupError("an open task is no stage's activity")
    if stage not in stages.values():
        raise LookupError("no open task belongs to the opportunity's stage")
    return tuple(sorted(t for t, s in stages.items() if s != stage)) or None


def solve(client: OrgClient, params: dict) -> Solution:
    stage, stages = read_deal(client, params["opportunity_id"])
    return Solution(off_stage(stage, stages))


def generate(ctx: ProBuildContext, n: int, n_none: int) -> list[Draft]:
    guide = guide_text(ctx.sales.article(STAGE_ARTICLE).text)

    def draft_of(opportunity_id: str, answer) -> tuple[str, str]:
        required = f"## Activity priority guide\n{guide}\n\n- Opportunity in question (Id): {opportunity_id}"
        return ctx.rnd.choice(QUESTIONS) + ANSWER_FORMAT, required

    return deal_drafts(ctx, n, n_none, off_stage, draft_of)
