"""A new article version gets its article, number and version from the org; PublishStatus changes only
through publishing (emulator/store/knowledge_versions.py, emulator/store/knowledge.py).

Object Reference, "KnowledgeArticleVersion" (sforce_api_objects_knowledgearticleversion.htm):
KnowledgeArticleId, ArticleNumber, VersionNumber and PublishStatus are read-only; "KnowledgeArticle"
cannot be created through the API. Actions Developer Guide, "Knowledge Actions":
``publishKnowledgeArticles`` publishes a draft.
"""

from __future__ import annotations

import pytest
from simple_salesforce.exceptions import SalesforceMalformedRequest

import crmarena_sf


@pytest.fixture
def sf():
    return crmarena_sf.connect("blank")


def test_a_new_version_gets_its_article_number_and_version_from_the_org(sf):
    first = sf.Knowledge__kav.create({"Title": "Returns", "UrlName": "returns"})["id"]
    second = sf.Knowledge__kav.create({"Title": "Sizes", "UrlName": "sizes"})["id"]
    rows = sf.query(
        "SELECT Id, KnowledgeArticleId, ArticleNumber, VersionNumber, PublishStatus, IsLatestVersion, "
        "ArticleMasterLanguage FROM Knowledge__kav ORDER BY ArticleNumber"
    )["records"]
    assert [r["Id"] for r in rows] == [first, second]
    assert [(r["VersionNumber"], r["PublishStatus"], r["IsLatestVersion"]) for r in rows] == [
        (1, "Draft", True)
    ] * 2
    assert (
        rows[0]["ArticleNumber"] != rows[1]["ArticleNumber"] and rows[0]["ArticleMasterLanguage"] == "en_US"
    )
    article = sf.query(
        f"SELECT Id, ArticleNumber FROM KnowledgeArticle WHERE Id = '{rows[0]['KnowledgeArticleId']}'"
    )
    assert article["records"][0]["ArticleNumber"] == rows[0]["ArticleNumber"]
    assert sf.query("SELECT COUNT() FROM KnowledgeArticle")["totalSize"] == 2


@pytest.mark.parametrize("field,value", [("KnowledgeArticleId", "kA0000000000000AAA"), ("ArticleNumber", "7"),
                                         ("VersionNumber", 2), ("PublishStatus", "Online")])  # fmt: skip
def test_the_org_owned_fields_of_a_version_cannot_be_written(sf, field, value):
    with pytest.raises(SalesforceMalformedRequest) as refused:
        sf.Knowledge__kav.create({"Title": "Returns", "UrlName": "returns", field: value})
    assert (refused.value.content[0]["errorCode"], refused.value.content[0]["fields"]) == (
        "INVALID_FIELD_FOR_INSERT_UPDATE",
        [field],
    )
    assert sf.query("SELECT COUNT() FROM Knowledge__kav")["totalSize"] == 0
    assert sf.query("SELECT COUNT() FROM KnowledgeArticle")["totalSize"] == 0


def test_publish_status_changes_only_through_publishing(sf):
    version = sf.Knowledge__kav.create({"Title": "Returns", "UrlName": "returns"})["id"]
    with pytest.raises(SalesforceMalformedRequest) as refused:
        sf.Knowledge__kav.update(version, {"PublishStatus": "Online"})
    assert refused.value.content[0]["fields"] == ["PublishStatus"]
    assert sf.Knowledge__kav.get(version)["PublishStatus"] == "Draft"
    body = {"inputs": [{"articleVersionIdList": [version]}]}
    assert sf.restful("actions/standard/publishKnowledgeArticles", method="POST", json=body)[0]["isSuccess"]
    record = sf.Knowledge__kav.get(version)
    assert record["PublishStatus"] == "Online" and record["FirstPublishedDate"]
    article = sf.query(
        f"SELECT FirstPublishedDate FROM KnowledgeArticle WHERE Id = '{record['KnowledgeArticleId']}'"
    )
    assert article["records"][0]["FirstPublishedDate"] == record["FirstPublishedDate"]
