"""Bulk API 2.0 through simple-salesforce's ``sf.bulk2`` (``wait=0``: the emulator finishes jobs at once).

References: Bulk API 2.0 Developer Guide (create_job.htm, upload_job_data.htm, get_job_info.htm,
get_job_successful_results.htm, get_job_failed_results.htm, query_get_job_results.htm);
simple-salesforce's bulk2.py (how simple-salesforce drives it).
"""

from __future__ import annotations

import csv
import io

import pytest
from simple_salesforce.exceptions import SalesforceMalformedRequest

from crmarena_sf import connect
from crmarena_sf.connection.connect import emulated_org


@pytest.fixture
def sf():
    return connect("blank")


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_insert_reports_processed_and_failed_rows_with_results(sf):
    records = [{"Name": "Alpha", "NumberOfEmployees": "10"}, {"Name": "Beta", "NumberOfEmployees": "lots"}]
    [result] = sf.bulk2.Account.insert(records=records, wait=0)
    assert result["numberRecordsProcessed"] == 2 and result["numberRecordsFailed"] == 1
    assert result["numberRecordsTotal"] == 2
    job_id = result["job_id"]
    raw = sf.bulk2.Account.get_successful_records(job_id)
    assert raw.splitlines()[0].startswith('"sf__Id","sf__Created",')
    [ok] = _rows(raw)
    assert ok["sf__Created"] == "true" and ok["Name"] == "Alpha"
    assert sf.Account.get(ok["sf__Id"])["NumberOfEmployees"] == 10
    [failed] = _rows(sf.bulk2.Account.get_failed_records(job_id))
    assert failed["Name"] == "Beta" and failed["sf__Id"] == ""
    assert failed["sf__Error"].startswith("JSON_PARSER_ERROR:") or failed["sf__Error"].startswith("INVALID")
    assert _rows(sf.bulk2.Account.get_unprocessed_records(job_id)) == []


def test_upsert_by_external_id_inserts_then_updates(sf):
    sf.bulk2.Product2.upsert(
        records=[{"External_ID__c": "P-1", "Name": "Boot"}], external_id_field="External_ID__c", wait=0
    )
    [result] = sf.bulk2.Product2.upsert(
        records=[{"External_ID__c": "P-1", "Name": "Boot v2"}, {"External_ID__c": "P-2", "Name": "Sandal"}],
        external_id_field="External_ID__c",
        wait=0,
    )
    assert result["numberRecordsProcessed"] == 2 and result["numberRecordsFailed"] == 0
    created = {
        row["External_ID__c"]: row["sf__Created"]
        for row in _rows(sf.bulk2.Product2.get_successful_records(result["job_id"]))
    }
    assert created == {"P-1": "false", "P-2": "true"}
    assert emulated_org(sf).count("Product2") == 2


def test_update_and_delete_by_id_and_null_marker(sf):
    record_id = sf.Account.create({"Name": "Keep", "Industry": "Retail", "Phone": "555"})["id"]
    sf.bulk2.Account.update(records=[{"Id": record_id, "Industry": "#N/A", "Phone": ""}], wait=0)
    record = sf.Account.get(record_id)
    assert record["Industry"] is None and record["Phone"] == "555"
    [result] = sf.bulk2.Account.delete(records=[{"Id": record_id}], wait=0)
    assert result["numberRecordsFailed"] == 0
    assert emulated_org(sf).count("Account") == 0


def test_parent_reference_through_an_external_id_column(sf):
    product = sf.Product2.create({"Name": "Shoe", "External_ID__c": "EXT-9"})["id"]
    org = emulated_org(sf)
    pricebook_id = org.con.execute('SELECT "Id" FROM "Pricebook2" WHERE "IsStandard"').fetchone()[0]
    [result] = sf.bulk2.PricebookEntry.insert(
        records=[
            {
                "Product2.External_ID__c": "EXT-9",
                "Pricebook2Id": pricebook_id,
                "UnitPrice": "10",
                "IsActive": "true",
            }
        ],
        wait=0,
    )
    assert result["numberRecordsFailed"] == 0, sf.bulk2.PricebookEntry.get_failed_records(result["job_id"])
    [row] = _rows(sf.bulk2.PricebookEntry.get_successful_records(result["job_id"]))
    assert org.get("PricebookEntry", row["sf__Id"], ["Product2Id"])["Product2Id"] == product


def test_job_errors_use_salesforces_words(sf):
    create = sf.bulk2_url + "ingest"
    unknown = sf.session.post(create, json={"object": "Nope", "operation": "insert"}, headers=sf.headers)
    assert unknown.status_code == 400
    assert unknown.json()[0] == {
        "message": "InvalidJob : Unable to find object: Nope",
        "errorCode": "INVALIDJOB",
    }
    no_key = sf.session.post(
        create,
        json={"object": "Product2", "operation": "upsert", "externalIdFieldName": "Name"},
        headers=sf.headers,
    )
    assert (
        no_key.json()[0]["message"]
        == "InvalidJob : Field name provided, Name does not match an External ID for Product2"
    )
    bad_op = sf.session.post(create, json={"object": "Account", "operation": "merge"}, headers=sf.headers)
    assert bad_op.json()[0] == {
        "message": "Invalid value: 'merge' supplied for property: 'operation'",
        "errorCode": "API_ERROR",
    }


def test_data_can_be_uploaded_once_and_jobs_can_be_listed_and_deleted(sf):
    job = sf.session.post(
        sf.bulk2_url + "ingest", json={"object": "Account", "operation": "insert"}, headers=sf.headers
    ).json()
    assert job["state"] == "Open" and job["contentUrl"].endswith(f"/jobs/ingest/{job['id']}/batches")
    csv_headers = {**sf.headers, "Content-Type": "text/csv"}
    first = sf.session.put(f"{sf.bulk2_url}ingest/{job['id']}/batches", data="Name\nX\n", headers=csv_headers)
    assert first.status_code == 201
    second = sf.session.put(
        f"{sf.bulk2_url}ingest/{job['id']}/batches", data="Name\nY\n", headers=csv_headers
    )
    assert second.status_code == 400 and second.json()[0]["errorCode"] == "BULK_API_ERROR"
    listed = sf.session.get(sf.bulk2_url + "ingest", headers=sf.headers).json()
    assert [j["id"] for j in listed["records"]] == [job["id"]]
    assert sf.session.delete(f"{sf.bulk2_url}ingest/{job['id']}", headers=sf.headers).status_code == 204
    assert sf.session.get(f"{sf.bulk2_url}ingest/{job['id']}", headers=sf.headers).status_code == 404


def test_query_pages_with_locator_and_record_counts(sf):
    org = emulated_org(sf)
    account = org.insert("Account", {"Name": "Parent"})
    org.insert_many("Contact", [{"LastName": f"L{i:02d}", "AccountId": account} for i in range(5)])
    pages = list(
        sf.bulk2.Contact.query(
            "SELECT LastName, Account.Name FROM Contact ORDER BY LastName", max_records=2, wait=0
        )
    )
    assert len(pages) == 3
    rows = [row for page in pages for row in _rows(page)]
    assert [r["LastName"] for r in rows] == [f"L{i:02d}" for i in range(5)]
    assert rows[0]["Account.Name"] == "Parent"
    assert pages[0].splitlines()[0] == '"LastName","Account.Name"'


def test_query_job_with_a_bad_query_is_refused_at_creation(sf):
    with pytest.raises(SalesforceMalformedRequest):
        list(sf.bulk2.Account.query("SELECT Nope__c FROM Account", wait=0))


def test_an_unknown_column_fails_the_whole_job_and_leaves_rows_unprocessed(sf):
    from simple_salesforce.exceptions import SalesforceOperationError

    with pytest.raises(SalesforceOperationError, match="InvalidBatch : Field name not found : Nme"):
        sf.bulk2.Account.insert(records=[{"Nme": "typo"}], wait=0)
    listed = sf.session.get(sf.bulk2_url + "ingest", headers=sf.headers).json()["records"]
    [job] = [j for j in listed if j["state"] == "Failed"]
    assert job["errorMessage"] == "InvalidBatch : Field name not found : Nme"
    assert _rows(sf.bulk2.Account.get_unprocessed_records(job["id"])) == [{"Nme": "typo"}]
    assert emulated_org(sf).count("Account") == 0
