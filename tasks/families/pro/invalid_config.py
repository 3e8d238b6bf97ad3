"""invalid_config: whether a quote's product setup (quantities, bundles, prices) breaks a configuration article.

``params``: ``quote_id``. Gold: the Id of the one configuration article the quote breaks
("Product Quantity Limits", "Bundle Requirements" or "Price Integrity Rule", :mod:`.quote_rules`);
None when it breaks none. Only quotes are asked about that break at most one of them and keep to
the quote approval article (that is quote_approval's question), so the answer is never in doubt.
"""

from __future__ import annotations

from crmarena_sf.tasks.families.base import Draft, Solution
from crmarena_sf.tasks.families.pro.base import ProBuildContext, pick_drafts
from crmarena_sf.tasks.families.pro.quote_check import all_quotes, article_ids, read_quote
from crmarena_sf.tasks.families.pro.quote_rules import APPROVAL, CONFIG
from crmarena_sf.tasks.org_client import OrgClient

NAME = "invalid_config"
METRIC = "exact_match"
NONE_SHARE = 0.2

QUESTIONS = (
    "Is the product setup of this quote, its quantities, products and prices, against company rules?",
    "Does this quote's configuration (which products, how many, at what price) break our policies?",
    "Check the products, quantities and unit prices on this quote: is anything configured against our rules?",
    "Is this quote configured correctly, or does its product setup violate company policy?",
)
ANSWER_FORMAT = " Answer with the Id of the article the configuration breaks, or None if it is valid."
REQUIRED = (
    "## Invalid configuration guide\n"
    "Check the quote's product setup against the relevant knowledge articles.\n"
    "- Quote in question (Id): {quote_id}"
)


def config_answer(found: set[str], ids: dict[str, str]) -> str | None:
    config = found & set(CONFIG)
    if APPROVAL in found or len(config) > 1:
        raise LookupError(f"the quote breaks {sorted(found)}: not one configuration article")
    return ids[config.pop()] if config else None


def solve(client: OrgClient, params: dict) -> Solution:
    found, ids = read_quote(client, params["quote_id"])
    return Solution(config_answer(found, ids))


def generate(ctx: ProBuildContext, n: int, n_none: int) -> list[Draft]:
    rnd = ctx.rnd
    ids = article_ids(ctx.sales)
    quotes = list(all_quotes(ctx.sales).items())
    rnd.shuffle(quotes)

    def draft(item, answer) -> Draft:
        quote_id = item[0]
        query = rnd.choice(QUESTIONS) + ANSWER_FORMAT
        return Draft({"quote_id": quote_id}, query, REQUIRED.format(quote_id=quote_id), answer, (quote_id,))

    return pick_drafts(quotes, n, n_none, lambda item: config_answer(item[1], ids), draft)
