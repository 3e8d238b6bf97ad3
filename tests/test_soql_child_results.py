"""Child subquery results through simple-salesforce: long child lists paged by a locator, aggregates refused.

Sources: SOQL and SOSL Reference, "Understanding Query Results"
(https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_soql_relationships_query_results.htm:
subquery results, like query results, may need queryMore() to read every child); REST API
Developer Guide, "Query More Results" (resources_query_more_results.htm); the size of the first
part, undocumented, as public answers show it: 499 children and ``nextRecordsUrl`` ending
``-499`` (https://github.com/simple-salesforce/simple-salesforce/issues/311,
https://github.com/jsforce/jsforce/issues/577), 199 when the batch is 200
(https://github.com/jsforce/jsforce/pull/1752). "only root queries support aggregate
expressions": the SOQL and SOSL Reference's words
(https://resources.docs.salesforce.com/sfdc/pdf/salesforce_soql_sosl.pdf, as quoted by
https://github.com/django-salesforce/django-salesforce/blob/master/salesforce/dbapi/subselect.py).
"""

from __future__ import annotations

import pytest
from simple_salesforce.exceptions import SalesforceMalformedRequest

from crmarena_sf import connect
from crmarena_sf.connection.connect import emulated_org

BATCH_200 = {"Sforce-Query-Options": "batchSize=200"}
ACCOUNTS_AND_CONTACTS = (
    "SELECT Name, (SELECT LastName FROM Contacts ORDER BY LastName) FROM Account ORDER BY Name"
)


@pytest.fixture(scope="module")
def sf():
    """A blank org: 'Big' with 1,200 contacts, 'Small' with one."""
    client = connect("blank")
    org = emulated_org(client)
    big = org.insert("Account", {"Name": "Big"})
    small = org.insert("Account", {"Name": "Small"})
    contacts = [{"LastName": f"C{i:04d}", "AccountId": big} for i in range(1200)]
    org.insert_many("Contact", [*contacts, {"LastName": "Solo", "AccountId": small}])
    return client


def last_names(records: list[dict]) -> list[str]:
    return [r["LastName"] for r in records]


def test_a_long_child_list_comes_back_in_part_with_a_locator_for_the_rest(sf):
    """Decision where the docs are silent: the first part holds 499 children (500 rows with the parent's)."""
    body = sf.query(ACCOUNTS_AND_CONTACTS)
    assert body["totalSize"] == 2 and body["done"] is True
    big, small = body["records"]
    contacts = big["Contacts"]
    assert list(contacts) == ["totalSize", "done", "nextRecordsUrl", "records"]
    assert contacts["totalSize"] == 1200 and contacts["done"] is False
    assert contacts["nextRecordsUrl"].startswith("/services/data/v62.0/query/01g")
    assert contacts["nextRecordsUrl"].endswith("-499")
    assert last_names(contacts["records"]) == [f"C{i:04d}" for i in range(499)]
    assert list(small["Contacts"]) == ["totalSize", "done", "records"] and small["Contacts"]["done"] is True
    assert last_names(small["Contacts"]["records"]) == ["Solo"]


def test_query_more_on_the_child_locator_returns_the_remaining_children(sf):
    contacts = sf.query(ACCOUNTS_AND_CONTACTS)["records"][0]["Contacts"]
    rest = sf.query_more(contacts["nextRecordsUrl"], identifier_is_url=True)
    assert rest["totalSize"] == 1200 and rest["done"] is True and "nextRecordsUrl" not in rest
    assert rest["records"][0]["attributes"]["type"] == "Contact"
    assert last_names(contacts["records"] + rest["records"]) == [f"C{i:04d}" for i in range(1200)]


def test_a_batch_of_200_cuts_the_child_list_at_199_and_pages_its_rest_by_200(sf):
    body = sf.query(ACCOUNTS_AND_CONTACTS, headers=BATCH_200)
    # The parent and its first 199 children fill the batch: 'Small' waits for the next one.
    assert [r["Name"] for r in body["records"]] == ["Big"] and body["done"] is False
    contacts = body["records"][0]["Contacts"]
    assert len(contacts["records"]) == 199 and contacts["nextRecordsUrl"].endswith("-199")
    names, url = last_names(contacts["records"]), contacts["nextRecordsUrl"]
    while url is not None:
        page = sf.query_more(url, identifier_is_url=True, headers=BATCH_200)
        assert len(page["records"]) <= 200
        names += last_names(page["records"])
        url = page.get("nextRecordsUrl")
    assert names == [f"C{i:04d}" for i in range(1200)]
    rest = sf.query_more(body["nextRecordsUrl"], identifier_is_url=True, headers=BATCH_200)
    assert [r["Name"] for r in rest["records"]] == ["Small"] and rest["done"] is True


def test_a_child_list_that_fits_the_part_is_whole(sf):
    body = sf.query("SELECT Name, (SELECT LastName FROM Contacts LIMIT 499) FROM Account WHERE Name = 'Big'")
    contacts = body["records"][0]["Contacts"]
    assert contacts["done"] is True and len(contacts["records"]) == 499 and "nextRecordsUrl" not in contacts


@pytest.mark.parametrize(
    "subquery, token",
    [
        ("SELECT COUNT(Id) FROM Contacts", "COUNT(Id)"),
        ("SELECT COUNT() FROM Contacts", "COUNT()"),
        ("SELECT LastName, MAX(CreatedDate) FROM Contacts GROUP BY LastName", "MAX(CreatedDate)"),
        ("SELECT LastName FROM Contacts GROUP BY LastName", "GROUP BY LastName"),
    ],
)
def test_an_aggregate_in_a_child_subquery_is_refused(sf, subquery, token):
    """Decision: the caret points at the first aggregate, or at GROUP BY when the subquery only groups."""
    text = f"SELECT Name, ({subquery}) FROM Account"
    with pytest.raises(SalesforceMalformedRequest) as info:
        sf.query(text)
    [error] = info.value.content
    assert error["errorCode"] == "MALFORMED_QUERY"
    lines = error["message"].splitlines()
    assert lines[-1] == "only root queries support aggregate expressions"
    column = int(lines[-2].rsplit(":", 1)[1])
    assert text[column - 1 :].startswith(token)
