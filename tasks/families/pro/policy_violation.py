"""policy_violation_identification on the Pro orgs: which service policy an agent broke on a case, if any.

``params``: ``case_id``. The agent reads the case's emails and chat transcript and the service
policy articles. Gold: what the company's agents wrote on the case (its outgoing emails, the
agent lines of its chats) is read for the statements that break one of the orgs' service
policies (:func:`crmarena_sf.tasks.pro.texts.breached_titles`); a breach points to the article
titled as the policy (found by SOQL). None when no statement breaks a policy. CRMArena-Pro's
split has 77 None answers in 100; a case with breaches of two policies would be ambiguous and
is never asked.
"""

from __future__ import annotations

from crmarena_sf.tasks.families.base import Draft, Solution
from crmarena_sf.tasks.families.policy_violation import QUESTIONS, agent_text, breached_article
from crmarena_sf.tasks.families.pro.base import ProBuildContext
from crmarena_sf.tasks.org_client import OrgClient, quote
from crmarena_sf.tasks.pro.texts import breached_titles

NAME = "policy_violation_identification"
METRIC = "exact_match"
NONE_SHARE = 0.77


def solve(client: OrgClient, params: dict) -> Solution:
    case = quote(params["case_id"])
    emails = client.query(f"SELECT TextBody, Incoming FROM EmailMessage WHERE ParentId = {case}")
    chats = client.query(f"SELECT Body FROM LiveChatTranscript WHERE CaseId = {case}")
    return breached_article(client, sorted(breached_titles(agent_text(emails, chats))))


def generate(ctx: ProBuildContext, n: int, n_none: int) -> list[Draft]:
    rnd = ctx.rnd
    client = OrgClient(ctx.sf)
    text_of: dict[str, list[str]] = {}
    for e in client.query(
        "SELECT ParentId, TextBody FROM EmailMessage WHERE Incoming = false AND ParentId != null"
    ):
        text_of.setdefault(e["ParentId"], []).append(e["TextBody"] or "")
    for c in client.query("SELECT CaseId, Body FROM LiveChatTranscript WHERE CaseId != null"):
        text_of.setdefault(c["CaseId"], []).append(agent_text([], [c]))
    by_title = {a.title: a.id for a in ctx.sales.articles.values()}
    breached, clean = [], []
    for case_id in sorted(text_of):
        titles = breached_titles("\n".join(text_of[case_id]))
        if not titles:
            clean.append((case_id, None))
        elif len(titles) == 1 and titles.copy().pop() in by_title:
            breached.append((case_id, by_title[titles.pop()]))
    rnd.shuffle(breached)
    rnd.shuffle(clean)
    positives = min(n - n_none, len(breached))
    chosen = breached[:positives] + clean[: n - positives]
    rnd.shuffle(chosen)
    return [
        Draft(
            {"case_id": case_id},
            rnd.choice(QUESTIONS),
            f"- Case in question (Id): {case_id}",
            answer,
            (case_id,),
        )
        for case_id, answer in chosen
    ]
