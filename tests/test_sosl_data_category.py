"""SOSL WITH DATA CATEGORY through simple-salesforce: the search's articles filtered as SOQL filters them.

Source: SOQL and SOSL Reference, "WITH DATA CATEGORY DataCategorySpec"
(https://developer.salesforce.com/docs/platform/salesforce-soql-sosl/guide/sforce-api-calls-sosl-with-data-category.html):
``FIND {tourism} RETURNING KnowledgeArticleVersion (Id, Title WHERE PublishStatus='online') WITH
DATA CATEGORY Location__c AT America__c``; AT, ABOVE, BELOW, ABOVE_OR_BELOW; several categories in
parentheses; specifiers joined by AND; RETURNING articles (or questions) only. The org's groups are
``Topics`` (All > Policies > Billing, Returns ...; Products > Footwear ...; Services > Tracking ...)
and ``Channels`` (All > Online, Stores). Decisions where the page is silent are in
:mod:`crmarena_sf.emulator.sosl.data_category` (refusals are MALFORMED_SEARCH, worded as SOQL's).
"""

from __future__ import annotations

import pytest
from simple_salesforce.exceptions import SalesforceMalformedRequest

from crmarena_sf import connect
from crmarena_sf.connection.connect import emulated_org

ARTICLES = {
    # title: (Topics category, Channels category or None)
    "Return Policy": ("Returns", "All"),
    "Billing Questions": ("Billing", None),
    "Our Product Range": ("Products", None),
    "Trail Runner Guide": ("Footwear", "Online"),
    "Store Pickup": ("Tracking", "Stores"),
    "Unclassified Notes": (None, None),
}
FIND = "FIND {shoes} RETURNING Knowledge__kav(Title)"


@pytest.fixture(scope="module")
def sf():
    """A blank org whose six articles all mention shoes, classified as :data:`ARTICLES` says."""
    client = connect("blank")
    org = emulated_org(client)
    for n, (title, categories) in enumerate(ARTICLES.items()):
        article = org.insert(
            "Knowledge__kav",
            {"Title": title, "UrlName": f"article-{n}", "FAQ_Answer__c": f"{title}: all about shoes."},
        )
        for group, category in zip(("Topics", "Channels"), categories):
            if category is not None:
                org.insert(
                    "Knowledge__DataCategorySelection",
                    {"ParentId": article, "DataCategoryGroupName": group, "DataCategoryName": category},
                )
    return client


def found(sf, selection: str, find: str = FIND) -> set[str]:
    return {r["Title"] for r in sf.search(f"{find} WITH DATA CATEGORY {selection}")["searchRecords"]}


def queried(sf, selection: str) -> set[str]:
    body = sf.query_all(f"SELECT Title FROM Knowledge__kav WITH DATA CATEGORY {selection}")
    return {r["Title"] for r in body["records"]}


@pytest.mark.parametrize(
    "selection, titles",
    [
        ("Topics__c AT Returns__c", {"Return Policy"}),
        ("Topics__c AT Policies__c", set()),
        ("Topics__c BELOW Policies__c", {"Return Policy", "Billing Questions"}),
        ("Topics__c ABOVE Footwear__c", {"Trail Runner Guide", "Our Product Range"}),
        ("Topics__c ABOVE_OR_BELOW Products__c", {"Trail Runner Guide", "Our Product Range"}),
        ("Topics__c AT (Billing__c, Tracking__c)", {"Billing Questions", "Store Pickup"}),
        ("Channels__c BELOW All__c", {"Return Policy", "Trail Runner Guide", "Store Pickup"}),
        ("Topics__c BELOW All__c AND Channels__c AT Online__c", {"Trail Runner Guide"}),
    ],
)
def test_selectors_keep_the_articles_soql_keeps(sf, selection, titles):
    """One implementation: the search answers the same articles as SOQL's WITH DATA CATEGORY."""
    assert found(sf, selection) == titles == queried(sf, selection)


def test_without_the_clause_every_matching_article_is_found(sf):
    assert {r["Title"] for r in sf.search(FIND)["searchRecords"]} == set(ARTICLES)


def test_an_article_without_a_field_list_is_filtered_too(sf):
    records = sf.search("FIND {shoes} RETURNING Knowledge__kav WITH DATA CATEGORY Topics__c AT Returns__c")
    [record] = records["searchRecords"]
    assert list(record) == ["attributes", "Id"] and record["attributes"]["type"] == "Knowledge__kav"


@pytest.mark.parametrize(
    "statement",
    [
        "FIND {shoes} RETURNING Knowledge__kav(Title LIMIT 2) WITH DATA CATEGORY Topics__c BELOW Policies__c",
        f"{FIND} WITH DATA CATEGORY Topics__c BELOW Policies__c LIMIT 2",
    ],
)
def test_limits_apply_to_the_articles_the_filter_keeps(sf, statement):
    titles = [r["Title"] for r in sf.search(statement)["searchRecords"]]
    assert sorted(titles) == ["Billing Questions", "Return Policy"]


@pytest.mark.parametrize(
    "statement, token, message",
    [
        (f"{FIND} WITH DATA CATEGORY Regions__c AT Europe__c", "Regions__c",
         "Invalid data category group: Regions__c"),
        (f"{FIND} WITH DATA CATEGORY Topics__c AT Europe__c", "Europe__c", "Invalid data category: Europe__c"),
        (f"{FIND} WITH DATA CATEGORY Topics__c AT Returns__c AND Topics__c AT Billing__c", "Topics__c AT Billing",
         "Data category group Topics__c is used more than once"),
        (f"{FIND} WITH DATA CATEGORY Topics__c OVER Returns__c", "OVER", "unexpected token: 'OVER'"),
        (f"{FIND} WITH DATA CATEGORY Topics__c AT LIMIT 5", "LIMIT", "unexpected token: 'LIMIT'"),
        ("FIND {shoes} RETURNING Account(Name), Knowledge__kav WITH DATA CATEGORY Topics__c AT Returns__c",
         "WITH DATA", "WITH DATA CATEGORY is not supported for Account"),
        ("FIND {shoes} WITH DATA CATEGORY Topics__c AT Returns__c", "WITH DATA",
         "WITH DATA CATEGORY requires a RETURNING clause"),
    ],
)  # fmt: skip
def test_refusals_point_at_the_name_concerned(sf, statement, token, message):
    with pytest.raises(SalesforceMalformedRequest) as info:
        sf.search(statement)
    [error] = info.value.content
    assert error["errorCode"] == "MALFORMED_SEARCH"
    lines = error["message"].splitlines()
    assert lines[-1] == message
    column = int(lines[-2].rsplit(":", 1)[1])
    assert statement[column - 1 :].startswith(token)
