"""EmailMessage, LiveChatVisitor and LiveChatTranscript: what customers and agents wrote on each case.

Every case without a chat has an email thread (the customer's first message opened it);
some chat cases get follow-up emails. A planted share of cases contains one agent line
that breaks the policy article governing the case's issue (policy-violation task); every
other case's agent lines follow the policies. Chat bodies use CRMArena's transcript lines
``[2020-12-22T11:03:45] Name (Customer|Agent): text`` (crmarena.md §1).
"""

from __future__ import annotations

import datetime as dt

from emulator.store.derive import AUTONUMBER_FORMATS
from loaders.generate import conversation_text as talk
from loaders.generate.cases import DATA_NOW
from loaders.generate.context import Context, audit_sql, autonumber, secs, ts

VIOLATION_RATE = 0.15
MAX_EMAILS_PER_CASE = 8
BATCH = 50_000


def write_conversations(ctx: Context) -> None:
    rnd = ctx.rng("conversations")
    cases = ctx.plan["cases"]
    n = len(cases)
    emails_per_case = _email_counts(rnd, cases.chat, ctx.count("EmailMessage"))
    can_hold = [k for k in range(n) if cases.chat[k] or emails_per_case[k] >= 2]
    violated = set(rnd.sample(can_hold, round(len(can_hold) * VIOLATION_RATE)))
    writer = _Rows(ctx)
    violations: dict[int, str] = {}
    for k in range(n):
        article = ctx.plan["policy_article"].get(cases.issue[k]) if k in violated else None
        in_chat = article is not None and cases.chat[k] and (emails_per_case[k] < 2 or rnd.random() < 0.7)
        if article is not None:
            violations[k] = article
        slots = _slots(ctx, rnd, k)
        chat_end = None
        if cases.chat[k]:
            chat_end = writer.add_chat(ctx, rnd, k, slots, breach=article is not None and in_chat)
        if emails_per_case[k]:
            writer.add_thread(
                ctx,
                rnd,
                k,
                emails_per_case[k],
                slots,
                breach=article is not None and not in_chat,
                after=chat_end,
            )
        writer.flush_if_full()
    writer.finish()
    ctx.plan["violations"] = violations


def _email_counts(rnd, chat: list[bool], total: int) -> list[int]:
    """Emails per case summing to ``total``: a message and its reply for each case without a chat, then spread."""
    n = len(chat)
    counts = [0] * n
    plain = [k for k in range(n) if not chat[k]]
    base = 2 if total >= 2 * len(plain) else 1 if total >= len(plain) else 0
    for k in plain:
        counts[k] = base
    remaining = min(total - base * len(plain), n * MAX_EMAILS_PER_CASE - base * len(plain))
    while remaining > 0:
        k = rnd.randrange(n)
        if counts[k] >= MAX_EMAILS_PER_CASE:
            continue
        add = 2 if counts[k] == 0 and remaining >= 2 else 1
        counts[k] += add
        remaining -= add
    return counts


def _slots(ctx: Context, rnd, k: int) -> dict:
    cases, customers, catalog = ctx.plan["cases"], ctx.plan["customers"], ctx.plan["catalog"]
    c = cases.customer[k]
    order_date = cases.order_day[k]
    digits, first = AUTONUMBER_FORMATS.get(("Case", "CaseNumber"), (8, 1))
    return {
        "case_number": str(first + k).zfill(digits),
        "first": customers.first[c],
        "product": catalog.names[cases.product[k]],
        "days": rnd.randint(35, 120),
        "months": rnd.randint(13, 30),
        "amount": f"{rnd.randint(10, 80)}.00",
        "points": rnd.randrange(500, 5000, 250),
        "order_date": f"{order_date:%B} {order_date.day}, {order_date.year}",
    }


def _policy_line(rnd, issue: int, breach: bool, slots: dict) -> str:
    lines = talk.VIOLATIONS if breach else talk.COMPLIANT
    return rnd.choice(lines[issue % len(lines)]).format(**slots)


class _Rows:
    """Column buffers for the three objects, flushed to staging tables in batches."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.email = {
            k: []
            for k in (
                "case_n",
                "subject",
                "body",
                "from_name",
                "from_addr",
                "to_addr",
                "to_id",
                "incoming",
                "sent_at",
            )
        }
        self.chat = {
            k: []
            for k in (
                "case_n",
                "cust",
                "owner",
                "body",
                "request",
                "start",
                "stop",
                "ops",
                "visitors",
                "location",
            )
        }

    def add_thread(
        self, ctx: Context, rnd, k: int, count: int, slots: dict, breach: bool, after: dt.datetime | None
    ) -> None:
        """``count`` emails on case ``k``: opened by the customer's email, or (``after`` a chat) the agent's follow-up."""
        cases, customers, agents = ctx.plan["cases"], ctx.plan["customers"], ctx.plan["agents"]
        c = cases.customer[k]
        end = cases.closed[k] or min(cases.created[k] + dt.timedelta(days=10), DATA_NOW)
        start = cases.created[k] if after is None else after + dt.timedelta(seconds=rnd.randint(60, 600))
        start = min(start, end - dt.timedelta(seconds=60 * count))
        span = int((end - start).total_seconds())
        offsets = (
            [0] + sorted(rnd.sample(range(60, span), count - 1))
            if span > count * 60
            else [60 * i for i in range(count)]
        )
        subject = cases.subject[k]
        customer_name = customers.name(c)
        policy_said = False
        first_from_agent = after is not None
        for i, offset in enumerate(offsets):
            when = start + dt.timedelta(seconds=offset)
            incoming = (i % 2 == 0) != first_from_agent
            agent = cases.owner_at(k, when)
            if incoming:
                body = (
                    f"Hi,\n\n{cases.description[k]}\n\nThanks,\n{customer_name}"
                    if i == 0
                    else f"Hi,\n\n{rnd.choice(talk.CUSTOMER_REACTIONS)} {rnd.choice(talk.CUSTOMER_QUESTIONS).format(**slots)}\n\n{customer_name}"
                )
                sender, sender_addr = customer_name, customers.email[c]
                to_addr, to_id = agents.emails[agent], agents.ids[agent]
            else:
                opening = rnd.choice(
                    talk.AGENT_OPENINGS if after is None or i else talk.CHAT_FOLLOW_UP_OPENINGS
                )
                if not policy_said and (after is None or breach):
                    # After a chat, the policy was already explained there; only a planted breach comes up again.
                    middle = _policy_line(rnd, cases.issue[k], breach, slots)
                    policy_said = True
                else:
                    middle = rnd.choice(talk.AGENT_FOLLOW_UPS)
                body = (
                    f"Hello {slots['first']},\n\n{opening.format(**slots)} {middle.format(**slots)}\n\n"
                    f"{rnd.choice(talk.AGENT_CLOSINGS)}\n\nBest regards,\n{agents.names[agent]}\n"
                    "Shoes & Clothings Customer Service"
                )
                sender, sender_addr = agents.names[agent], agents.emails[agent]
                to_addr, to_id = customers.email[c], customers.contact_ids[c]
            self.email["case_n"].append(k + 1)
            self.email["subject"].append(subject if i == 0 and after is None else f"RE: {subject}")
            self.email["body"].append(body)
            self.email["from_name"].append(sender)
            self.email["from_addr"].append(sender_addr)
            self.email["to_addr"].append(to_addr)
            self.email["to_id"].append(to_id)
            self.email["incoming"].append(incoming)
            self.email["sent_at"].append(secs(when))

    def add_chat(self, ctx: Context, rnd, k: int, slots: dict, breach: bool) -> dt.datetime:
        """The chat that opened case ``k``; returns when it ended."""
        cases, customers, agents = ctx.plan["cases"], ctx.plan["customers"], ctx.plan["agents"]
        c = cases.customer[k]
        agent = cases.assignments[k][0][1]
        agent_name, customer_name = agents.names[agent], customers.name(c)
        chat_slots = {**slots, "agent": agent_name.split()[0]}
        script = [
            (True, rnd.choice(talk.CHAT_GREETINGS)),
            (False, cases.description[k]),
            (True, rnd.choice(talk.CHAT_QUESTIONS)),
            (False, rnd.choice(talk.CHAT_CUSTOMER_ANSWERS)),
            (True, _policy_line(rnd, cases.issue[k], breach, slots)),
            (False, rnd.choice(talk.CHAT_THANKS)),
            (True, rnd.choice(talk.CHAT_ENDINGS)),
        ]
        start = cases.created[k]
        when = start
        lines = []
        for i, (by_agent, text) in enumerate(script):
            if i:
                when += dt.timedelta(seconds=rnd.randint(15, 110))
            who = f"{agent_name} (Agent)" if by_agent else f"{customer_name} (Customer)"
            lines.append(f"[{when.isoformat(timespec='seconds')}] {who}: {text.format(**chat_slots)}")
        self.chat["case_n"].append(k + 1)
        self.chat["cust"].append(c + 1)
        self.chat["owner"].append(agents.ids[agent])
        self.chat["body"].append("\n".join(lines))
        self.chat["request"].append(secs(start) - rnd.randint(5, 90))
        self.chat["start"].append(secs(start))
        self.chat["stop"].append(secs(when))
        self.chat["ops"].append(sum(1 for by_agent, _ in script if by_agent))
        self.chat["visitors"].append(sum(1 for by_agent, _ in script if not by_agent))
        self.chat["location"].append(f"{customers.city[c]}, {customers.state[c]}, United States")
        return when

    def flush_if_full(self) -> None:
        if len(self.email["case_n"]) >= BATCH:
            self._flush_emails()
        if len(self.chat["case_n"]) >= BATCH:
            self._flush_chats()

    def _flush_emails(self) -> None:
        types = {"case_n": "BIGINT", "incoming": "BOOLEAN", "sent_at": "BIGINT"}
        if self.email["case_n"] or not self.ctx.writer.is_staged("raw_email"):
            self.ctx.stage("raw_email", {k: (types.get(k, "VARCHAR"), v) for k, v in self.email.items()})
        for v in self.email.values():
            v.clear()

    def _flush_chats(self) -> None:
        types = {"body": "VARCHAR", "owner": "VARCHAR", "location": "VARCHAR"}
        if self.chat["case_n"] or not self.ctx.writer.is_staged("raw_chat"):
            self.ctx.stage("raw_chat", {k: (types.get(k, "BIGINT"), v) for k, v in self.chat.items()})
        for v in self.chat.values():
            v.clear()

    def finish(self) -> None:
        self._flush_emails()
        self._flush_chats()
        ctx = self.ctx
        ctx.write(
            "EmailMessage",
            f'SELECT {ctx.sql_id("EmailMessage", "n")} AS "Id", {ctx.sql_id("Case", "case_n")} AS "ParentId", '
            f'{audit_sql(ts("sent_at"))}, body AS "TextBody", subject AS "Subject", from_name AS "FromName", '
            'from_addr AS "FromAddress", to_addr AS "ToAddress", incoming AS "Incoming", '
            "CASE WHEN incoming THEN '1' ELSE '3' END AS \"Status\", "
            f'{ts("sent_at")} AS "MessageDate", true AS "IsExternallyVisible", [to_id] AS "ToIds" '
            "FROM (SELECT row_number() OVER (ORDER BY sent_at, case_n, rowid) AS n, * FROM raw_email) ORDER BY n",
        )
        ctx.writer.con.execute(
            "CREATE TABLE raw_chat_n AS SELECT row_number() OVER (ORDER BY start, case_n) AS n, * FROM raw_chat"
        )
        ctx.write(
            "LiveChatVisitor",
            f'SELECT {ctx.sql_id("LiveChatVisitor", "n")} AS "Id", {autonumber("n", 8)} AS "Name", '
            f"{audit_sql(ts('request'))}, md5('visitor-' || n::VARCHAR) AS \"SessionKey\" FROM raw_chat_n ORDER BY n",
        )
        ctx.write(
            "LiveChatTranscript",
            f'SELECT {ctx.sql_id("LiveChatTranscript", "n")} AS "Id", owner AS "OwnerId", '
            f'{autonumber("n", 8)} AS "Name", {audit_sql(ts("stop"))}, '
            f'{ctx.sql_id("LiveChatVisitor", "n")} AS "LiveChatVisitorId", body AS "Body", '
            f'{ctx.sql_id("Contact", "cust")} AS "ContactId", {ctx.sql_id("Case", "case_n")} AS "CaseId", '
            f'{ctx.sql_id("Account", "cust")} AS "AccountId", location AS "Location", \'Completed\' AS "Status", '
            f'{ts("request")} AS "RequestTime", {ts("start")} AS "StartTime", {ts("stop")} AS "EndTime", '
            '\'Visitor\' AS "EndedBy", ops AS "OperatorMessageCount", visitors AS "VisitorMessageCount", '
            'stop - start AS "ChatDuration", start - request AS "WaitTime", false AS "IsChatbotSession" '
            "FROM raw_chat_n ORDER BY n",
        )
