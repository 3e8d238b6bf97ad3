"""A new Lightning Knowledge article: its first version gets its article from the org.

Inserting an article version (``Knowledge__kav``) with the API creates the article behind it: a
``KnowledgeArticle`` record, which the API cannot create itself (Object Reference,
"KnowledgeArticle": create() is not supported), whose Id the version carries in
``KnowledgeArticleId`` and whose ``ArticleNumber`` the version shows; the version is number 1, a
draft, the latest version (Object Reference, "KnowledgeArticleVersion",
https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_knowledgearticleversion.htm;
"Knowledge Article Versions": KnowledgeArticleId, ArticleNumber, VersionNumber and PublishStatus
are read-only). ``PublishStatus`` then changes only through publishing
(:mod:`crmarena_sf.emulator.store.knowledge`).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.emulator.store.events import INSERT, UPDATE

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org
    from crmarena_sf.metadata.model import SObject

MASTER = "KnowledgeArticle"


def create_master_articles(org: Org, obj: SObject, rows: list[dict[str, Any]], now: dt.datetime) -> None:
    """Give each new first version of ``obj`` (an article type) a new KnowledgeArticle (inside the
    caller's transaction, before the versions are written)."""
    master = org.schema.get(MASTER)
    if not obj.name.endswith("__kav") or master is None or obj.field("KnowledgeArticleId") is None:
        return
    articles = []
    for row in rows:
        if row.get("KnowledgeArticleId"):
            continue
        article = {
            "Id": org.new_id(master),
            "ArticleNumber": row.get("ArticleNumber"),
            "CreatedDate": row.get("CreatedDate") or now,
            "CreatedById": row.get("CreatedById") or org.user_id,
            "LastModifiedDate": now,
            "LastModifiedById": org.user_id,
            "SystemModstamp": now,
            "MasterLanguage": row.get("Language"),
            "IsDeleted": False,
            "CaseAssociationCount": 0,
            "TotalViewCount": 0,
        }
        articles.append({k: v for k, v in article.items() if master.field(k) is not None})
        row["KnowledgeArticleId"] = article["Id"]
        for version_field, value in (
            ("ArticleCreatedDate", article["CreatedDate"]),
            ("ArticleCreatedById", article["CreatedById"]),
            ("ArticleMasterLanguage", row.get("Language")),
            ("ArticleType", obj.name),
            ("ArticleCaseAttachCount", 0),
            ("ArticleTotalViewCount", 0),
        ):
            if obj.field(version_field) is not None:
                row.setdefault(version_field, value)
    if not articles:
        return
    org.before_write(master.name)
    for article in articles:
        columns = ", ".join(quote(name) for name in article)
        org.con.execute(
            f"INSERT INTO {quote(master.name)} ({columns}) VALUES ({', '.join('?' * len(article))})",
            list(article.values()),
        )
    org.notify(master.name, [a["Id"] for a in articles], INSERT)


def publish_master(org: Org, version: dict[str, Any], now: dt.datetime) -> None:
    """Stamp the publication dates of the article behind a version just published."""
    master = org.schema.get(MASTER)
    article_id = version.get("KnowledgeArticleId")
    if master is None or not article_id or master.field("LastPublishedDate") is None:
        return
    org.before_write(master.name)
    org.con.execute(
        f'UPDATE {quote(master.name)} SET "LastPublishedDate" = ?, '
        '"FirstPublishedDate" = coalesce("FirstPublishedDate", ?), "SystemModstamp" = ? WHERE "Id" = ?',
        [now, now, now, article_id],
    )
    org.notify(master.name, [article_id], UPDATE)
