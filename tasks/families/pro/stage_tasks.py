"""What activity_priority and wrong_stage_rectification share: which stage each of a deal's tasks belongs to.

The org's article "Opportunity Stages and Their Activities" lists each stage's typical tasks,
with "the account", "the contact" or "the customer" where a task names them
(:func:`crmarena_sf.tasks.pro.texts.stage_guide`). A task's stage is the one stage whose
activity its Subject is; a deal's open tasks are its tasks with Status 'Not Started'.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from crmarena_sf.tasks.families.base import Draft
from crmarena_sf.tasks.families.pro.base import pick_drafts, read_article
from crmarena_sf.tasks.org_client import OrgClient, quote
from crmarena_sf.tasks.pro.texts import STAGE_ARTICLE, stage_guide, stage_of, stage_patterns

GUIDE_INTRO = (
    "Each stage of an opportunity has its typical activities; an opportunity's open tasks should be "
    "activities of its current stage. Examples of each stage's activities:"
)


def guide_text(article: str) -> str:
    """The stage guide a task's required metadata shows: the article's lists, one stage after another."""
    guide = stage_guide(article)
    blocks = [
        f"{stage}:\n" + "\n".join(f"    - {a}" for a in activities) for stage, activities in guide.items()
    ]
    return GUIDE_INTRO + "\n" + "\n".join(blocks)


def open_task_stages(tasks: list[tuple[str, str, str]], article: str) -> dict[str, str | None] | None:
    """Task Id -> stage of each 'Not Started' task (None for a subject no stage lists)."""
    patterns = _patterns(article)
    return {
        task_id: stage_of(subject, patterns) for task_id, subject, status in tasks if status == "Not Started"
    }


@lru_cache(maxsize=8)
def _patterns(article: str):
    return stage_patterns(stage_guide(article))


def read_deal(client: OrgClient, opportunity_id: str) -> tuple[str, dict[str, str | None]]:
    """(StageName, open task Id -> its stage) of one opportunity, by SOQL."""
    opp = quote(opportunity_id)
    stage = client.query(f"SELECT StageName FROM Opportunity WHERE Id = {opp}")[0]["StageName"]
    tasks = client.query(
        f"SELECT Id, Subject, Status FROM Task WHERE WhatId = {opp} AND Status = 'Not Started' ORDER BY Id"
    )
    _, article = read_article(client, STAGE_ARTICLE)
    stages = open_task_stages([(t["Id"], t["Subject"] or "", t["Status"]) for t in tasks], article)
    return stage, stages


def deal_drafts(
    ctx,
    n: int,
    n_none: int,
    answer_of: Callable[[str, dict[str, str | None]], object],
    draft_of: Callable[[str, object], tuple[str, str]],
) -> list[Draft]:
    """Drafts over the org's deals in a seeded order: ``answer_of(stage, open task stages)`` (LookupError:
    the deal is in doubt, skipped) gives each one's answer, ``draft_of(opportunity_id, answer)`` its
    (query, required metadata); ``n`` of them, ``n_none`` with None answers."""
    rnd, sales = ctx.rnd, ctx.sales
    article = sales.article(STAGE_ARTICLE).text
    deals = sorted(sales.opportunity_tasks)
    rnd.shuffle(deals)
    opportunities = sales.opportunities

    def answer(opportunity_id: str):
        stages = open_task_stages(sales.opportunity_tasks[opportunity_id], article)
        return answer_of(opportunities[opportunity_id].stage, stages)

    def draft(opportunity_id: str, answer) -> Draft:
        query, required = draft_of(opportunity_id, answer)
        return Draft({"opportunity_id": opportunity_id}, query, required, answer, (opportunity_id,))

    return pick_drafts(deals, n, n_none, answer, draft)
