"""knowledge_qa: a customer's question answered from the knowledge base (Service Agent, token F1).

Each article lists its frequently asked questions with their short answers at the end of
``FAQ_Answer__c`` ("Q: ... A: ..."). ``params`` holds the article's Id and the question as
the article words it; the customer's question is phrased in other words around it. Gold: the
article's answer to that question, read from the org (SOQL by Id).
"""

from __future__ import annotations

import html
import re

from crmarena_sf.tasks.families.base import BuildContext, Draft, Solution
from crmarena_sf.tasks.org_client import OrgClient, quote

NAME = "knowledge_qa"
PERSONA = "agent"
METRIC = "fuzzy_match"
NONE_SHARE = 0.0

REQUIRED = "- Use the information in the knowledge articles to answer the question concisely."

FRAMES = (
    "{q}",
    "Hi there! {q}",
    "Quick question: {q}",
    "{q} Thanks in advance.",
    "Hello, I was wondering about something. {q}",
    "Could you help me with this? {q}",
    "I couldn't find this on your website. {q}",
)

_QA = re.compile(r"Q:\s*(?P<q>.+?)\s*A:\s*(?P<a>.+?)\s*(?=Q:|$)", re.S)


def faq(rich_text: str) -> list[tuple[str, str]]:
    """The (question, answer) pairs an article lists, from its rich text."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", rich_text or ""))
    text = " ".join(text.split())
    head, sep, tail = text.partition("Frequently asked questions")
    if not sep:
        return []
    return [(m["q"].strip(), m["a"].strip()) for m in _QA.finditer(tail)]


def solve(client: OrgClient, params: dict) -> Solution:
    rows = client.query(
        f"SELECT Title, FAQ_Answer__c FROM Knowledge__kav WHERE Id = {quote(params['article_id'])}"
    )
    for question, answer in faq(rows[0]["FAQ_Answer__c"] if rows else ""):
        if question == params["question"]:
            return Solution(answer)
    raise LookupError(f"article {params['article_id']} does not answer {params['question']!r}")


def generate(ctx: BuildContext, n: int, n_none: int) -> list[Draft]:
    rnd = ctx.rnd
    facts, seen_questions = [], set()
    for article_id, (_title, text) in sorted(ctx.facts.articles.items(), key=lambda kv: (kv[1][0], kv[0])):
        for question, answer in faq(text):
            if question not in seen_questions:  # a copied article repeats its original's questions
                seen_questions.add(question)
                facts.append((article_id, question, answer))
    if not facts:
        return []
    rnd.shuffle(facts)
    drafts, seen = [], set()
    for i in range(n * 20):
        if len(drafts) >= n:
            break
        article_id, question, answer = facts[i % len(facts)]
        frame = rnd.choice(FRAMES)
        if (question, frame) in seen:
            continue
        seen.add((question, frame))
        query = frame.format(q=question)
        drafts.append(
            Draft(
                {"article_id": article_id, "question": question}, query, REQUIRED, answer, (question, frame)
            )
        )
    return drafts
