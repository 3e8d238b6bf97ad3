"""lead_qualification: which BANT factors a lead fails, from its calls and the qualification article.

``params``: ``lead_id``. The agent reads the lead's voice call transcripts
(``VoiceCallTranscript__c.LeadId__c``) and the lead qualification article. Gold: every line the
lead says on its calls is read against the BANT answers the orgs' leads give
(:func:`crmarena_sf.tasks.pro.texts.bant_verdicts`): a stated budget below the article's floor
fails Budget, a purchase planned later than its timeline fails Timeline, the other answers say
themselves whether the factor is met. The answer is the unmet factors in BANT order, as a list
(CRMArena-Pro's file joins two factors into one string, ``"Authority, Need"``; here each is its
own element, so the list is an exact set); a lead that meets all four is qualified: None.
Only leads whose calls answer all four factors are asked about.
"""

from __future__ import annotations

from crmarena_sf.loaders.pro.domain import BANT
from crmarena_sf.tasks.families.base import Draft, Solution
from crmarena_sf.tasks.families.pro.base import ProBuildContext, pick_drafts, read_article
from crmarena_sf.tasks.org_client import OrgClient, quote
from crmarena_sf.tasks.pro.texts import bant_thresholds, bant_verdicts, transcript_lines, unmet_factors

NAME = "lead_qualification"
METRIC = "exact_match"
NONE_SHARE = 0.2
ARTICLE = "Lead Qualification Criteria (BANT)"

QUESTIONS = (
    "Does this lead qualify, judging by our latest calls with them? If not, which of the BANT factors "
    "(Budget, Authority, Need, Timeline) does it fail?",
    "Based on the conversations we have had with this lead, is it qualified? If it is not, name the BANT "
    "factors it does not meet.",
    "Should we qualify this lead after our recent calls? If the answer is no, which factors among Budget, "
    "Authority, Need and Timeline stand in the way?",
    "Review our calls with this lead: does it meet the qualification criteria, and if not, which BANT "
    "factors are missing?",
)
ANSWER_FORMAT = (
    " Return only the BANT factors the lead fails to meet ('Budget', 'Authority', 'Need', 'Timeline'), "
    "or None if it meets all four."
)
REQUIRED = (
    "## Lead qualification guide\n"
    "Go through the lead's call transcripts and weigh each BANT factor against the criteria of the "
    "qualification article in the knowledge base.\n"
    "- Lead in question (Id): {lead_id}"
)


def lead_lines(bodies: list[str], lead_name: str) -> list[str]:
    """What the lead said on its calls (the lines spoken under its name)."""
    return [text for body in bodies for speaker, text in transcript_lines(body) if speaker == lead_name]


def unmet(bodies: list[str], lead_name: str, article: str) -> tuple[str, ...] | None:
    """The unmet factors (None: qualified); LookupError when the calls leave a factor unanswered."""
    verdicts = bant_verdicts(lead_lines(bodies, lead_name), bant_thresholds(article))
    if set(verdicts) != set(BANT):
        raise LookupError(f"the calls answer only {sorted(verdicts)} of the four BANT factors")
    return unmet_factors(verdicts) or None


def solve(client: OrgClient, params: dict) -> Solution:
    lead = quote(params["lead_id"])
    name = client.query(f"SELECT Name FROM Lead WHERE Id = {lead}")[0]["Name"]
    bodies = [
        r["Body__c"] or ""
        for r in client.query(
            f"SELECT Body__c FROM VoiceCallTranscript__c WHERE LeadId__c = {lead} ORDER BY CreatedDate, Id"
        )
    ]
    _, article = read_article(client, ARTICLE)
    return Solution(unmet(bodies, name, article))


def generate(ctx: ProBuildContext, n: int, n_none: int) -> list[Draft]:
    rnd, sales = ctx.rnd, ctx.sales
    article = sales.article(ARTICLE).text
    leads = sorted(sales.lead_calls)
    rnd.shuffle(leads)

    def draft(lead_id: str, answer) -> Draft:
        query = rnd.choice(QUESTIONS) + ANSWER_FORMAT
        return Draft({"lead_id": lead_id}, query, REQUIRED.format(lead_id=lead_id), answer, (lead_id,))

    return pick_drafts(
        leads,
        n,
        n_none,
        lambda lead_id: unmet(sales.lead_calls[lead_id], sales.leads[lead_id].name, article),
        draft,
    )
