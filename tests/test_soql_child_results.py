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
from crmarena_sf.connect import emulated_org

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
