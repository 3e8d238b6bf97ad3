"""sales_insight_mining: what the sales calls say, about one deal or across a period (token F1).

Two kinds of question, as CRMArena-Pro's split has them (49 of 100 about one opportunity):

- ``kind: opportunity`` (``opportunity_id``, ``sentiment``): the sales subtopics the deal's calls
  discuss with a positive (or negative) sentiment. Gold: those subtopics, each once, in the order
  the task's list of subtopics gives them, comma-joined (CRMArena-Pro's gold repeats a subtopic
  once per call; a set reads the same to a customer and scores without counting repeats);
- ``kind`` ``mentions``, ``offers``, ``edge`` or ``positive_subtopic`` (``start``, ``end``): across
  the calls about opportunities recorded (CreatedDate) in the period, the competitor named most
  often, the one whose offer customers preferred most often, the one our offer beat most often,
  or the subtopic discussed positively most often. Gold: its name; only periods with a strict
  winner are asked about.

Each customer line is read by :func:`crmarena_sf.tasks.pro.texts.read_call_line`. Every gold
answer is stated in the task's own text or the transcripts: the subtopics are listed in the
required metadata, competitor names are in the calls. No None answer.
"""

from __future__ import annotations

from collections import Counter

from crmarena_sf.loaders.pro.domain import SUBTOPICS
from crmarena_sf.tasks.families.base import Draft, Solution, random_window, when_slots, window_params
from crmarena_sf.tasks.families.pro.base import ProBuildContext
from crmarena_sf.tasks.org_client import OrgClient, quote, soql_datetime
from crmarena_sf.tasks.periods import PERIOD_RULES, parse_iso
from crmarena_sf.tasks.pro.texts import call_lines, subtopics_with
from crmarena_sf.tasks.ranking import rank

NAME = "sales_insight_mining"
METRIC = "fuzzy_match"
NONE_SHARE = 0.0
OPPORTUNITY_SHARE = 0.49
WINDOW_KINDS = ("mentions", "offers", "edge", "positive_subtopic")

INTRO = (
    "## Sales insight mining\n"
    "Sales insight mining draws lessons for the sales team from its conversations with customers. "
    "Analyze the calls recorded in the VoiceCallTranscript__c object."
)
SUBTOPIC_LIST = "- The sales subtopics a call can discuss: " + "; ".join(SUBTOPICS) + "."
COMPETITOR_RULES = (
    "- A competitor is mentioned each time a customer names it on a call. A competing offer wins when "
    "the customer says the competitor's offer is better than ours; our offer wins when the customer says "
    "ours beats the competitor's."
)
OPPORTUNITY_QUESTIONS = {
    "positive": (
        "On this opportunity's calls, which sales subtopics did the customer speak about positively?",
        "Which aspects of our sales conversations on this opportunity drew a positive reaction from the customer?",
        "In the calls about this deal, which subtopics show a positive sentiment toward our offer?",
    ),
    "negative": (
        "On this opportunity's calls, which sales subtopics did the customer speak about negatively?",
        "Which aspects of our sales conversations on this opportunity drew a negative reaction from the customer?",
        "In the calls about this deal, which subtopics show a negative sentiment toward our offer?",
    ),
}
WINDOW_QUESTIONS = {
    "mentions": (
        "Which competitor did customers mention most often on our sales calls {when}? Return only the competitor's name.",
        "{When}, which rival came up most in our calls with customers? Give only its name.",
    ),
    "offers": (
        "Which competitor's offer did customers prefer to ours most often on our sales calls {when}? Return only the competitor's name.",
        "{When}, against which competitor did we lose the comparison of offers most often on calls? Give only its name.",
    ),
    "edge": (
        "Over which competitor did our offer come out ahead most often on our sales calls {when}? Return only the competitor's name.",
        "{When}, which competitor did customers most often say we beat? Give only its name.",
    ),
    "positive_subtopic": (
        "Which sales subtopic did customers speak about positively most often on our calls {when}? Return only the subtopic.",
        "{When}, which subject of our sales conversations drew the most positive reactions? Give only the subtopic's name.",
    ),
}


def window_counts(bodies: list[str], kind: str) -> Counter:
    counts: Counter = Counter()
    for body in bodies:
        for line in call_lines(body):
            if (
                kind == "mentions"
                and line.competitor
                or kind == "offers"
                and line.competitor
                and line.subtopic
                and line.sentiment == "negative"
                or kind == "edge"
                and line.competitor
                and line.subtopic
                and line.sentiment == "positive"
            ):
                counts[line.competitor] += 1
            elif kind == "positive_subtopic" and line.subtopic and line.sentiment == "positive":
                counts[line.subtopic] += 1
    return counts


def solve(client: OrgClient, params: dict) -> Solution:
    if params["kind"] == "opportunity":
        rows = client.query(
            "SELECT Body__c FROM VoiceCallTranscript__c "
            f"WHERE OpportunityId__c = {quote(params['opportunity_id'])} ORDER BY CreatedDate, Id"
        )
        found = subtopics_with([r["Body__c"] for r in rows], params["sentiment"])
        return Solution(", ".join(found) if found else None)
    rows = client.query(
        "SELECT Body__c FROM VoiceCallTranscript__c WHERE OpportunityId__c != null "
        f"AND CreatedDate >= {soql_datetime(parse_iso(params['start']))} "
        f"AND CreatedDate < {soql_datetime(parse_iso(params['end']))}"
    )
    ranking = rank(dict(window_counts([r["Body__c"] for r in rows], params["kind"])), "max")
    return Solution(ranking.answer, ranking)


def generate(ctx: ProBuildContext, n: int, n_none: int) -> list[Draft]:
    rnd, sales = ctx.rnd, ctx.sales
    by_deal: dict[str, list[str]] = {}
    for deal, _, body in sales.deal_calls:
        by_deal.setdefault(deal, []).append(body)
    n_deal = round(n * OPPORTUNITY_SHARE)
    drafts: list[Draft] = []
    deals = sorted(by_deal)
    rnd.shuffle(deals)
    for deal in deals:
        if len(drafts) >= n_deal:
            break
        sentiment = rnd.choice(("positive", "negative"))
        found = subtopics_with(by_deal[deal], sentiment)
        if not found:
            continue
        required = f"{INTRO}\n{SUBTOPIC_LIST}\n- Opportunity in question (Id): {deal}"
        query = rnd.choice(OPPORTUNITY_QUESTIONS[sentiment]) + (
            " Return only the subtopics, separated by commas."
        )
        params = {"kind": "opportunity", "opportunity_id": deal, "sentiment": sentiment}
        drafts.append(Draft(params, query, required, ", ".join(found), (deal,)))
    moments = [when for _, when, _ in sales.deal_calls]
    if not moments:
        return drafts
    span = ctx.spanning(min(moments).date(), max(moments).date())
    seen = set()
    for _ in range(300 * n):
        if len(drafts) >= n:
            break
        today, window = random_window(
            span, {"month": (2, 12), "quarter": (1, 4), "year": (1, 2)}, ("quarter", "year")
        )
        kind = rnd.choice(WINDOW_KINDS)
        key = (kind, window.start, window.end)
        if key in seen:
            continue
        bodies = [body for _, when, body in sales.deal_calls if window.start <= when < window.end]
        counts = window_counts(bodies, kind)
        ranking = rank(dict(counts), "max")
        if not ranking.unique or len(counts) < 2:
            continue
        seen.add(key)
        required = f"{INTRO}\n{SUBTOPIC_LIST}\n{COMPETITOR_RULES}\n- Today's date: {today.isoformat()}\n{PERIOD_RULES}"
        query = rnd.choice(WINDOW_QUESTIONS[kind]).format(**when_slots(window))
        drafts.append(Draft({"kind": kind, **window_params(window)}, query, required, ranking.answer, key))
    return drafts
