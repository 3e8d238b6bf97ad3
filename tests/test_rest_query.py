"""query, queryAll, query/<locator> and search through the unmodified simple-salesforce client.

References: REST API Developer Guide resources_query.htm, resources_queryall.htm,
headers_queryoptions.htm (Sforce-Query-Options batchSize 200..2000), resources_search.htm;
simple-salesforce's api.py (query_more fetches ``https://instance + nextRecordsUrl``).
"""

from __future__ import annotations

import pytest
from simple_salesforce.exceptions import SalesforceMalformedRequest

from crmarena_sf import connect
from crmarena_sf.connection.connect import emulated_org

BATCH_200 = {"Sforce-Query-Options": "batchSize=200"}


@pytest.fixture(scope="module")
def sf():
    client = connect("blank")
    org = emulated_org(client)
    org.insert_many("Account", [{"Name": f"Account {i:03d}"} for i in range(450)])
    return client


def test_query_answers_the_rest_body(sf):
    result = sf.query("SELECT Id, Name FROM Account WHERE Name = 'Account 007'")
    assert result["totalSize"] == 1 and result["done"] is True and "nextRecordsUrl" not in result
    [record] = result["records"]
    assert record["attributes"]["type"] == "Account"
    assert record["attributes"]["url"] == f"/services/data/v62.0/sobjects/Account/{record['Id']}"
    assert record["Name"] == "Account 007"


def test_batch_size_header_pages_and_query_more_follows_the_locator(sf):
    first = sf.query("SELECT Name FROM Account ORDER BY Name", headers=BATCH_200)
    assert first["totalSize"] == 450 and first["done"] is False and len(first["records"]) == 200
    assert first["nextRecordsUrl"].startswith("/services/data/v62.0/query/")
    second = sf.query_more(first["nextRecordsUrl"], identifier_is_url=True, headers=BATCH_200)
    assert second["records"][0]["Name"] == "Account 200"
    locator = first["nextRecordsUrl"].rsplit("/", 1)[1]
    by_locator = sf.query_more(locator, headers=BATCH_200)
    assert by_locator["records"][0]["Name"] == "Account 200"


def test_query_all_and_query_all_iter_fetch_every_page(sf):
    names = [
        r["Name"] for r in sf.query_all_iter("SELECT Name FROM Account ORDER BY Name", headers=BATCH_200)
    ]
    assert names == [f"Account {i:03d}" for i in range(450)]
    everything = sf.query_all("SELECT Id FROM Account", headers=BATCH_200)
    assert everything["totalSize"] == 450 and everything["done"] is True


def test_query_all_with_include_deleted_uses_query_all_resource():
    sf = connect("blank")
    record_id = sf.Account.create({"Name": "Binned"})["id"]
    sf.Account.delete(record_id)
    assert sf.query("SELECT Id FROM Account")["totalSize"] == 0
    deleted = sf.query_all("SELECT Id, IsDeleted FROM Account", include_deleted=True)
    assert [(r["Id"], r["IsDeleted"]) for r in deleted["records"]] == [(record_id, True)]


def test_plus_encoded_query_strings_and_trailing_slashes(sf):
    response = sf.session.get(
        sf.base_url + "query/?q=SELECT+Name+FROM+Account+WHERE+Name+%3D+%27Account+001%27", headers=sf.headers
    )
    assert response.status_code == 200 and response.json()["records"][0]["Name"] == "Account 001"


def test_bad_soql_is_a_400_error_array(sf):
    with pytest.raises(SalesforceMalformedRequest) as bad:
        sf.query("SELECT Nope__c FROM Account")
    [error] = bad.value.content
    assert error["errorCode"] == "INVALID_FIELD"
    assert "No such column 'Nope__c' on entity 'Account'" in error["message"]


def test_query_without_q_is_malformed_query(sf):
    response = sf.session.get(sf.base_url + "query/", headers=sf.headers)
    assert response.status_code == 400
    assert response.json()[0]["errorCode"] == "MALFORMED_QUERY"


def test_an_unknown_locator_is_an_error_not_a_crash(sf):
    with pytest.raises(SalesforceMalformedRequest) as bad:
        sf.query_more("01gEm0000000099AAA-2000")
    assert bad.value.content[0]["errorCode"] == "INVALID_QUERY_LOCATOR"


def test_search_returns_search_records(sf):
    result = sf.search("FIND {Account 042} IN NAME FIELDS RETURNING Account(Name)")
    assert any(r["Name"] == "Account 042" for r in result["searchRecords"])
    assert all(r["attributes"]["type"] == "Account" for r in result["searchRecords"])
