"""knowledge_qa on the Pro orgs: a customer's question answered from a public article (token F1).

The Pro orgs' public product articles state their facts in fixed sentences ("The BoardWeave
Studio is our circuit board layout suite. It offers ... and ...", "Customers choose the ... for
its ...", "... belongs to our ... range. Its list price is $... per unit."). ``params``:
``article_id``, ``fact`` (which sentence part is asked for: ``kind``, ``offers``, ``feature``,
``range`` or ``price``) and ``product``. Gold: that part of the article's text, read from the
org by SOQL (so every gold answer is stated in the article). The customer's question is this
project's own wording around the product's name. No None answer.
"""

from __future__ import annotations

import re

from crmarena_sf.tasks.families.base import Draft, Solution
from crmarena_sf.tasks.families.pro.base import ProBuildContext
from crmarena_sf.tasks.org_client import OrgClient, quote
from crmarena_sf.tasks.pro.texts import article_text

NAME = "knowledge_qa"
METRIC = "fuzzy_match"
NONE_SHARE = 0.0

FACTS = {
    "kind": re.compile(r"^The (?P<product>.+?) is our (?P<answer>.+?)\. It offers "),
    "offers": re.compile(r"^The (?P<product>.+?) is our .+?\. It offers (?P<answer>.+?)\.$"),
    "feature": re.compile(
        r"^Customers choose the (?P<product>.+?) for its (?P<answer>.+?)\. It also brings "
    ),
    "range": re.compile(r"^The (?P<product>.+?) belongs to our (?P<answer>.+?) range\. "),
    "price": re.compile(
        r"^The (?P<product>.+?) belongs to our .+? range\. Its list price is (?P<answer>\$[\d,.]+) per unit\.$"
    ),
}
"""Fact -> the article sentence stating it (the answer captured)."""

QUESTIONS = {
    "kind": ("What kind of product is the {product}?", "What exactly is the {product}?"),
    "offers": ("What does the {product} offer?", "Which capabilities come with the {product}?"),
    "feature": (
        "What is the main reason customers choose the {product}?",
        "Which feature of the {product} do customers value most?",
    ),
    "range": (
        "Which of your product ranges does the {product} belong to?",
        "What range is the {product} part of?",
    ),
    "price": ("What is the list price of the {product}?", "How much does one {product} cost?"),
}
FRAMES = (
    "{q}",
    "Hi! {q}",
    "Quick question: {q}",
    "{q} Thanks in advance.",
    "I couldn't find this on your website. {q}",
    "Before I decide, could you tell me: {q}",
)
REQUIRED = "- Answer briefly, from what the knowledge base articles say."


def read_fact(text: str, fact: str) -> tuple[str, str] | None:
    """(product, answer) of the sentence stating ``fact`` in an article's text, if it has one."""
    m = FACTS[fact].match(" ".join(text.split()))
    return (m["product"], m["answer"]) if m else None


def solve(client: OrgClient, params: dict) -> Solution:
    rows = client.query(f"SELECT FAQ_Answer__c FROM Knowledge__kav WHERE Id = {quote(params['article_id'])}")
    found = read_fact(article_text(rows[0]["FAQ_Answer__c"]) if rows else "", params["fact"])
    if not found or found[0] != params["product"]:
        raise LookupError(f"article {params['article_id']} states no {params['fact']} of {params['product']}")
    return Solution(found[1])


def generate(ctx: ProBuildContext, n: int, n_none: int) -> list[Draft]:
    rnd = ctx.rnd
    facts = []
    for article in ctx.sales.articles.values():
        if not article.public:
            continue
        for fact in FACTS:
            found = read_fact(article.text, fact)
            if found:
                facts.append((article.id, fact, *found))
    rnd.shuffle(facts)
    drafts, seen = [], set()
    for i in range(n * 20):
        if len(drafts) >= n or not facts:
            break
        article_id, fact, product, answer = facts[i % len(facts)]
        question = rnd.choice(QUESTIONS[fact]).format(product=product)
        frame = rnd.choice(FRAMES)
        key = (article_id, fact, frame)
        if key in seen:
            continue
        seen.add(key)
        params = {"article_id": article_id, "fact": fact, "product": product}
        drafts.append(Draft(params, frame.format(q=question), REQUIRED, answer, key))
    return drafts
