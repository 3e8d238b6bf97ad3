"""quote_approval: whether a quote's discounts and validity keep to the quote approval article.

``params``: ``quote_id``. Gold: the Id of the "Quote Approval Policy" article when a line's
Discount exceeds its limit or the quote's ExpirationDate falls later than its validity period
after the quote's creation day (:mod:`.quote_rules`); None when the quote keeps to it. Only
quotes that break none of the three configuration articles are asked about (those are
invalid_config's), so the one article a positive answer can name is the approval policy, as in
CRMArena-Pro's split.
"""

from __future__ import annotations

from crmarena_sf.tasks.families.base import Draft, Solution
from crmarena_sf.tasks.families.pro.base import ProBuildContext, pick_drafts
from crmarena_sf.tasks.families.pro.quote_check import all_quotes, article_ids, read_quote
from crmarena_sf.tasks.families.pro.quote_rules import APPROVAL, CONFIG
from crmarena_sf.tasks.org_client import OrgClient

NAME = "quote_approval"
METRIC = "exact_match"
NONE_SHARE = 0.2

QUESTIONS = (
    "Can this quote be approved as it stands, or do its prices and terms break company policy? If it breaks "
    "policy, which knowledge article does it go against?",
    "Do the discounts and terms of this quote comply with our policy? If they do not, which knowledge article "
    "is violated?",
    "Check this quote against our approval rules. If something is not allowed, name the knowledge article it "
    "conflicts with.",
    "Is this quote within policy on pricing and validity? If not, tell me which knowledge article it breaks.",
)
ANSWER_FORMAT = " Answer with the Id of the article the quote breaks, or None if it complies."
REQUIRED = (
    "## Quote approval guide\n"
    "Check the quote against the relevant knowledge articles before it is approved.\n"
    "- Quote in question (Id): {quote_id}"
)


def solve(client: OrgClient, params: dict) -> Solution:
    found, ids = read_quote(client, params["quote_id"])
    if found & set(CONFIG):
        raise LookupError(f"quote {params['quote_id']} breaks a configuration article too: {sorted(found)}")
    return Solution(ids[APPROVAL] if APPROVAL in found else None)


def generate(ctx: ProBuildContext, n: int, n_none: int) -> list[Draft]:
    rnd = ctx.rnd
    ids = article_ids(ctx.sales)
    quotes = [(q, found) for q, found in all_quotes(ctx.sales).items() if not found & set(CONFIG)]
    rnd.shuffle(quotes)

    def draft(item, answer) -> Draft:
        quote_id = item[0]
        query = rnd.choice(QUESTIONS) + ANSWER_FORMAT
        return Draft({"quote_id": quote_id}, query, REQUIRED.format(quote_id=quote_id), answer, (quote_id,))

    return pick_drafts(quotes, n, n_none, lambda item: ids[APPROVAL] if APPROVAL in item[1] else None, draft)
