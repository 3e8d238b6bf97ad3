"""policy_violation_identification: which knowledge article an agent breached on a case, if any (Service Agent).

The agent reads the case, its emails and its chat transcript, and the policy articles.
Gold: the reference solver reads the same records (SOQL) and looks for the statements this
org's agents make when they break a policy (:data:`crmarena_sf.loaders.generate.conversation_text.VIOLATIONS`,
one list per policy); a breach of policy ``i`` points to the article titled like policy
``i`` (found by SOQL on Knowledge__kav). No breach: None. A case with breaches of two
different policies would be ambiguous and is never asked.
"""

from __future__ import annotations

import re
from functools import cache

from crmarena_sf.tasks.families.base import BuildContext, Draft, Solution
from crmarena_sf.tasks.org_client import OrgClient, quote, quote_list
from crmarena_sf.tasks.ranking import rank

NAME = "policy_violation_identification"
PERSONA = "agent"
METRIC = "exact_match"
NONE_SHARE = 39 / 130

QUESTIONS = (
    "Did the agent break company policy on this case? If so, which knowledge article was violated? Return only the Id of the knowledge article, or None if no policy was violated.",
    "Review this case: was any policy breached by the agent? Return only the Id of the knowledge article that was breached, or None if there was no violation.",
    "Check whether the agent handling this case violated a policy. Reply with just the Id of the violated knowledge article, or None if everything followed policy.",
    "Was there a policy violation by the agent in this case? Give only the knowledge article Id of the breached policy, or None if there is none.",
)

_SLOT = re.compile(r"\{[a-z_]+\}")


@cache
def _breach_patterns() -> list[tuple[int, re.Pattern]]:
    """(policy number, regex) for every statement that breaks a policy; slots match any text."""
    from crmarena_sf.loaders.generate.conversation_text import VIOLATIONS

    out = []
    for policy, lines in enumerate(VIOLATIONS):
        for line in lines:
            parts = _SLOT.split(line)
            out.append((policy, re.compile(".+?".join(re.escape(p) for p in parts))))
    return out


@cache
def _policy_titles() -> list[str]:
    from crmarena_sf.loaders.generate.knowledge_text import POLICIES

    return [p.title for p in sorted(POLICIES, key=lambda a: a.issue)]


def agent_text(emails: list[dict], chats: list[dict]) -> str:
    """What the agents wrote on a case: outgoing emails and the agent lines of chat transcripts."""
    parts = [e["TextBody"] or "" for e in emails if not e.get("Incoming")]
    for chat in chats:
        parts += [line for line in (chat["Body"] or "").splitlines() if "(Agent):" in line]
    return "\n".join(parts)


def breached_policies(text: str) -> set[int]:
    return {policy for policy, pattern in _breach_patterns() if pattern.search(text)}


def solve(client: OrgClient, params: dict) -> Solution:
    case = quote(params["case_id"])
    emails = client.query(f"SELECT TextBody, Incoming FROM EmailMessage WHERE ParentId = {case}")
    chats = client.query(f"SELECT Body FROM LiveChatTranscript WHERE CaseId = {case}")
    policies = breached_policies(agent_text(emails, chats))
    return breached_article(client, [_policy_titles()[p] for p in sorted(policies)])


def breached_article(client: OrgClient, titles: list[str]) -> Solution:
    """The one online article titled as the breached policies (None when nothing was breached; a tie
    when several were, which the build never asks)."""
    if not titles:
        return Solution(None, detail={"policies": []})
    rows = client.query(
        f"SELECT Id, Title FROM Knowledge__kav WHERE Title IN {quote_list(titles)} "
        "AND PublishStatus = 'Online' AND Language = 'en_US'"
    )
    ranking = rank({r["Id"]: 1 for r in rows}, "max")
    return Solution(ranking.answer, ranking, {"policies": titles})


def generate(ctx: BuildContext, n: int, n_none: int) -> list[Draft]:
    rnd = ctx.rnd
    client = OrgClient(ctx.sf)
    text_of: dict[str, list[str]] = {}
    for e in client.query("SELECT ParentId, TextBody FROM EmailMessage WHERE Incoming = false"):
        text_of.setdefault(e["ParentId"], []).append(e["TextBody"] or "")
    for c in client.query("SELECT CaseId, Body FROM LiveChatTranscript"):
        text_of.setdefault(c["CaseId"], []).extend(
            line for line in (c["Body"] or "").splitlines() if "(Agent):" in line
        )
    title_to_id = {title: article for article, (title, _) in ctx.facts.articles.items()}
    breached, clean = [], []
    for case_id in sorted(text_of):
        policies = breached_policies("\n".join(text_of[case_id]))
        if not policies:
            clean.append((case_id, None))
        elif len(policies) == 1:
            article = title_to_id.get(_policy_titles()[policies.pop()])
            if article:
                breached.append((case_id, article))
    rnd.shuffle(breached)
    rnd.shuffle(clean)
    chosen = clean[:n_none] + breached[: n - min(n_none, len(clean))]
    rnd.shuffle(chosen)
    return [
        Draft(
            {"case_id": case_id},
            rnd.choice(QUESTIONS),
            f"- Case Id to be considered is: {case_id}",
            answer,
            (case_id,),
        )
        for case_id, answer in chosen
    ]
