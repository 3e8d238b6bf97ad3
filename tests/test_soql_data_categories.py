"""WITH DATA CATEGORY on the default CRMArena org's articles, classified in the org's two groups.

Sources: SOQL and SOSL Reference, "WITH DATA CATEGORY" and "dataCategorySelection"
(https://developer.salesforce.com/docs/platform/salesforce-soql-sosl/guide/sforce-api-calls-soql-select-with-datacategory.html:
``WITH DATA CATEGORY Geography__c ABOVE usa__c``; AT, ABOVE, BELOW, ABOVE_OR_BELOW; parentheses
for several categories, AND between groups, a group only once); Object Reference,
"Knowledge__DataCategorySelection" (the categorization rows, ``DataCategorySelections`` under an
article). The org's groups: ``Topics`` (All > Policies > Billing, Returns ...; Products >
Footwear ...; Services > ...) and ``Channels`` (All > Online, Stores); policies are classified at
Channels ``All``, and FAQ articles that do not depend on the channel are not in Channels at all.
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import soql
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.loaders.generate.knowledge import CATEGORIES
from crmarena_sf.metadata.data_categories import GROUPS, group

pytestmark = pytest.mark.slow

ARTICLES = "SELECT Title FROM Knowledge__kav WHERE PublishStatus = 'Online' WITH DATA CATEGORY {}"


@pytest.fixture(scope="module")
def org(crmarena_fork):
    return crmarena_fork


def titles(org, selection: str) -> set[str]:
    return {r["Title"] for r in soql.query(org, ARTICLES.format(selection))["records"]}


def classified(group_name: str, categories: set[str]) -> set[str]:
    index = 0 if group_name == "Topics" else 1
    return {title for title, chosen in CATEGORIES.items() if chosen[index] in categories}


def test_every_article_is_classified_through_the_categorization_object(org):
    body = soql.query(
        org, "SELECT Title, (SELECT DataCategoryGroupName, DataCategoryName FROM DataCategorySelections) "
        "FROM Knowledge__kav WHERE Title = 'Return Policy'",
    )  # fmt: skip
    [article] = body["records"]
    selections = {
        (r["DataCategoryGroupName"], r["DataCategoryName"])
        for r in article["DataCategorySelections"]["records"]
    }
    assert selections == {("Topics", "Returns"), ("Channels", "All")}
    assert soql.query(org, "SELECT COUNT() FROM Knowledge__DataCategorySelection")["totalSize"] == sum(
        1 + (channel is not None) for _, channel in CATEGORIES.values()
    )


def test_at_selects_the_category_itself(org):
    assert titles(org, "Topics__c AT Returns__c") == classified("Topics", {"Returns"})
    assert titles(org, "Topics__c AT Policies__c") == set()
    assert titles(org, "Topics__c AT Products__c") == {
        "Finding Your Size",
        "Our Materials and Sustainability",
    }


def test_below_selects_the_category_and_its_subcategories(org):
    policies = {"Policies", "Billing", "Returns", "Shipping", "Orders", "Warranty", "Rewards"}
    assert titles(org, "Topics__c BELOW Policies__c") == classified("Topics", policies)
    assert titles(org, "Topics__c BELOW All__c") == set(CATEGORIES)


def test_above_selects_the_category_and_its_parents(org):
    # Footwear's parents are Products and All: articles classified at Products count, other products do not.
    assert titles(org, "Topics__c ABOVE Footwear__c") == classified("Topics", {"Footwear", "Products", "All"})
    assert titles(org, "Channels__c ABOVE Stores__c") == classified("Channels", {"Stores", "All"})


def test_above_or_below_and_several_categories_of_a_group(org):
    assert titles(org, "Topics__c ABOVE_OR_BELOW Products__c") == classified(
        "Topics", {"Products", "All", "Footwear", "Apparel", "Gear"}
    )
    assert titles(org, "Topics__c AT (Gear__c, Apparel__c)") == classified("Topics", {"Gear", "Apparel"})


def test_groups_are_joined_by_and_and_unclassified_articles_match_no_group_filter(org):
    both = titles(org, "Topics__c BELOW Services__c AND Channels__c AT Online__c")
    assert both == classified(
        "Topics", {"Services", "Payments", "Discounts", "Tracking", "Account"}
    ) & classified("Channels", {"Online"})
    assert both == {
        "Tracking Your Order",
        "Resetting Your Password",
        "Newsletter Sign-Up Offer",
        "Product Reviews",
    }
    assert "Gift Cards" not in titles(org, "Channels__c BELOW All__c")


def test_the_filter_combines_with_where_order_and_limit(org):
    body = soql.query(
        org,
        "SELECT Title FROM Knowledge__kav WHERE PublishStatus = 'Online' AND Title LIKE '%Policy' "
        "WITH DATA CATEGORY Topics__c AT Returns__c ORDER BY Title LIMIT 2",
    )
    assert [r["Title"] for r in body["records"]] == ["Incorrect Item Policy", "Return Policy"]


@pytest.mark.parametrize(
    "text, message",
    [
        (ARTICLES.format("Regions__c AT Europe__c"), "Invalid data category group: Regions__c"),
        (ARTICLES.format("Topics AT Returns__c"), "Invalid data category group: Topics"),
        (ARTICLES.format("Topics__c AT Europe__c"), "Invalid data category: Europe__c"),
        (ARTICLES.format("Topics__c ABOVE Returns__c AND Topics__c BELOW Products__c"),
         "Data category group Topics__c is used more than once"),
        ("SELECT Name FROM Account WITH DATA CATEGORY Topics__c AT Returns__c",
         "WITH DATA CATEGORY is not supported for Account"),
    ],
)  # fmt: skip
def test_refusals(org, text, message):
    with pytest.raises(SalesforceError) as info:
        soql.query(org, text)
    assert (info.value.error_code, info.value.message.splitlines()[-1]) == ("MALFORMED_QUERY", message)


def test_syntax_the_reference_does_not_allow_is_a_syntax_error(org):
    for selection, token in (("Topics__c AT Returns__c OR Channels__c AT All__c", "OR"),
                             ("Topics__c AT Returns__c AND Shipping__c", "<EOF>"), ("Topics__c NEAR Returns__c", "NEAR")):  # fmt: skip
        with pytest.raises(SalesforceError) as info:
            soql.query(org, ARTICLES.format(selection))
        assert info.value.message.endswith(f"unexpected token: '{token}'")


def test_the_metadata_classifies_every_article_in_a_known_category():
    for topic, channel in CATEGORIES.values():
        assert group("Topics").category(topic) is not None
        assert channel is None or group("Channels").category(channel) is not None
    assert [g.top.name for g in GROUPS] == ["All", "All"]
