"""EmailMessage, LiveChatVisitor and LiveChatTranscript: what customers and agents wrote on each case.

Every case without a chat has an email thread (the customer's first message opened it);
some chat cases get follow-up emails. A planted share of cases contains one agent line
that breaks the policy article governing the case's issue (policy-violation task); every
other case's agent lines follow the policies. Chat bodies use CRMArena's transcript lines
``[2020-12-22T11:03:45] Name (Customer|Agent): text`` (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db).

Each case's messages read as one conversation, because the policy-violation task has an LLM
read them: the chat opens the case at CreatedDate and any emails follow it; every message is
dated inside the case's life (before ClosedDate, or the data capture for open cases) and
strictly after the one before; whoever writes for the company owns the case at that moment
and says so when the case was passed to them; only the thread's first reply greets the
customer; each reply answers the message before it (:mod:`crmarena_sf.loaders.generate.conversation_text`);
a closed case's thread ends wrapped up or signed off, an open one's never does.
"""

from __future__ import annotations

import datetime as dt

from crmarena_sf.emulator.store.derive import AUTONUMBER_FORMATS
from crmarena_sf.loaders.generate import conversation_text as talk
from crmarena_sf.loaders.generate.cases import DATA_NOW
from crmarena_sf.loaders.generate.context import Context, audit_sql, autonumber, secs, ts

VIOLATION_RATE = 0.15
MAX_EMAILS_PER_CASE = 8
BATCH = 50_000
QUICK_REPLY = dt.timedelta(hours=2)
"""A customer thanks for a quick reply only when the agent answered within this."""
LATE_REPLY = dt.timedelta(days=1)
"""An agent answering later than this apologises for the wait."""
SIGNATURE = "Shoes & Clothings Customer Service"


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
        thread = _Thread(ctx, rnd, k, _slots(ctx, rnd, k), writer)
        if cases.chat[k]:
            thread.chat(breach=article is not None and in_chat)
        if emails_per_case[k]:
            thread.emails(emails_per_case[k], breach=article is not None and not in_chat)
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
        # The order's real age: a breach line that states it must be true of the case (BREACH_AGE).
        "days": max((cases.created[k].date() - order_date).days - 5, 0),
        "months": (cases.created[k].date() - order_date).days // 30,
        "amount": f"{rnd.randint(10, 80)}.00",
        "points": rnd.randrange(500, 5000, 250),
        "order_date": f"{order_date:%B} {order_date.day}, {order_date.year}",
    }


def _policy_line(rnd, issue: int, breach: bool, order_age: int, description: str, may_ask: bool) -> str:
    """The template of the agent's policy line: a breach, or a compliant line that fits the thread.

    A compliant line must be true of the case (how old the order is), must not ask for photos
    the customer already sent nor presuppose what the customer cannot have said; it should
    answer what the customer asked (``TOPICS``), and asks for something only when the customer
    can still provide it and hear back (``may_ask``). The softer wishes give way when no line
    fulfils them all.
    """
    if breach:
        return _breach_line(rnd, issue, order_age)
    lines = talk.COMPLIANT[issue % len(talk.COMPLIANT)]
    photos_sent = _mentions_photos(description)
    lowered = description.lower()
    true = [
        line
        for line in lines
        if _fits_age(line, order_age)
        and (line not in talk.NEEDS or talk.NEEDS[line] in talk.CUSTOMER_CONTEXT)
        and not (photos_sent and talk.ASKED_FOR.get(line) == "photos")
    ]
    on_topic = [
        line for line in true if line not in talk.TOPICS or any(w in lowered for w in talk.TOPICS[line])
    ]
    for group in (on_topic, true):
        answerable = [line for line in group if may_ask or line not in talk.ASKED_FOR]
        if answerable or group:
            return rnd.choice(answerable or group)
    return rnd.choice(lines)


def _breach_line(rnd, issue: int, order_age: int) -> str:
    """A statement breaking the issue's policy; one that states the order's age only where it is true."""
    lines = talk.VIOLATIONS[issue % len(talk.VIOLATIONS)]
    true = [line for line in lines if order_age >= talk.BREACH_AGE.get(line, 0)]
    return rnd.choice(true or [line for line in lines if line not in talk.BREACH_AGE])


def _fits_age(line: str, order_age: int) -> bool:
    least, most = talk.ORDER_AGE.get(line, (None, None))
    return (least is None or order_age >= least) and (most is None or order_age <= most)


def _mentions_photos(text: str) -> bool:
    return "photo" in text.lower()


class _Thread:
    """One case's conversation as it unfolds: each message answers what the previous one said.

    ``matter`` is what the policy line left (ASKS, PENDING, DECLINES or SETTLES; once the
    customer provides what was asked, PENDING); ``last`` is the previous message's move;
    ``agent`` who last spoke for the company (a different owner introduces themselves).
    """

    def __init__(self, ctx: Context, rnd, k: int, slots: dict, writer: _Rows) -> None:
        self.rnd, self.k, self.slots, self.writer = rnd, k, slots, writer
        cases = ctx.plan["cases"]
        self.cases, self.customers, self.agents = cases, ctx.plan["customers"], ctx.plan["agents"]
        self.c = cases.customer[k]
        self.customer_name = self.customers.name(self.c)
        self.matter: str | None = None
        self.asked_for: str | None = None
        self.last: tuple = ()
        self.agent = cases.owner_at(k, cases.created[k])
        self.at: dt.datetime | None = None
        self.asked: set[str] = set()
        self.order_age = (cases.created[k].date() - cases.order_day[k]).days
        # What the first reply will say (chosen with the customer's first email), and how long the
        # agent's last reply took.
        self.policy: str | None = None
        self.answered_in = dt.timedelta(0)

    def say(self, template: str, **extra) -> str:
        return template.format(**self.slots, **extra)

    def _after_policy(self, line: str) -> None:
        kind = talk.policy_kind(line)
        self.matter = kind
        self.asked_for = talk.ASKED_FOR.get(line)
        self.last = ("policy", kind)

    def chat(self, breach: bool) -> None:
        """The chat that opened the case: greeting, the customer's problem, the order, the policy line, goodbye."""
        rnd, cases, k = self.rnd, self.cases, self.k
        start = cases.created[k]
        agent = cases.owner_at(k, start)
        agent_name = self.agents.names[agent]
        description = cases.description[k]
        photos_sent = _mentions_photos(description)
        line = _policy_line(rnd, cases.issue[k], breach, self.order_age, description, may_ask=True)
        kind = talk.policy_kind(line)
        answer = self.say(rnd.choice(talk.CHAT_CUSTOMER_ANSWERS))
        needed = talk.NEEDS.get(line)
        if needed and not (needed == "photos" and photos_sent):
            answer += " " + rnd.choice(talk.CHAT_CONTEXT[needed])
        if kind == talk.ASKS:
            reaction = rnd.choice(talk.CHAT_PROVIDES[talk.ASKED_FOR[line]])
        else:
            reaction = rnd.choice(talk.CHAT_REACTIONS[kind])
        script = [
            (True, self.say(rnd.choice(talk.CHAT_GREETINGS), agent=agent_name.split()[0])),
            (False, description),
            (True, self.say(rnd.choice(talk.CHAT_QUESTIONS))),
            (False, answer),
            (True, self.say(line)),
            (False, self.say(reaction)),
            (True, self.say(rnd.choice(talk.CHAT_ENDINGS[kind]))),
        ]
        times = self._chat_times(start, len(script))
        lines = []
        for when, (by_agent, text) in zip(times, script):
            who = f"{agent_name} (Agent)" if by_agent else f"{self.customer_name} (Customer)"
            lines.append((when, by_agent, f"[{when.isoformat(timespec='seconds')}] {who}: {text}"))
        c = self.c
        self.writer.add_chat(
            k,
            c,
            self.agents.ids[agent],
            lines,
            request=secs(start) - rnd.randint(5, 90),
            location=f"{self.customers.city[c]}, {self.customers.state[c]}, United States",
        )
        self._after_policy(line)
        if kind == talk.ASKS:  # provided in the chat itself
            self.matter, self.asked_for = talk.PENDING, None
        self.last = ("chat",)
        self.agent, self.at = agent, times[-1]

    def _chat_times(self, start: dt.datetime, count: int) -> list[dt.datetime]:
        """When each chat line was sent: 15-110 s apart, squeezed to end before a transfer or the case's end."""
        gaps = [self.rnd.randint(15, 110) for _ in range(count - 1)]
        assignments = self.cases.assignments[self.k]
        limits = [at for at, _ in assignments[1:]] + [self._end()]
        room = int((min(limits) - start).total_seconds()) - 1
        if sum(gaps) > room:
            gaps = [max(1, gap * room // sum(gaps)) for gap in gaps]
        times = [start]
        for gap in gaps:
            times.append(times[-1] + dt.timedelta(seconds=gap))
        return times

    def _end(self) -> dt.datetime:
        """The latest moment a message on this case can be sent."""
        k = self.k
        return self.cases.closed[k] or min(self.cases.created[k] + dt.timedelta(days=10), DATA_NOW)

    def emails(self, count: int, breach: bool) -> None:
        """``count`` emails: opened by the customer's email, or (after a chat) by the agent's follow-up."""
        cases, k = self.cases, self.k
        after_chat = self.at is not None
        closed = cases.closed[k] is not None
        last_from_agent = ((count - 1) % 2 == 0) == after_chat
        times = self._email_times(count, wrap_up=closed and last_from_agent)
        subject = cases.subject[k]
        customer = (self.customers.email[self.c], self.customers.contact_ids[self.c])
        for i, when in enumerate(times):
            incoming = (i % 2 == 0) != after_chat
            owner = cases.owner_at(k, when)
            ends = closed and i == count - 1
            if incoming and i == 0:
                text = self._opening_email(breach, may_ask=not closed or count >= 4)
                body = f"Hi,\n\n{text}\n\nThanks,\n{self.customer_name}"
            elif incoming:
                body = f"Hi,\n\n{self._customer_reply(when, signs_off=ends)}\n\n{self.customer_name}"
            else:
                body = self._agent_email(i, when, owner, breach, wraps_up=ends)
            agent = (self.agents.emails[owner], self.agents.ids[owner])
            self.writer.add_email(
                k,
                subject if i == 0 and not after_chat else f"RE: {subject}",
                body,
                (self.customer_name, customer[0]) if incoming else (self.agents.names[owner], agent[0]),
                agent if incoming else customer,
                incoming,
                when,
            )
            self.at = when

    def _opening_email(self, breach: bool, may_ask: bool) -> str:
        """The customer's first email: the case description, plus what the agent's answer presupposes.

        The agent's policy line is chosen here, before the customer writes, and kept for the reply.
        """
        text = self.cases.description[self.k]
        line = _policy_line(self.rnd, self.cases.issue[self.k], breach, self.order_age, text, may_ask)
        needed = talk.NEEDS.get(line)
        if needed and not (needed == "photos" and _mentions_photos(text)):
            text += " " + self.rnd.choice(talk.CUSTOMER_CONTEXT[needed])
        self.policy = line
        return text

    def _agent_email(self, i: int, when: dt.datetime, owner: int, breach: bool, wraps_up: bool) -> str:
        """An agent's email: an opening fit for its place in the thread, the answer, a closing.

        The first reply to the customer's email greets them and gives the policy line; the first
        email after a chat follows the chat up (with the planted breach if it is in the emails);
        every later one answers the customer's last message. A new owner says the case was
        passed to them; a closed case's last email wraps it up.
        """
        rnd = self.rnd
        if i == 0:
            opening = talk.CHAT_FOLLOW_UP_OPENINGS
            if breach:
                middle = self.say(_breach_line(rnd, self.cases.issue[self.k], self.order_age))
                self.matter, self.last = talk.SETTLES, ("policy", talk.SETTLES)
            else:
                middle = self.say(rnd.choice(talk.CHAT_RECAPS[self.matter]))
                self.last = ("recap",)
        elif self.policy is not None:
            opening, middle = talk.AGENT_OPENINGS, self.say(self.policy)
            self._after_policy(self.policy)
            self.policy = None
        else:
            opening, middle = talk.AGENT_FOLLOW_UP_OPENINGS, self._agent_answer()
        if i:  # a reply to the customer's last message
            self.answered_in = when - self.at
            if self.answered_in > LATE_REPLY:
                opening = talk.LATE_REPLY_OPENINGS
        parts = [self.say(rnd.choice(opening))]
        if owner != self.agent:
            if opening is talk.AGENT_FOLLOW_UP_OPENINGS:
                parts = []  # a new owner introduces themselves rather than thank for a reply to them
            parts.append(self.say(rnd.choice(talk.TRANSFER_NOTES), previous=self.agents.names[self.agent]))
        parts.append(middle)
        closing = rnd.choice(talk.AGENT_WRAP_UPS[self.matter] if wraps_up else talk.AGENT_CLOSINGS)
        self.agent = owner
        return (
            f"Hello {self.slots['first']},\n\n{' '.join(parts)}\n\n{self.say(closing)}\n\n"
            f"Best regards,\n{self.agents.names[owner]}\n{SIGNATURE}"
        )

    def _email_times(self, count: int, wrap_up: bool) -> list[dt.datetime]:
        """Strictly increasing send times inside the case's life, after the chat if there was one.

        The customer's first email opens the case at its CreatedDate; an email after a chat
        follows it by 1-10 minutes. A closed case's wrap-up email comes shortly before ClosedDate.
        """
        rnd, created = self.rnd, self.cases.created[self.k]
        end = self._end()
        if self.at is None:
            floor = start = created
        else:
            floor = self.at + dt.timedelta(seconds=1)
            start = self.at + dt.timedelta(seconds=rnd.randint(60, 600))
        start = max(floor, min(start, end - dt.timedelta(seconds=60 * count)))
        span = int((end - start).total_seconds())
        if span > count * 60:
            offsets = [0] + sorted(rnd.sample(range(60, span), count - 1))
        else:  # a case too short for minute gaps (no profile makes one)
            offsets = [i * max(span // count, 1) for i in range(count)]
        if wrap_up and count > 1:
            offsets[-1] = max(offsets[-1], span - rnd.randint(60, 6 * 3600))
        return [start + dt.timedelta(seconds=s) for s in offsets]

    def _customer_reply(self, when: dt.datetime, signs_off: bool) -> str:
        """The customer's answer to the agent's last email: what was asked for, or a reaction and what next."""
        rnd = self.rnd
        if self.asked_for is not None:
            what, self.asked_for = self.asked_for, None
            self.last = ("provided", what)
            provided = self.say(rnd.choice(talk.CUSTOMER_PROVIDES[what]))
            if signs_off:  # nobody answers any more: the case closes with what the customer sent
                self.last = ("signed off",)
                return f"{provided} {rnd.choice(talk.CUSTOMER_SIGN_OFFS[talk.PENDING])}"
            return provided
        if self.last[0] == "policy":
            reaction = rnd.choice(talk.CUSTOMER_REACTIONS[self.last[1]])
        elif (
            self.last[0] in ("answer", "received") and self.answered_in <= QUICK_REPLY and rnd.random() < 0.5
        ):
            reaction = rnd.choice(talk.QUICK_REACTIONS)
        else:
            reaction = rnd.choice(talk.CUSTOMER_REACTIONS["update"])
        if signs_off:
            self.last = ("signed off",)
            return f"{reaction} {rnd.choice(talk.CUSTOMER_SIGN_OFFS[self.matter])}"
        questions = talk.FOLLOW_UP_QUESTIONS[self.matter]
        question = rnd.choice([q for q in questions if q not in self.asked] or questions)
        self.asked.add(question)
        self.last = ("question", question)
        return f"{reaction} {self.say(question)}"

    def _agent_answer(self) -> str:
        """A later agent email's answer to the customer's last message."""
        move = self.last
        if move[0] == "provided":
            self.matter, self.last = talk.PENDING, ("received",)
            return self.say(self.rnd.choice(talk.AGENT_RECEIVED[move[1]]))
        self.last = ("answer",)
        return self.say(self.rnd.choice(talk.ANSWERS[move[1]]))


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

    def add_email(
        self,
        k: int,
        subject: str,
        body: str,
        sender: tuple[str, str],
        to: tuple[str, str],
        incoming: bool,
        when: dt.datetime,
    ) -> None:
        """One EmailMessage on case ``k``; ``sender`` is (name, address), ``to`` (address, record Id)."""
        self.email["case_n"].append(k + 1)
        self.email["subject"].append(subject)
        self.email["body"].append(body)
        self.email["from_name"].append(sender[0])
        self.email["from_addr"].append(sender[1])
        self.email["to_addr"].append(to[0])
        self.email["to_id"].append(to[1])
        self.email["incoming"].append(incoming)
        self.email["sent_at"].append(secs(when))

    def add_chat(
        self,
        k: int,
        customer: int,
        owner_id: str,
        lines: list[tuple[dt.datetime, bool, str]],
        request: int,
        location: str,
    ) -> None:
        """The transcript of case ``k``: ``lines`` are (when, by the agent, formatted line)."""
        self.chat["case_n"].append(k + 1)
        self.chat["cust"].append(customer + 1)
        self.chat["owner"].append(owner_id)
        self.chat["body"].append("\n".join(text for _, _, text in lines))
        self.chat["request"].append(request)
        self.chat["start"].append(secs(lines[0][0]))
        self.chat["stop"].append(secs(lines[-1][0]))
        self.chat["ops"].append(sum(1 for _, by_agent, _ in lines if by_agent))
        self.chat["visitors"].append(sum(1 for _, by_agent, _ in lines if not by_agent))
        self.chat["location"].append(location)

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
