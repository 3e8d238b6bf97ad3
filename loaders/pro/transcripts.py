"""VoiceCallTranscript__c: the calls with each lead and about each deal, in CRMArena-Pro's line format.

A body is lines ``[2023-10-21T10:02:00] Name: text`` in time order (CRMArena-Pro's org dumps,
SalesforceAIResearch/CRMArena local_data/crmarenapro_b2b_data.db), dated inside the lead's or
the deal's life; ``EndTime__c`` is a minute after the last line.

- A lead's call (``LeadId__c``) asks about each BANT factor and the lead answers with the
  domain's met or unmet line for it (the lead's planted ``bant`` signals: lead
  qualification). Amounts and months are drawn on the right side of the lead-qualification
  article's thresholds, so the article decides every factor.
- A deal's calls (``OpportunityId__c``) discuss three to five sales subtopics, each answered
  with one sentiment (the latent ``call_sentiment``: won deals lean positive), and mention
  competitors: the half-year's leading rival (latent ``competitor_trend``) most often; whether a
  comparison goes our way follows the rival's ``competitor_edge`` (sales-insight mining).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from crmarena_sf.loaders.generate.context import Context
from crmarena_sf.loaders.generate.rng import Weighted
from crmarena_sf.loaders.pro import latent, talk
from crmarena_sf.loaders.pro.domain import BANT, SUBTOPICS, Domain
from crmarena_sf.loaders.pro.records import DATA_NOW, audit, autonumber, emit

LINE_GAP = (20, 150)
"""Seconds between two lines of a call."""


@dataclass
class Calls:
    lead: list[int | None] = field(default_factory=list)
    deal: list[int | None] = field(default_factory=list)
    start: list[dt.datetime] = field(default_factory=list)
    end: list[dt.datetime] = field(default_factory=list)
    body: list[str] = field(default_factory=list)
    mentions: list[list[tuple[str, str, str | None]]] = field(default_factory=list)
    """Per call: (subtopic, sentiment, competitor or None) of each customer answer."""
    competitors: list[list[tuple[str, str]]] = field(default_factory=list)
    """Per call: (competitor, kind) with kind ``mention``, ``offer`` or ``edge``."""
    bant_values: dict[int, dict[str, str]] = field(default_factory=dict)
    """Lead call -> factor -> the amount, months or role the lead stated."""
    ids: list[str] = field(default_factory=list)


def half_year(when: dt.datetime) -> str:
    return f"{when.year}-H{1 if when.month <= 6 else 2}"


def plan_calls(ctx: Context) -> None:
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-calls")
    leads = ctx.plan["leads"]
    deals = ctx.plan["deals"]
    total = ctx.count("VoiceCallTranscript__c")
    halves = [f"{y}-H{h}" for y in range(2020, 2025) for h in (1, 2)]
    trend, edge = latent.draw_competitor_trend(ctx.rng("pro-competitors"), len(domain.competitors), halves)
    ctx.plan["competitor_trend"] = trend
    ctx.plan["competitor_edge"] = edge
    drafts = []
    for k in range(min(len(leads), total)):
        start = leads.created[k] + dt.timedelta(days=rnd.uniform(0.2, 1.5))
        if leads.converted[k] is not None:
            start = min(start, leads.converted[k] - dt.timedelta(hours=2))
        drafts.append((start, k, None))
    n_deals = len(deals)
    per_deal = [1] * n_deals if total - len(drafts) >= n_deals else [0] * n_deals
    spread = Weighted(
        range(n_deals),
        [1.0 + (deals.true_stage[k] in ("Quote", "Negotiation", "Closed")) for k in range(n_deals)],
    )
    remaining = total - len(drafts) - sum(per_deal)
    while remaining > 0:
        k = spread.pick(rnd)
        if per_deal[k] < 6:
            per_deal[k] += 1
            remaining -= 1
    for k in range(n_deals):
        begin, end = deals.created[k], deals.last_activity[k] - dt.timedelta(hours=3)
        span = max(int((end - begin).total_seconds()), 7200 * per_deal[k])
        for s in sorted(rnd.sample(range(600, span), per_deal[k])):
            drafts.append((begin + dt.timedelta(seconds=s), None, k))
    drafts.sort(key=lambda d: (d[0], d[1] if d[1] is not None else -1, d[2] if d[2] is not None else -1))
    calls = Calls()
    for start, lead, deal in drafts:
        if lead is not None:
            low = leads.created[lead] + dt.timedelta(minutes=10)
            high = (leads.converted[lead] or DATA_NOW) - dt.timedelta(hours=2)
        else:
            low = deals.created[deal] + dt.timedelta(minutes=10)
            high = (deals.signed[deal] or DATA_NOW) - dt.timedelta(hours=3)
        working = start.replace(hour=rnd.randint(9, 17)) if start.hour < 8 or start.hour > 18 else start
        start = working if low <= working <= high else min(max(start, low), high)
        start = start.replace(microsecond=0)
        calls.lead.append(lead)
        calls.deal.append(deal)
        calls.start.append(start)
        if lead is not None:
            lines, values = _lead_call(ctx, rnd, lead)
            calls.bant_values[len(calls.body)] = values
            calls.mentions.append([])
            calls.competitors.append([])
        else:
            lines, mentions, rivals = _deal_call(ctx, rnd, deal, start)
            calls.mentions.append(mentions)
            calls.competitors.append(rivals)
        body, end = _render(rnd, start, lines)
        calls.body.append(body)
        calls.end.append(min(end, DATA_NOW - dt.timedelta(minutes=1)))
    calls.ids = [ctx.record_id("VoiceCallTranscript__c", c + 1) for c in range(len(calls.body))]
    ctx.plan["calls"] = calls


def _render(rnd, start: dt.datetime, lines: list[tuple[str, str]]) -> tuple[str, dt.datetime]:
    out = []
    when = start
    for speaker, text in lines:
        out.append(f"[{when.isoformat(timespec='seconds')}] {speaker}: {text}")
        when += dt.timedelta(seconds=rnd.randint(*LINE_GAP))
    return "\n".join(out), when + dt.timedelta(minutes=1)


def _lead_call(ctx: Context, rnd, k: int) -> tuple[list[tuple[str, str]], dict[str, str]]:
    domain: Domain = ctx.plan["domain"]
    leads = ctx.plan["leads"]
    staff = ctx.plan["staff"]
    rep = staff.rep_name(leads.owner[k])
    customer = leads.name(k)
    fill = {"customer": leads.first[k], "rep": rep.split()[0], "company": domain.company}
    opening = rnd.choice(talk.LEAD_OPENINGS)
    lines = [(rep, opening[0].format(**fill)), (customer, opening[1].format(**fill))]
    if leads.title[k]:
        lines.append((customer, f"I'm the {leads.title[k]} at {leads.company[k]}."))
    values: dict[str, str] = {}
    decider = leads.title[k] in domain.lead_titles_decider if leads.title[k] else None
    for factor in rnd.sample(BANT, len(BANT)):
        met = factor not in leads.gaps[k]
        lines.append((rep, rnd.choice(talk.BANT_QUESTIONS[factor])))
        templates = (domain.bant.met if met else domain.bant.unmet)[factor]
        if factor == "Authority" and met and decider is not None:
            # A decision maker signs off himself; anyone else brings the one who does.
            template = templates[0] if decider else templates[1]
        else:
            template = rnd.choice(templates)
        amount = _amount(rnd, domain, met)
        months = (
            rnd.randint(1, domain.timeline_months)
            if met
            else rnd.randint(domain.timeline_months + 3, domain.timeline_months + 12)
        )
        boss = rnd.choice(domain.bosses)
        problem = rnd.choice(domain.problems)
        lines.append(
            (customer, template.format(amount=f"${amount:,}", months=months, boss=boss, problem=problem))
        )
        if "{amount}" in template:
            values[factor] = str(amount)
        elif "{months}" in template:
            values[factor] = str(months)
    closing = rnd.choice(talk.LEAD_CLOSINGS)
    lines += [(rep, closing[0].format(**fill)), (customer, closing[1].format(**fill))]
    return lines, values


def _amount(rnd, domain: Domain, met: bool) -> int:
    floor = domain.budget_floor
    step = 1000 if floor >= 10000 else 500
    if met:
        return int(round(floor * rnd.uniform(1.2, 4.0) / step) * step)
    return max(step, int(round(floor * rnd.uniform(0.2, 0.7) / step) * step))


def _deal_call(ctx: Context, rnd, k: int, when: dt.datetime):
    domain: Domain = ctx.plan["domain"]
    deals = ctx.plan["deals"]
    staff = ctx.plan["staff"]
    people = ctx.plan["people"]
    rep = staff.rep_name(deals.owner[k])
    customer = people.name(deals.contact[k])
    product = domain.products[deals.lines[k][0][0]].name
    fill = {
        "customer": people.first[deals.contact[k]],
        "rep": rep.split()[0],
        "company": domain.company,
        "product": product,
    }
    opening = rnd.choice(talk.OPENINGS)
    lines = [(rep, opening[0].format(**fill)), (customer, opening[1].format(**fill))]
    positive = 0.7 if deals.true_stage[k] == "Closed" else 0.5
    trend = ctx.plan["competitor_trend"][half_year(when)]
    edge = ctx.plan["competitor_edge"]
    rivals = Weighted(
        range(len(domain.competitors)), [4.0 if c == trend else 1.0 for c in range(len(domain.competitors))]
    )
    mentions, competitors = [], []
    for subtopic in rnd.sample(SUBTOPICS, rnd.randint(3, 5)):
        rival = None
        if subtopic == "Competing offers":
            c = rivals.pick(rnd)
            rival = domain.competitors[c].name
            sentiment = "positive" if rnd.random() < edge[c] else "negative"
            competitors.append((rival, "edge" if sentiment == "positive" else "offer"))
        else:
            sentiment = "positive" if rnd.random() < positive else "negative"
        lines.append((rep, rnd.choice(talk.PROMPTS[subtopic]).format(**fill)))
        lines.append(
            (customer, rnd.choice(talk.LINES[(subtopic, sentiment)]).format(competitor=rival, **fill))
        )
        mentions.append((subtopic, sentiment, rival))
    if rnd.random() < 0.35:
        rival = domain.competitors[rivals.pick(rnd)].name
        lines.insert(2, (customer, rnd.choice(talk.MENTION).format(competitor=rival)))
        competitors.append((rival, "mention"))
    closing = rnd.choice(talk.CLOSINGS)
    lines += [(rep, closing[0].format(**fill)), (customer, closing[1].format(**fill))]
    return lines, mentions, competitors


def write_calls(ctx: Context) -> None:
    calls: Calls = ctx.plan["calls"]
    leads = ctx.plan["leads"]
    deals = ctx.plan["deals"]
    staff = ctx.plan["staff"]
    rows = []
    for c in range(len(calls.body)):
        lead, deal = calls.lead[c], calls.deal[c]
        owner = staff.rep_id(leads.owner[lead] if lead is not None else deals.owner[deal])
        rows.append(
            {
                "Id": calls.ids[c],
                "OwnerId": owner,
                "Name": autonumber("VoiceCallTranscript__c", "Name", c + 1),
                **audit(ctx, calls.end[c], by=owner),
                "Body__c": calls.body[c],
                "LeadId__c": leads.ids[lead] if lead is not None else None,
                "OpportunityId__c": deals.ids[deal] if deal is not None else None,
                "EndTime__c": calls.end[c],
            }
        )
    emit(ctx, "VoiceCallTranscript__c", rows)
