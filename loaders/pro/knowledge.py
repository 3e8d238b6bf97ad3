"""KnowledgeArticle and Knowledge__kav: the policies the tasks refer to, public FAQs and internal articles.

Three kinds of article, each one online en_US version (``PublishStatus`` 'Online', as CRMArena's
searches filter):

- policies an agent applies, each stating the thresholds the planted records are judged by:
  the ten service policies (policy violation), quote approval (line discount and validity
  limits), quantity limits, bundle requirements and price integrity (invalid config), lead
  qualification by BANT, the stages and their activities, lead routing by territory, and the
  definitions of sales amount, sales cycle, conversion rate, handle time and transfers;
- public FAQ articles about the products (knowledge questions; their facts are listed in the
  manifest with the article Id);
- internal-only articles (competitor weaknesses, order limits, installation times, how late
  competing offers are handled): not visible to customers (``IsVisibleInPkb`` and
  ``IsVisibleInCsp`` false), the knowledge a customer must not be given (confidential company
  knowledge; the manifest lists their facts). The sales policies are internal too.

``FAQ_Answer__c`` is rich text, stored HTML-escaped as CRMArena's articles are.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from crmarena_sf.loaders.generate.context import Context
from crmarena_sf.loaders.generate.knowledge import escape_html
from crmarena_sf.loaders.pro.domain import STAGES, Domain
from crmarena_sf.loaders.pro.records import ORG_START, audit, autonumber, emit


@dataclass
class Article:
    key: str
    """What the article is for (``policy:quote_approval``, ``faq``, ``internal`` ...)."""
    title: str
    summary: str
    body: str
    public: bool
    facts: list[tuple[str, str]] = field(default_factory=list)
    """(question, short answer) a reader finds in the article."""


def _limits_table(domain: Domain) -> str:
    return "\n".join(
        f"- {p.name}: at most {p.max_quantity} per quote line" for p in domain.products if p.active
    )


def policy_articles(domain: Domain) -> list[Article]:
    """The articles the tasks' policies live in, in a fixed order."""
    out = []
    for p in domain.policies:
        out.append(
            Article(
                f"service:{p.title}",
                p.title,
                p.rule.split(".")[0] + ".",
                f"{p.rule}\n\nApplies to every support case, by email, chat or phone.",
                True,
            )
        )
    limit, days = domain.discount_limit, domain.quote_validity_days
    out.append(
        Article(
            "policy:quote_approval",
            "Quote Approval Policy",
            f"Discounts above {limit:g}% and quotes valid longer than {days} days are not approved.",
            f"A quote complies with this policy when both hold:\n"
            f"- every quote line's Discount is at most {limit:g}%;\n"
            f"- the quote's ExpirationDate is at most {days} days after the day the quote was created.\n"
            "A quote that breaks either needs sales leadership's sign-off and may not be sent as it is.",
            False,
            [
                ("What is the maximum discount on a quote line?", f"{limit:g}%"),
                ("How long can a quote stay valid?", f"{days} days"),
            ],
        )
    )
    out.append(
        Article(
            "config:quantity",
            "Product Quantity Limits",
            "The most units of each product one quote line may hold.",
            "A quote line may not exceed the quantity limit of its product:\n" + _limits_table(domain),
            False,
            [
                (f"What is the order limit for {p.name}?", f"{p.max_quantity} per quote line")
                for p in domain.products
                if p.active
            ],
        )
    )
    if domain.business_accounts:
        pairs = "\n".join(f"- {p.name} requires {p.base}" for p in domain.products if p.kind == "addon")
        bundle_body = (
            "An add-on is sold only together with the product it extends, on the same quote:\n" + pairs
        )
    else:
        plans = "\n".join(f"- {p.name}" for p in domain.products if p.kind == "addon")
        bundle_body = (
            "A care plan is sold only together with a vehicle on the same quote. Care plans:\n" + plans
        )
    bundle_facts = [
        (f"What must be on the same quote as the {p.name}?", p.base if p.base != "vehicle" else "a vehicle")
        for p in domain.products
        if p.kind == "addon"
    ]
    out.append(
        Article(
            "config:bundle",
            "Bundle Requirements",
            "Add-ons need the product they extend on the same quote.",
            bundle_body,
            False,
            bundle_facts,
        )
    )
    out.append(
        Article(
            "config:price",
            "Price Integrity Rule",
            "Quote lines carry the list price; reductions go in the Discount field.",
            "Every quote line's UnitPrice is the product's list price in the standard price book. A lower "
            "price is never typed into UnitPrice: a reduction is entered as a Discount percentage, where the "
            "Quote Approval Policy limits it.",
            False,
        )
    )
    money = f"${domain.budget_floor:,}"
    out.append(
        Article(
            "policy:bant",
            "Lead Qualification Criteria (BANT)",
            "A lead is qualified when Budget, Authority, Need and Timeline are all met.",
            "Qualify a lead only when every factor is met in your conversations with it:\n"
            f"- Budget: the prospect has at least {money} available for the purchase;\n"
            "- Authority: the person we speak with makes the purchase decision, or the decision maker takes part;\n"
            f"- Need: the prospect names a concrete problem our products solve;\n"
            f"- Timeline: the purchase is planned within {domain.timeline_months} months.\n"
            "A factor that is not met disqualifies the lead until it changes.",
            False,
            [
                ("What budget qualifies a lead?", f"at least {money}"),
                ("What timeline qualifies a lead?", f"within {domain.timeline_months} months"),
            ],
        )
    )
    stages = "\n".join(
        f"{stage}:\n"
        + "\n".join(
            "- "
            + t.format(
                account="the account", contact="the contact" if domain.business_accounts else "the customer"
            )
            for t in domain.stage_tasks[stage]
        )
        for stage in STAGES
    )
    out.append(
        Article(
            "policy:stages",
            "Opportunity Stages and Their Activities",
            "What work belongs to each of the five stages.",
            "An opportunity's stage is the stage its activities belong to:\n" + stages,
            False,
        )
    )
    out.append(
        Article(
            "policy:lead_routing",
            "Lead Routing by Territory",
            "New leads go to the territory rep with the most accepted quotes.",
            "1. Find the territory whose description lists the lead's state.\n"
            "2. Among the reps assigned to that territory, choose the one with the most quotes in status "
            "'Accepted' (a quote counts for the owner of its opportunity).\n"
            "3. On a tie, choose the rep with the fewest open (unconverted) leads.",
            False,
        )
    )
    out.append(
        Article(
            "policy:sales_amount",
            "Sales Amount Definition",
            "How a rep's sales amount is counted.",
            "A deal's sales amount is the sum of Quantity x UnitPrice over its order's items. A deal counts in a period when its contract's company signed date falls in that period; it counts for the opportunity's owner.",
            False,
        )
    )
    out.append(
        Article(
            "policy:sales_cycle",
            "Sales Cycle Definition",
            "How long a deal took.",
            "A deal's sales cycle is the number of days from the opportunity's creation to its contract's company signed date.",
            False,
        )
    )
    out.append(
        Article(
            "policy:conversion_rate",
            "Lead Conversion Rate Definition",
            "How a rep's conversion rate is measured.",
            "For the leads a rep owns that were created in a period, the conversion rate is the share of them converted within that same period, times 100%.",
            False,
        )
    )
    out.append(
        Article(
            "policy:case_handling",
            "Case Handle Time and Transfers",
            "How handle time and transfers are counted.",
            "Handle time is the time from a case's creation to its closing; transferred cases are left out. Each change of owner after the first assignment is a transfer, counted for the agent the case left.",
            False,
        )
    )
    return out


def internal_articles(domain: Domain) -> list[Article]:
    out = []
    for c in domain.competitors:
        facts = [(f"What is a noted weakness of {c.name}?", w) for w in c.weaknesses]
        out.append(
            Article(
                "internal:competitor",
                f"Competitive Brief: {c.name}",
                f"Where {c.name} is weak, for the sales team only.",
                f"Internal only. Known weaknesses of {c.name}:\n" + "\n".join(f"- {w}" for w in c.weaknesses),
                False,
                facts,
            )
        )
    tiers = ((10, "two weeks"), (25, "four weeks"), (None, "six weeks"))
    facts = []
    for units in (5, 10, 15, 25, 40, 60):
        for limit, weeks in tiers:
            if limit is None or units <= limit:
                facts.append((f"If a client orders {units} units, what is the installation timeline?", weeks))
                break
    out.append(
        Article(
            "internal:installation",
            "Installation Timelines by Order Size",
            "How long rollout takes, by number of units ordered.",
            "Internal only. Up to 10 units: two weeks. 11 to 25 units: four weeks. More than 25 units: six weeks.",
            False,
            facts,
        )
    )
    out.append(
        Article(
            "internal:late_offers",
            "Handling Late Competing Offers",
            "What we do when a rival's offer arrives late in a deal.",
            "Internal only. A competing offer presented after a quote was accepted is not matched; before "
            "acceptance, a rep may ask once for a revised quote within the approval limits.",
            False,
            [
                (
                    "What happens if competing offers are presented late?",
                    "is not matched",
                )
            ],
        )
    )
    floor = round(domain.discount_limit / 2, 1)
    out.append(
        Article(
            "internal:discount_floor",
            "Internal Negotiation Guidelines",
            "How far reps go before asking for help.",
            f"Internal only. Reps open negotiations at no more than {floor:g}% discount and escalate above it.",
            False,
            [("What discount do reps open negotiations with?", f"{floor:g}% discount")],
        )
    )
    return out


def faq_articles(domain: Domain, wanted: int) -> list[Article]:
    """Public product articles, as many as ``wanted`` (overviews, then features, then setup notes)."""
    sellable = [p for p in domain.products if p.active]
    out = []
    for p in sellable:
        out.append(
            Article(
                "faq",
                f"{p.name}: Overview",
                f"What the {p.name} is.",
                f"The {p.name} is our {p.family}. It offers {p.features[0]} and {p.features[1]}.",
                True,
                [
                    (f"What kind of product is the {p.name}?", p.family),
                    (f"What does the {p.name} offer?", f"{p.features[0]} and {p.features[1]}"),
                ],
            )
        )
    for p in sellable:
        out.append(
            Article(
                "faq",
                f"{p.name}: Key Features",
                f"The main features of the {p.name}.",
                f"Customers choose the {p.name} for its {p.features[0]}. It also brings {p.features[1]}.",
                True,
                [(f"What is the main feature of the {p.name}?", p.features[0])],
            )
        )
    for p in sellable:
        category = domain.categories[p.category]
        out.append(
            Article(
                "faq",
                f"{p.name}: Getting Started",
                f"First steps with the {p.name}.",
                f"The {p.name} belongs to our {category} range. Its list price is ${p.price:,.2f} per unit.",
                True,
                [(f"What is the list price of the {p.name}?", f"${p.price:,.2f}")],
            )
        )
    k = 0
    while len(out) < wanted:
        k += 1
        out.append(
            Article(
                "faq",
                f"{domain.company} Help Center Note {k}",
                "General information.",
                f"Contact {domain.company} support through the customer portal. Note {k}.",
                True,
            )
        )
    return out[:wanted]


def plan_articles(ctx: Context) -> None:
    domain: Domain = ctx.plan["domain"]
    n = ctx.count("Knowledge__kav")
    fixed = policy_articles(domain) + internal_articles(domain)
    articles = (fixed + faq_articles(domain, max(n - len(fixed), 0)))[:n]
    ids = [ctx.record_id("Knowledge__kav", a + 1) for a in range(len(articles))]
    ctx.plan["articles"] = articles
    ctx.plan["article_ids"] = ids


def article_id(ctx: Context, key: str) -> str | None:
    for article, article_id_ in zip(ctx.plan["articles"], ctx.plan["article_ids"]):
        if article.key == key:
            return article_id_
    return None


def write_articles(ctx: Context) -> None:
    articles: list[Article] = ctx.plan["articles"]
    ids = ctx.plan["article_ids"]
    created = ORG_START + dt.timedelta(days=10)
    masters, versions = [], []
    slugs: set[str] = set()
    for a, article in enumerate(articles):
        number = autonumber("Knowledge__kav", "ArticleNumber", a + 1)
        master = ctx.record_id("KnowledgeArticle", a + 1)
        slug = re.sub(r"[^A-Za-z0-9]+", "-", article.title).strip("-")
        while slug in slugs:
            slug += "-2"
        slugs.add(slug)
        masters.append(
            {
                "Id": master,
                "ArticleNumber": number,
                **audit(ctx, created),
                "FirstPublishedDate": created,
                "MasterLanguage": "en_US",
            }
        )
        versions.append(
            {
                "Id": ids[a],
                "KnowledgeArticleId": master,
                "OwnerId": ctx.record_id("User", 1),
                "ValidationStatus": "Validated",
                "PublishStatus": "Online",
                "VersionNumber": 1,
                "IsLatestVersion": True,
                "IsVisibleInApp": True,
                "IsVisibleInPkb": article.public,
                "IsVisibleInCsp": article.public,
                "IsVisibleInPrm": False,
                **audit(ctx, created),
                "Language": "en_US",
                "Title": article.title,
                "UrlName": slug,
                "Summary": article.summary,
                "ArticleNumber": number,
                "FirstPublishedDate": created,
                "LastPublishedDate": created,
                "ArticleCreatedById": ctx.record_id("User", 1),
                "ArticleCreatedDate": created,
                "ArticleMasterLanguage": "en_US",
                "ArticleType": "Knowledge__kav",
                "FAQ_Answer__c": escape_html(article.body),
            }
        )
    emit(ctx, "KnowledgeArticle", masters)
    emit(ctx, "Knowledge__kav", versions)
