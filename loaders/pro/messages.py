"""EmailMessage, LiveChatVisitor and LiveChatTranscript: case conversations and sales email threads.

A case's conversation is an email thread (the customer's first message opens it) or a chat
(lines ``[2020-12-22T11:03:45] Name (Customer|Agent): text``, CRMArena's chat format), with a
few follow-up emails on some. Every message falls inside the case's life, strictly after the
one before, and whoever writes for the company owns the case at that moment. The first agent
reply states what the case's service policy says (:attr:`Domain.policies`): on a planted share
of cases (``policy_breaches``, policy-violation task) the agent breaks the policy instead, in
words the policy article forbids; everywhere else the agent keeps to it.

The rest of the emails are threads between a deal's owner and its contact (``RelatedToId``
the opportunity), about what the deal's true stage is about. ``ToIds`` lists the recipients'
record Ids, as CRMArena-Pro's dumps keep them.
"""

from __future__ import annotations

import datetime as dt
import hashlib

from crmarena_sf.loaders.generate.context import Context
from crmarena_sf.loaders.generate.rng import Weighted
from crmarena_sf.loaders.pro.domain import Domain
from crmarena_sf.loaders.pro.records import DATA_NOW, audit, autonumber, emit

BREACH_SHARE = 0.25
"""Share of cases whose agent breaks the case's service policy."""

NEXT_STEPS = (
    "I'll keep you posted as soon as I hear more.",
    "Let me know if anything changes on your side.",
    "I'll check back with you tomorrow.",
)
FOLLOW_UPS = (
    "Thanks, {agent}. I'll wait for your update.",
    "Thank you for the quick answer, {agent}.",
    "Appreciate it, {agent}. Keep me posted.",
)
WRAP_UPS = (
    "Glad we could sort this out. I'm closing the case now; reply here if anything comes back.",
    "Everything should be resolved now, so I'm closing this case. Thanks for your patience.",
)
SALES_TOPICS = {
    "Qualification": (
        "Introduction",
        "Thanks for your interest in {company}. Could we set up a short call to learn about your plans?",
    ),
    "Discovery": (
        "Follow-up on our discovery call",
        "Thanks for walking me through your needs. I'm putting together a summary of what we heard.",
    ),
    "Quote": ("Your proposal", "Please find our proposal for {deal} attached. Happy to walk you through it."),
    "Negotiation": (
        "Contract terms",
        "I've passed your comments on the terms to our team and will come back with a revised version.",
    ),
    "Closed": (
        "Welcome aboard",
        "Thank you for choosing {company}. Your onboarding contact will reach out this week.",
    ),
}
SALES_REPLIES = (
    "Thanks {rep}, that works for us.",
    "Got it, thank you {rep}. I'll share it with the team.",
    "Thanks for the update, {rep}. Let's talk next week.",
)


def write_conversations(ctx: Context) -> None:
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-messages")
    cases = ctx.plan["cases"]
    n = len(cases)
    breached = set(rnd.sample(range(n), round(n * BREACH_SHARE)))
    ctx.plan["policy_breaches"] = {c: domain.issues[cases.issue[c]].policy for c in sorted(breached)}
    emails: list[dict] = []
    chats: list[dict] = []
    for c in range(n):
        count = rnd.randint(0, 2) if cases.chat[c] else rnd.randint(2, 4)
        _case_messages(ctx, rnd, c, count, c in breached, emails, chats)
    _sales_emails(ctx, rnd, ctx.count("EmailMessage") - len(emails), emails)
    emails.sort(key=lambda e: (e["MessageDate"], e["_order"]))
    for k, email in enumerate(emails, start=1):
        email["Id"] = ctx.record_id("EmailMessage", k)
        del email["_order"]
    emit(ctx, "EmailMessage", [{"Id": e.pop("Id"), **e} for e in emails])
    _write_chats(ctx, chats)


def _moments(rnd, start: dt.datetime, end: dt.datetime, count: int) -> list[dt.datetime]:
    span = max(int((end - start).total_seconds()), 60 * (count + 1))
    return [start + dt.timedelta(seconds=s) for s in sorted(rnd.sample(range(30, span), count))]


def _case_messages(ctx: Context, rnd, c: int, count: int, breach: bool, emails: list, chats: list) -> None:
    domain: Domain = ctx.plan["domain"]
    cases = ctx.plan["cases"]
    staff = ctx.plan["staff"]
    people = ctx.plan["people"]
    policy = domain.policies[domain.issues[cases.issue[c]].policy]
    policy_line = rnd.choice(policy.breach if breach else policy.compliant)
    contact = cases.contact[c]
    end = cases.closed[c] or DATA_NOW - dt.timedelta(hours=1)
    customer = people.name(contact)
    said_policy = False
    begin = cases.created[c]
    if cases.chat[c]:
        chat_end = min(begin + dt.timedelta(minutes=25), end - dt.timedelta(seconds=count * 120 + 60))
        agent = _owner_at(cases, c, begin)
        lines = _chat_lines(ctx, rnd, c, agent, policy_line)
        said_policy = True
        chats.append(
            {
                "case": c,
                "agent": agent,
                "lines": lines,
                "start": begin,
                "end": max(chat_end, begin + dt.timedelta(minutes=5)),
            }
        )
        begin = chats[-1]["end"] + dt.timedelta(minutes=1)
    times = _moments(rnd, begin, end, count) if count else []
    for i, when in enumerate(times):
        from_customer = (i % 2 == 0) if not cases.chat[c] else (i % 2 == 1)
        agent = _owner_at(cases, c, when)
        agent_id, agent_name = staff.agent_id(agent), staff.agent_name(agent)
        if from_customer:
            if i == 0:
                body = f"Hello,\n\n{cases.description[c]}\n\n{people.first[contact]}"
            else:
                body = (
                    rnd.choice(FOLLOW_UPS).format(agent=agent_name.split()[0])
                    + f"\n\n{people.first[contact]}"
                )
        else:
            greeting = f"Hi {people.first[contact]},\n\n"
            if not said_policy:
                text = f"Thanks for reaching out about this. {policy_line}\n\n{rnd.choice(NEXT_STEPS)}"
                said_policy = True
            elif i == len(times) - 1 and cases.closed[c]:
                text = rnd.choice(WRAP_UPS)
            else:
                text = rnd.choice(NEXT_STEPS)
            body = f"{greeting}{text}\n\n{agent_name}\n{domain.company} Support"
        emails.append(
            _email(
                ctx,
                when,
                ("Re: " if i else "") + cases.subject[c],
                body,
                (customer, people.email[contact])
                if from_customer
                else (agent_name, staff.emails[staff.agents[agent]]),
                [agent_id] if from_customer else [people.ids[contact]],
                staff.emails[staff.agents[agent]] if from_customer else people.email[contact],
                from_customer,
                parent=cases.ids[c],
                related=cases.ids[c],
                order=(0, c, i),
            )
        )


def _owner_at(cases, c: int, when: dt.datetime) -> int:
    current = cases.owners[c][0][1]
    for at, agent in cases.owners[c]:
        if at <= when:
            current = agent
    return current


def _chat_lines(ctx: Context, rnd, c: int, agent: int, policy_line: str) -> list[tuple[str, str]]:
    cases = ctx.plan["cases"]
    staff = ctx.plan["staff"]
    people = ctx.plan["people"]
    contact = cases.contact[c]
    customer = f"{people.name(contact)} (Customer)"
    who = f"{staff.agent_name(agent)} (Agent)"
    return [
        (who, f"Hi {people.first[contact]}, thanks for contacting us. How can I help?"),
        (customer, cases.description[c]),
        (who, f"I'm sorry to hear that. {policy_line}"),
        (customer, "Okay, thanks for explaining."),
        (who, rnd.choice(NEXT_STEPS)),
    ]


def _email(
    ctx, when, subject, body, sender, to_ids, to_address, incoming, *, parent=None, related=None, order=()
):
    return {
        "_order": order,
        "ParentId": parent,
        **audit(ctx, when),
        "TextBody": body,
        "Subject": subject,
        "FromName": sender[0],
        "FromAddress": sender[1],
        "ToAddress": to_address,
        "Incoming": incoming,
        "HasAttachment": False,
        "Status": "1" if incoming else "3",
        "MessageDate": when,
        "IsExternallyVisible": True,
        "RelatedToId": related,
        "ToIds": to_ids,
    }


def _sales_emails(ctx: Context, rnd, total: int, emails: list) -> None:
    domain: Domain = ctx.plan["domain"]
    deals = ctx.plan["deals"]
    staff = ctx.plan["staff"]
    people = ctx.plan["people"]
    n = len(deals)
    per_deal = [0] * n
    spread = Weighted(range(n), [1.0 + len(deals.lines[k]) / 4 for k in range(n)])
    for _ in range(max(total, 0)):
        per_deal[spread.pick(rnd)] += 1
    for k in range(n):
        if not per_deal[k]:
            continue
        stage = deals.true_stage[k]
        topic, opener = SALES_TOPICS[stage]
        contact = deals.contact[k]
        rep = deals.owner[k]
        rep_name, rep_email, rep_id = staff.rep_name(rep), staff.emails[staff.reps[rep]], staff.rep_id(rep)
        end = deals.last_activity[k]
        start = deals.created[k] + (end - deals.created[k]) * 0.5
        for i, when in enumerate(_moments(rnd, start, end, per_deal[k])):
            from_rep = i % 2 == 0
            if from_rep:
                text = (
                    opener.format(company=domain.company, deal=deals.names[k])
                    if i == 0
                    else rnd.choice(NEXT_STEPS)
                )
                body = f"Hi {people.first[contact]},\n\n{text}\n\n{rep_name}\n{domain.company}"
            else:
                body = (
                    rnd.choice(SALES_REPLIES).format(rep=rep_name.split()[0]) + f"\n\n{people.first[contact]}"
                )
            emails.append(
                _email(
                    ctx,
                    when,
                    ("Re: " if i else "") + f"{topic}: {deals.names[k]}",
                    body,
                    (rep_name, rep_email) if from_rep else (people.name(contact), people.email[contact]),
                    [people.ids[contact]] if from_rep else [rep_id],
                    people.email[contact] if from_rep else rep_email,
                    not from_rep,
                    related=deals.ids[k],
                    order=(1, k, i),
                )
            )


def _write_chats(ctx: Context, chats: list[dict]) -> None:
    cases = ctx.plan["cases"]
    staff = ctx.plan["staff"]
    accounts = ctx.plan["accounts"]
    people = ctx.plan["people"]
    visitors, transcripts = [], []
    for n, chat in enumerate(sorted(chats, key=lambda ch: (ch["start"], ch["case"])), start=1):
        c = chat["case"]
        start, end = chat["start"], chat["end"]
        step = (end - start) / max(len(chat["lines"]), 1)
        body = "\n".join(
            f"[{start + step * i:%Y-%m-%dT%H:%M:%S}] {who}: {text}"
            for i, (who, text) in enumerate(chat["lines"])
        )
        visitor = ctx.record_id("LiveChatVisitor", n)
        visitors.append(
            {
                "Id": visitor,
                "Name": autonumber("LiveChatVisitor", "Name", n),
                **audit(ctx, start),
                "SessionKey": hashlib.md5(f"visitor-{n}".encode()).hexdigest(),
            }
        )
        operator = sum(1 for who, _ in chat["lines"] if who.endswith("(Agent)"))
        transcripts.append(
            {
                "Id": ctx.record_id("LiveChatTranscript", n),
                "OwnerId": staff.agent_id(chat["agent"]),
                "Name": autonumber("LiveChatTranscript", "Name", n),
                **audit(ctx, end),
                "LiveChatVisitorId": visitor,
                "Body": body,
                "ContactId": people.ids[cases.contact[c]],
                "CaseId": cases.ids[c],
                "AccountId": accounts.ids[cases.account[c]],
                "Status": "Completed",
                "RequestTime": start,
                "StartTime": start,
                "EndTime": end,
                "EndedBy": "Visitor",
                "OperatorMessageCount": operator,
                "VisitorMessageCount": len(chat["lines"]) - operator,
                "ChatDuration": int((end - start).total_seconds()),
            }
        )
    emit(ctx, "LiveChatVisitor", visitors)
    emit(ctx, "LiveChatTranscript", transcripts)
