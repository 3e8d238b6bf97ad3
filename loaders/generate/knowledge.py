"""KnowledgeArticle and Knowledge__kav: the published knowledge base (one online en_US version per article).

Each article is classified in the org's data category groups (:mod:`crmarena_sf.metadata.data_categories`):
one ``Topics`` category (what it is about) and, where its answer depends on where the
customer shops, one ``Channels`` category (policies apply everywhere: ``All``). The rows are
``Knowledge__DataCategorySelection`` records, as a real org keeps them.

``FAQ_Answer__c`` is rich text stored HTML-escaped, as in CRMArena's org (``&amp;``,
``&#39;``; CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db). Every version is published (``PublishStatus`` 'Online',
``Language`` 'en_US', the filter CRMArena's searches apply) and was created before the
first case, so every case's conversation falls under the policies.
"""

from __future__ import annotations

import datetime as dt
import re

from crmarena_sf.emulator.store.derive import AUTONUMBER_FORMATS
from crmarena_sf.loaders.generate import vocab
from crmarena_sf.loaders.generate.context import Context, audit_sql, autonumber, secs, ts
from crmarena_sf.loaders.generate.knowledge_text import Article, all_articles
from crmarena_sf.metadata import data_categories

CATEGORIES: dict[str, tuple[str, str | None]] = {
    "Refunds and Billing Disputes Policy": ("Billing", "All"),
    "Return Policy": ("Returns", "All"),
    "Defective and Damaged Items Policy": ("Warranty", "All"),
    "Size Exchange Policy": ("Returns", "All"),
    "Shipping and Delivery Policy": ("Shipping", "All"),
    "Backorder and Availability Policy": ("Orders", "All"),
    "Order Cancellation Policy": ("Orders", "All"),
    "Product Warranty Policy": ("Warranty", "All"),
    "Incorrect Item Policy": ("Returns", "All"),
    "Shoes & Clothings Rewards Program Terms": ("Rewards", "All"),
    "Golf Shoes Technology": ("Footwear", None),
    "When to Replace Running Shoes": ("Footwear", None),
    "Finding Your Size": ("Products", None),
    "Gift Cards": ("Payments", None),
    "Tracking Your Order": ("Tracking", "Online"),
    "Where We Ship": ("Shipping", "Online"),
    "Accepted Payment Methods": ("Payments", None),
    "Price Match Guarantee": ("Discounts", None),
    "Caring for Waterproof Jackets": ("Apparel", None),
    "Cleaning Your Yoga Mat": ("Gear", None),
    "Swim Cap Care": ("Apparel", None),
    "When to Replace a Bike Helmet": ("Gear", None),
    "Sleeping Bag Temperature Ratings": ("Gear", None),
    "Breaking In Hiking Boots": ("Footwear", None),
    "Adjustable Dumbbell Set Guide": ("Gear", None),
    "Buy Online, Pick Up in Store": ("Orders", "Stores"),
    "Student Discount": ("Discounts", None),
    "Military and First Responder Discount": ("Discounts", None),
    "Resetting Your Password": ("Account", "Online"),
    "Newsletter Sign-Up Offer": ("Discounts", "Online"),
    "Gift Wrapping": ("Orders", "Online"),
    "Custom Team Jerseys": ("Apparel", None),
    "Choosing a Backpack Size": ("Gear", None),
    "Compression Wear Explained": ("Apparel", None),
    "Pitching Your Tent": ("Gear", None),
    "Insulated Water Bottles": ("Gear", None),
    "Reflective Running Gear": ("Apparel", None),
    "Bike Light Set": ("Gear", None),
    "Team Pricing": ("Discounts", "Stores"),
    "Shoe Recycling Program": ("Footwear", "Stores"),
    "Product Reviews": ("Services", "Online"),
    "Rewards Birthday Bonus": ("Rewards", None),
    "Our Materials and Sustainability": ("Products", None),
    "Washing Technical Apparel": ("Apparel", None),
    "Kids' Shoe Fit Guarantee": ("Footwear", "Stores"),
}
"""Each source article's (Topics category, Channels category or None), by title."""


def escape_html(text: str) -> str:
    """Text as rich-text HTML escapes it (``'`` becomes ``&#39;`` as in CRMArena's articles)."""
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def rich_text(article: Article) -> str:
    """The article's paragraphs, then its frequently asked questions with their short answers.

    The FAQ list is what the knowledge-QA task asks about: each question's answer is written
    in the article itself, so an agent that finds the article can answer exactly.
    """
    body = "".join(f"<p>{escape_html(p)}</p>" for p in article.paragraphs)
    if not article.facts:
        return body
    faq = "".join(
        f"<p><b>Q:</b> {escape_html(q)}<br><b>A:</b> {escape_html(a)}</p>" for q, a in article.facts
    )
    return f"{body}<h3>Frequently asked questions</h3>{faq}"


def url_name(title: str, used: set[str]) -> str:
    """A unique URL name from the title (letters, digits and hyphens, as UrlName allows)."""
    base = re.sub(r"[^A-Za-z0-9]+", "-", title).strip("-")
    name, n = base, 1
    while name in used:
        n += 1
        name = f"{base}-{n}"
    used.add(name)
    return name


def write_articles(ctx: Context) -> None:
    n = ctx.count("Knowledge__kav")
    source = all_articles()
    articles = [source[i % len(source)] for i in range(n)]
    used: set[str] = set()
    created = vocab.ORG_START + dt.timedelta(days=3)
    titles = [
        a.title if i < len(source) else f"{a.title} ({i // len(source) + 1})" for i, a in enumerate(articles)
    ]
    ctx.stage(
        "raw_article",
        {
            "n": ("BIGINT", list(range(1, n + 1))),
            "title": ("VARCHAR", titles),
            "summary": ("VARCHAR", [a.summary for a in articles]),
            "answer": ("VARCHAR", [rich_text(a) for a in articles]),
            "url": ("VARCHAR", [url_name(t, used) for t in titles]),
            "created": ("BIGINT", [secs(created + dt.timedelta(minutes=7 * i)) for i in range(n)]),
        },
    )
    digits, first = AUTONUMBER_FORMATS.get(("Knowledge__kav", "ArticleNumber"), (8, 1))
    number = autonumber(f"n + {first - 1}", digits)
    ctx.write(
        "KnowledgeArticle",
        f'SELECT {ctx.sql_id("KnowledgeArticle", "n")} AS "Id", {number} AS "ArticleNumber", '
        f'{audit_sql(ts("created"))}, {ts("created")} AS "FirstPublishedDate", {ts("created")} AS "LastPublishedDate", '
        "'en_US' AS \"MasterLanguage\" FROM raw_article ORDER BY n",
    )
    ctx.write(
        "Knowledge__kav",
        f'SELECT {ctx.sql_id("Knowledge__kav", "n")} AS "Id", {ctx.sql_id("KnowledgeArticle", "n")} AS "KnowledgeArticleId", '
        f"{audit_sql(ts('created'), owner=True)}, 'Validated' AS \"ValidationStatus\", 'Online' AS \"PublishStatus\", "
        '1 AS "VersionNumber", true AS "IsLatestVersion", true AS "IsVisibleInApp", true AS "IsVisibleInPkb", '
        'true AS "IsVisibleInCsp", false AS "IsVisibleInPrm", \'en_US\' AS "Language", title AS "Title", '
        f'url AS "UrlName", summary AS "Summary", {number} AS "ArticleNumber", '
        f'{ts("created")} AS "FirstPublishedDate", {ts("created")} AS "LastPublishedDate", '
        f'\'{ctx.record_id("User", 1)}\' AS "ArticleCreatedById", {ts("created")} AS "ArticleCreatedDate", '
        '\'en_US\' AS "ArticleMasterLanguage", \'Knowledge__kav\' AS "ArticleType", answer AS "FAQ_Answer__c" '
        "FROM raw_article ORDER BY n",
    )
    write_categories(ctx, [a.title for a in articles], created)
    ids = [ctx.record_id("Knowledge__kav", i + 1) for i in range(n)]
    ctx.plan["articles"] = list(zip(ids, titles, articles))
    ctx.plan["policy_article"] = {
        a.issue: ids[i] for i, a in enumerate(articles) if a.issue is not None and i < len(source)
    }


def write_categories(ctx: Context, source_titles: list[str], created: dt.datetime) -> None:
    """One Knowledge__DataCategorySelection per article and group it is classified in."""
    rows = []
    for number, title in enumerate(source_titles, start=1):
        topic, channel = CATEGORIES[title]
        rows.append((number, "Topics", topic))
        if channel is not None:
            rows.append((number, "Channels", channel))
    for _, group_name, category in rows:
        group = data_categories.group(group_name)
        if group is None or group.category(category) is None:
            raise ValueError(f"no data category {group_name}.{category}")
    ctx.stage(
        "raw_article_category",
        {
            "n": ("BIGINT", list(range(1, len(rows) + 1))),
            "article": ("BIGINT", [r[0] for r in rows]),
            "grp": ("VARCHAR", [r[1] for r in rows]),
            "category": ("VARCHAR", [r[2] for r in rows]),
            "created": ("BIGINT", [secs(created)] * len(rows)),
        },
    )
    admin = ctx.record_id("User", 1)
    ctx.write(
        "Knowledge__DataCategorySelection",
        f'SELECT {ctx.sql_id("Knowledge__DataCategorySelection", "n")} AS "Id", '
        f'{ctx.sql_id("Knowledge__kav", "article")} AS "ParentId", grp AS "DataCategoryGroupName", '
        f'category AS "DataCategoryName", {ts("created")} AS "CreatedDate", \'{admin}\' AS "CreatedById", '
        f'{ts("created")} AS "SystemModstamp" FROM raw_article_category ORDER BY n',
    )
