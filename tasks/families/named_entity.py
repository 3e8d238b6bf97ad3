"""named_entity_disambiguation: which product a customer means by a vague name (Service Agent).

The customer (``contact_id``) names a product loosely ("the compression joggers I bought a
fortnight ago"). Gold (CRMArena's solver, SalesforceAIResearch/CRMArena test_functions/functions.py): the products a SOSL search for
the words finds; the contact's account; the products of that account's Activated orders
whose EffectiveDate is the purchase date (today minus the stated time) among the search
hits. A single product is the answer; no product is None; two would be ambiguous and are
never asked. The search term is sent with SOSL's reserved characters escaped
(``women\\'s``), as Salesforce requires.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from crmarena_sf.tasks.families.base import BuildContext, Draft, Quota, Solution, today_line
from crmarena_sf.tasks.org_client import OrgClient, quote, quote_list, sosl_escape
from crmarena_sf.tasks.periods import shift
from crmarena_sf.tasks.ranking import rank

NAME = "named_entity_disambiguation"
PERSONA = "agent"
METRIC = "exact_match"
NONE_SHARE = 39 / 130

AGO = (
    ("yesterday", "day", 1),
    ("two days ago", "day", 2),
    ("three days back", "day", 3),
    ("five days ago", "day", 5),
    ("a week ago", "week", 1),
    ("ten days ago", "day", 10),
    ("a fortnight ago", "week", 2),
    ("two weeks ago", "week", 2),
    ("three weeks ago", "week", 3),
    ("a month ago", "month", 1),
    ("two months ago", "month", 2),
)
"""How long ago the customer says they bought it: words, unit, count (calendar arithmetic)."""

QUESTIONS = (
    "Can you pull up the {term} I bought {ago}? Return only the Id of the product from my matching purchase, or None if there is none.",
    "I'm asking about the {term} I ordered {ago}. Which product was it? Give only the product Id, or None if you can't find that purchase.",
    "Could you look up the {term} I purchased {ago}? Reply with just the Id of that product, or None if no such purchase exists.",
    "I bought a {term} {ago} and need help with it. Which exact product is it? Return only its product Id, or None if there was no such order.",
)


def search_products(client: OrgClient, term: str) -> list[str]:
    """Product Ids a SOSL search for ``term`` finds (the term escaped as SOSL requires)."""
    rows = client.search(f"FIND {{{sosl_escape(term)}}} IN ALL FIELDS RETURNING Product2(Id, Name)")
    return sorted(r["Id"] for r in rows)


def solve(client: OrgClient, params: dict) -> Solution:
    hits = search_products(client, params["search_term"])
    rows = client.query(f"SELECT AccountId FROM Contact WHERE Id = {quote(params['contact_id'])} LIMIT 1")
    account = rows[0]["AccountId"] if rows else None
    if not hits or not account:
        return Solution(None, detail={"hits": hits})
    rows = client.query(
        f"SELECT Product2Id FROM OrderItem WHERE Order.AccountId = {quote(account)} "
        f"AND Order.EffectiveDate = {dt.date.fromisoformat(params['purchase_date']).isoformat()} "
        f"AND Order.Status = 'Activated' AND Product2Id IN {quote_list(hits)}"
    )
    ranking = rank({product: 1 for product in {r["Product2Id"] for r in rows}}, "max")
    return Solution(ranking.answer, ranking, {"hits": hits})


def _terms(name: str) -> list[str]:
    """Vaguer names for a product: its words with one word left out, the last word (the noun) kept."""
    words = name.split(" - ")[0].lower().split()
    return [" ".join(words[:i] + words[i + 1 :]) for i in range(len(words) - 1) if len(words) > 2]


def generate(ctx: BuildContext, n: int, n_none: int, terms=None, passes: int = 3) -> list[Draft]:
    """Drafts; ``terms(ctx, product_id)`` gives a product's vaguer names (default: its name less a
    word); each purchase is tried up to ``passes`` times (another product, term and date each time)."""
    terms_of = terms or (lambda ctx, product: _terms(ctx.facts.products[product]))
    rnd = ctx.rnd
    facts = ctx.facts
    contact_of = {}
    for contact, account in sorted(facts.contact_account.items()):
        if account:
            contact_of.setdefault(account, contact)
    bought = defaultdict(set)  # (account, day) -> products
    for line in facts.order_lines.values():
        if line.status == "Activated" and line.account in contact_of and line.day:
            bought[(line.account, line.day)].add(line.product)
    purchases = sorted(bought)
    rnd.shuffle(purchases)
    client = OrgClient(ctx.sf)
    hits_of: dict[str, set[str]] = {}
    drafts, seen, quota = [], set(), Quota(n, n_none)
    for account, day in purchases * passes:
        if quota.full:
            break
        product = rnd.choice(sorted(bought[(account, day)]))
        vaguer = terms_of(ctx, product)
        if not vaguer:
            continue
        term = rnd.choice(vaguer)
        if term not in hits_of:
            hits_of[term] = set(search_products(client, term))
        hits = hits_of[term]
        if product not in hits or len(hits) < 2:
            continue  # not vague: the words name one product
        ago, unit, count = rnd.choice(AGO)
        want_none = quota.wants(None) and rnd.random() < n_none / n * 1.5
        if want_none:
            # The customer misremembers the date: nothing matching was bought on the stated day.
            day = day + dt.timedelta(days=rnd.choice((-3, -2, -1, 1, 2, 4, 6, 9)))
        matches = bought.get((account, day), set()) & hits
        if len(matches) > 1 or (not matches and not want_none):
            continue
        answer = next(iter(matches)) if matches else None
        if not quota.wants(answer):
            continue
        today = shift(day, unit, count)
        if shift(today, unit, -count) != day:
            continue  # month arithmetic clamped: "a month ago" from today would not land on the day
        key = (contact_of[account], day.isoformat(), term)
        if key in seen:
            continue
        seen.add(key)
        quota.take(answer)
        params = {"contact_id": contact_of[account], "purchase_date": day.isoformat(), "search_term": term}
        query = rnd.choice(QUESTIONS).format(term=term, ago=ago)
        required = f"- Contact Id interacting: {contact_of[account]}\n{today_line(today)}"
        drafts.append(Draft(params, query, required, answer, key))
    return drafts
