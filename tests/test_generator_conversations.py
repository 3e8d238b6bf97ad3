"""Each case's chat and emails read as one service conversation, the way an agent reads them.

The policy-violation task hands an LLM a case's messages (CRMArena's EmailMessage and
LiveChatTranscript queries) and asks whether an agent breached a policy, so the thread must
be believable: dated inside the case's life and in order, sent by whoever owned the case at
the time, greeted once, every reply answering the message before it, and ending the way the
case ended. Read from the `tiny` org through simple-salesforce, as a solver would.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field

import pytest
from crmarena_sf.loaders.generate import conversation_text as talk
from crmarena_sf.loaders.generate import generate

import crmarena_sf

CHAT_LINE = re.compile(r"\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\] (.+) \((Customer|Agent)\): (.*)")


def _pattern(template: str) -> re.Pattern:
    """A template as a regex: its slots match any text."""
    parts = re.split(r"\{[a-z_]+\}", template)
    return re.compile(".+?".join(re.escape(p) for p in parts))


def _patterns(templates) -> list[re.Pattern]:
    return [_pattern(t) for t in templates]


def _all(groups: dict) -> list[str]:
    return [t for lines in groups.values() for t in lines]


FIRST_CONTACT = _patterns(talk.AGENT_OPENINGS)
LATE_REPLY = _patterns(talk.LATE_REPLY_OPENINGS)
CHAT_FOLLOW_UP = _patterns(talk.CHAT_FOLLOW_UP_OPENINGS)
TRANSFER = _patterns(talk.TRANSFER_NOTES)
WRAP_UPS = _patterns(_all(talk.AGENT_WRAP_UPS))
SIGN_OFFS = _patterns(_all(talk.CUSTOMER_SIGN_OFFS))
QUICK = _patterns(talk.QUICK_REACTIONS)
ASKS = {what: _patterns([t for t, w in talk.ASKED_FOR.items() if w == what]) for what in {"photos", "order"}}
PROVIDES = {what: _patterns(lines) for what, lines in talk.CUSTOMER_PROVIDES.items()}
NEEDS_PHOTOS = _patterns([t for t, need in talk.NEEDS.items() if need == "photos"])
QUESTIONS = {q: _pattern(q) for q in {q for qs in talk.FOLLOW_UP_QUESTIONS.values() for q in qs}}
VIOLATIONS = [_patterns(lines) for lines in talk.VIOLATIONS]


def _when(value: str) -> dt.datetime:
    return dt.datetime.strptime(value[:19], "%Y-%m-%dT%H:%M:%S")


def _has(patterns, text: str) -> bool:
    return any(p.search(text) for p in patterns)


@dataclass
class Message:
    when: dt.datetime
    by_agent: bool
    text: str
    """An email's message (greeting and signature left out) or a chat line's words."""
    email: dict | None = None
    """The EmailMessage record, or None for a chat line."""
    author: str = ""
    """A chat line's speaker."""
    closing: str = ""
    """An agent email's closing paragraph."""


@dataclass
class Thread:
    case: dict
    chat: dict | None = None
    messages: list[Message] = field(default_factory=list)
    owners: list[tuple[dt.datetime, str]] = field(default_factory=list)

    @property
    def emails(self) -> list[Message]:
        return [m for m in self.messages if m.email is not None]

    def owner_at(self, when: dt.datetime) -> str:
        return [user for at, user in self.owners if at <= when][-1]


def _email_message(record: dict) -> Message:
    paragraphs = record["TextBody"].split("\n\n")
    if record["Incoming"]:  # Hi, / the message / (Thanks,) name
        return Message(_when(record["MessageDate"]), False, paragraphs[1], email=record)
    # Hello first, / the message / closing / Best regards, name, team
    assert paragraphs[0].startswith("Hello ") and paragraphs[-1].startswith("Best regards,\n"), record
    return Message(_when(record["MessageDate"]), True, paragraphs[1], email=record, closing=paragraphs[2])


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    return generate(tmp_path_factory.mktemp("gen") / "tiny", profile="tiny", seed=0)


@pytest.fixture(scope="module")
def latent(dataset):
    return json.loads((dataset / "manifest.json").read_text())["latent"]


@pytest.fixture(scope="module")
def users(dataset):
    sf = crmarena_sf.connect(org=str(dataset))
    return {u["Id"]: u for u in sf.query_all("SELECT Id, Name, Email FROM User")["records"]}


@pytest.fixture(scope="module")
def threads(dataset):
    sf = crmarena_sf.connect(org=str(dataset))

    def records(query):
        return sf.query_all(query)["records"]

    out = {
        c["Id"]: Thread(c)
        for c in records("SELECT Id, Status, CreatedDate, ClosedDate, IssueId__c, OwnerId FROM Case")
    }
    for chat in records("SELECT CaseId, Body, StartTime, EndTime, OwnerId FROM LiveChatTranscript"):
        thread = out[chat["CaseId"]]
        assert thread.chat is None, "one chat per case"
        thread.chat = chat
        for line in chat["Body"].split("\n"):
            at, author, role, text = CHAT_LINE.fullmatch(line).groups()
            thread.messages.append(Message(_when(at), role == "Agent", text, author=author))
    emails = records(
        "SELECT ParentId, Subject, TextBody, FromAddress, ToAddress, MessageDate, Incoming FROM EmailMessage"
    )
    for email in sorted(emails, key=lambda e: e["MessageDate"]):
        out[email["ParentId"]].messages.append(_email_message(email))
    for row in records(
        "SELECT CaseId__c, NewValue__c, CreatedDate FROM CaseHistory__c "
        "WHERE Field__c = 'Owner Assignment' ORDER BY CreatedDate, Name"
    ):
        out[row["CaseId__c"]].owners.append((_when(row["CreatedDate"]), row["NewValue__c"]))
    return out


def test_every_case_has_a_conversation_dated_inside_its_life_in_time_order(threads, latent):
    captured = _when(latent["date_range"]["data_captured"])
    for case_id, thread in threads.items():
        case, messages = thread.case, thread.messages
        assert messages, case_id
        times = [m.when for m in messages]
        assert all(a < b for a, b in zip(times, times[1:])), case_id  # chat lines, then emails, never tied
        assert times[0] == _when(case["CreatedDate"]), case_id  # the chat or the customer's email opened it
        last_allowed = _when(case["ClosedDate"]) if case["ClosedDate"] else captured
        assert times[-1] <= last_allowed, case_id
        if thread.chat is not None:
            chat_lines = [m for m in messages if m.email is None]
            assert messages[: len(chat_lines)] == chat_lines, case_id  # every email follows the chat
            assert _when(thread.chat["StartTime"]) == chat_lines[0].when, case_id
            assert _when(thread.chat["EndTime"]) == chat_lines[-1].when, case_id
        else:
            assert messages[0].email["Incoming"] and not messages[0].email["Subject"].startswith("RE: ")


def test_whoever_writes_for_the_company_owns_the_case_at_that_moment(threads, users):
    handovers = 0
    for case_id, thread in threads.items():
        if thread.chat is not None:
            assert thread.chat["OwnerId"] == thread.owner_at(_when(thread.chat["StartTime"])), case_id
        speaker = thread.owners[0][1]  # the customer's first email goes to the first owner
        for m in thread.messages:
            owner = users[thread.owner_at(m.when)]
            if m.email is None:
                if m.by_agent:
                    assert m.author == owner["Name"], case_id
                    speaker = owner["Id"]
                continue
            if not m.by_agent:
                assert m.email["ToAddress"] == owner["Email"], case_id
                continue
            assert m.email["FromAddress"] == owner["Email"], case_id
            assert m.email["TextBody"].endswith(
                f"Best regards,\n{owner['Name']}\nShoes & Clothings Customer Service"
            )
            # A new owner says the case was passed on, naming the colleague; nobody else claims a handover.
            said = [p.search(m.text) for p in TRANSFER]
            if speaker != owner["Id"]:
                handovers += 1
                assert any(said) and users[speaker]["Name"] in m.text, (case_id, m.text)
            else:
                assert not any(said), (case_id, m.text)
            speaker = owner["Id"]
    assert handovers  # the tiny org has transfers between emails: the check above ran


def test_a_first_contact_greeting_only_opens_a_thread(threads):
    for case_id, thread in threads.items():
        agent_emails = [m for m in thread.emails if m.by_agent]
        for n, m in enumerate(agent_emails):
            first_contact = _has(FIRST_CONTACT, m.text)
            chat_follow_up = _has(CHAT_FOLLOW_UP, m.text)
            if n == 0 and thread.chat is not None:
                assert chat_follow_up and not first_contact, (case_id, m.text)
            elif n == 0:
                assert first_contact or any(p.match(m.text) for p in LATE_REPLY), (case_id, m.text)
                assert not chat_follow_up, (case_id, m.text)
            else:  # e.g. no "Thanks for contacting us about this" after "As promised in our chat ..."
                assert not first_contact and not chat_follow_up, (case_id, m.text)
        chat_greetings = [m for m in thread.messages if _has(_patterns(talk.CHAT_GREETINGS), m.text)]
        assert chat_greetings == [m for m in thread.messages[:1] if thread.chat is not None], case_id


def test_each_customer_message_answers_the_one_before_it(threads):
    asked = answered = quick = 0
    for case_id, thread in threads.items():
        messages = thread.messages
        for i, m in enumerate(messages):
            before = messages[i - 1] if i else None
            after = messages[i + 1] if i + 1 < len(messages) else None
            if m.by_agent:
                # "Thank you for the photos" only once the customer has sent some.
                if _has(NEEDS_PHOTOS, m.text):
                    said = [x.text for x in messages[:i] if not x.by_agent]
                    assert any("photo" in t.lower() for t in said), (case_id, m.text)
                continue
            if m.email is None or before is None:
                continue
            # Asked for photos or the order, the customer sends them next (and never unasked).
            for what in ASKS:
                was_asked = before.by_agent and _has(ASKS[what], before.text)
                assert _has(PROVIDES[what], m.text) == was_asked, (case_id, m.text)
            # A customer's question gets its answer in the agent's next email.
            for question, pattern in QUESTIONS.items():
                if pattern.search(m.text):
                    asked += 1
                    assert after is None or _has(_patterns(talk.ANSWERS[question]), after.text), (
                        case_id,
                        m.text,
                    )
                    answered += after is not None
            # Thanks for a quick reply only when the agent's email answered the customer within two hours.
            if _has(QUICK, m.text):
                quick += 1
                asked_at = messages[i - 2]
                assert before.by_agent and before.email is not None and not asked_at.by_agent, case_id
                assert before.when - asked_at.when <= dt.timedelta(hours=2), case_id
    assert asked and answered and quick


def test_a_closed_thread_ends_settled_and_an_open_one_never_claims_closure(threads):
    endings = _patterns(_all(talk.CHAT_ENDINGS))
    for case_id, thread in threads.items():
        last = thread.messages[-1]
        texts = [m.text + " " + m.closing for m in thread.messages]
        if thread.case["Status"] == "Closed":
            if last.email is None:  # a chat that settled everything
                assert last.by_agent and _has(endings, last.text), case_id
            elif last.by_agent:
                assert _has(WRAP_UPS, last.closing), (case_id, last.closing)
            else:
                assert _has(SIGN_OFFS, last.text), (case_id, last.text)
            # Only the very last message winds the case up.
            assert not any(_has(WRAP_UPS + SIGN_OFFS, t) for t in texts[:-1]), case_id
        else:
            assert not any(_has(WRAP_UPS + SIGN_OFFS, t) for t in texts), case_id
            agent_texts = [t for m, t in zip(thread.messages, texts) if m.by_agent]
            assert not any(re.search(r"\bclos(e|ed|ing)\b", t) for t in agent_texts), case_id


def test_a_planted_breach_is_one_agent_line_of_the_cases_issue_and_clean_cases_have_none(threads, latent):
    issue_index = list(latent["issues"])
    policy_of = {article: issue for issue, article in latent["policy_articles"].items()}
    violations = latent["policy_violations"]
    assert violations and len(latent["clean_cases"]) + len(violations) == len(threads)
    for case_id, thread in threads.items():
        breaches = [
            (m, group)
            for m in thread.messages
            for group, patterns in enumerate(VIOLATIONS)
            for p in patterns
            if p.search(m.text)
        ]
        if case_id not in violations:
            assert breaches == [], case_id
            continue
        assert len(breaches) == 1, (case_id, breaches)
        (m, group), issue = breaches[0], thread.case["IssueId__c"]
        assert m.by_agent and group == issue_index.index(issue) and policy_of[violations[case_id]] == issue


def test_a_breach_that_states_the_orders_age_is_true_of_the_case(dataset):
    """ "It has been N days since delivery" / "Your purchase is N months old" match the order's real age
    and are past the policy's limit, so a reader can check the breach against the dates."""
    sf = crmarena_sf.connect(org=str(dataset))
    ordered = {
        r["Id"]: dt.date.fromisoformat(r["Order"]["EffectiveDate"])
        for r in sf.query_all("SELECT Id, Order.EffectiveDate FROM OrderItem")["records"]
    }
    created = {
        r["Id"]: (_when(r["CreatedDate"]).date() - ordered[r["OrderItemId__c"]]).days
        for r in sf.query_all("SELECT Id, CreatedDate, OrderItemId__c FROM Case")["records"]
    }
    texts = [
        (e["ParentId"], e["TextBody"])
        for e in sf.query_all("SELECT ParentId, TextBody FROM EmailMessage WHERE Incoming = false")["records"]
    ]
    texts += [
        (c["CaseId"], c["Body"])
        for c in sf.query_all("SELECT CaseId, Body FROM LiveChatTranscript")["records"]
    ]
    for case, text in texts:
        for days in re.findall(r"It has been (\d+) days since delivery", text):
            assert 14 < int(days) <= created[case], (case, days, created[case])
        for months in re.findall(r"Your purchase is (\d+) months old", text):
            assert int(months) > 12 and int(months) * 30 <= created[case], (case, months, created[case])
