"""Bulk API 1.0 through simple-salesforce's ``sf.bulk`` (JSON jobs) and as jsforce speaks it (XML + CSV).

References: Bulk API Developer Guide, asynch_api_jobs_create.htm, asynch_api_batches_create.htm,
asynch_api_batches_get_info.htm, asynch_api_batches_get_results.htm, asynch_api_bulk_query_results.htm,
asynch_api_reference_errors.htm; simple-salesforce issue #290 (JSON query results carry
dateTimes as epoch milliseconds).
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
import requests
from simple_salesforce.exceptions import SalesforceGeneralError

from crmarena_sf import connect
from crmarena_sf.connection.connect import emulated_org


@pytest.fixture
def sf():
    return connect("blank")


def _async(sf, path: str) -> str:
    return f"https://{sf.sf_instance}/services/async/62.0/{path}"


def test_insert_update_delete_and_hard_delete_report_each_record(sf):
    inserted = sf.bulk.Account.insert(
        [{"Name": "One", "NumberOfEmployees": 3}, {"Name": "Two"}, {"Phone": "1"}]
    )
    assert [r["success"] for r in inserted] == [True, True, False]
    assert inserted[0]["created"] is True and inserted[0]["errors"] == []
    assert inserted[2] == {
        "success": False,
        "created": False,
        "id": None,
        "errors": [
            {
                "fields": ["Name"],
                "message": "Required fields are missing: [Name]",
                "statusCode": "REQUIRED_FIELD_MISSING",
            }
        ],
    }
    one, two = inserted[0]["id"], inserted[1]["id"]
    updated = sf.bulk.Account.update(
        [{"Id": one, "Name": "One b"}, {"Id": "001000000000000AAA", "Name": "x"}]
    )
    assert updated[0] == {"success": True, "created": False, "id": one, "errors": []}
    assert updated[1]["success"] is False and updated[1]["errors"][0]["statusCode"] == "NOT_FOUND"
    assert sf.Account.get(one)["Name"] == "One b"
    assert sf.bulk.Account.delete([{"Id": two}])[0]["success"] is True
    assert sf.bulk.Account.hard_delete([{"Id": one}])[0]["success"] is True
    assert emulated_org(sf).count("Account") == 0


def test_upsert_creates_updates_and_fails_duplicate_keys_in_one_batch(sf):
    sf.Product2.create({"Name": "Old", "External_ID__c": "P-1"})
    results = sf.bulk.Product2.upsert(
        [
            {"External_ID__c": "P-1", "Name": "Updated"},
            {"External_ID__c": "P-2", "Name": "New"},
            {"External_ID__c": "P-3", "Name": "Twin A"},
            {"External_ID__c": "P-3", "Name": "Twin B"},
        ],
        "External_ID__c",
    )
    assert [(r["success"], r["created"]) for r in results] == [
        (True, False),
        (True, True),
        (False, False),
        (False, False),
    ]
    assert {e["statusCode"] for r in results[2:] for e in r["errors"]} == {"DUPLICATE_VALUE"}
    names = sorted(r["Name"] for r in sf.query("SELECT Name FROM Product2")["records"])
    assert names == ["New", "Updated"]


def test_query_and_query_all_return_records_with_epoch_millisecond_dates(sf):
    record_id = sf.Account.create({"Name": "Dated"})["id"]
    created = sf.Account.get(record_id)["CreatedDate"]
    rows = sf.bulk.Account.query("SELECT Id, Name, CreatedDate, Owner.Name FROM Account")
    assert rows[0]["attributes"] == {
        "type": "Account",
        "url": f"/services/data/v62.0/sobjects/Account/{record_id}",
    }
    assert rows[0]["Owner"]["Name"] == "Admin User"
    assert isinstance(rows[0]["CreatedDate"], int)
    assert created.startswith(
        __import__("datetime")
        .datetime.utcfromtimestamp(rows[0]["CreatedDate"] / 1000)
        .strftime("%Y-%m-%dT%H:%M:%S")
    )
    sf.Account.delete(record_id)
    assert sf.bulk.Account.query("SELECT Id FROM Account") == []
    assert [r["IsDeleted"] for r in sf.bulk.Account.query_all("SELECT IsDeleted FROM Account")] == [True]


def test_a_failed_query_batch_raises_with_salesforce_state_message(sf):
    with pytest.raises(SalesforceGeneralError) as failed:
        sf.bulk.Account.query("SELECT Nope__c FROM Account")
    assert "InvalidBatch : Failed to process query: INVALID_FIELD" in str(failed.value)


def test_detailed_results_and_parent_references_by_external_id(sf):
    sf.Product2.create({"Name": "Shoe", "External_ID__c": "P-9"})
    book = sf.query("SELECT Id FROM Pricebook2 WHERE IsStandard = true")["records"][0]["Id"]
    [result] = sf.bulk.PricebookEntry.insert(
        [{"Pricebook2Id": book, "Product2": {"External_ID__c": "P-9"}, "UnitPrice": 5, "IsActive": True}],
        include_detailed_results=True,
    )
    assert result["success"] is True and result["Product2.External_ID__c"] == "P-9"
    entry = sf.query("SELECT Product2.Name FROM PricebookEntry")["records"][0]
    assert entry["Product2"]["Name"] == "Shoe"


def test_xml_job_with_csv_batches_as_jsforce_sends_them(sf):
    session = sf.session
    xml = {"Content-Type": "application/xml; charset=utf-8", "X-SFDC-Session": sf.session_id}
    job = session.post(
        _async(sf, "job"),
        data='<?xml version="1.0" encoding="UTF-8"?><jobInfo xmlns="http://www.force.com/2009/06/asyncapi/dataload">'
        "<operation>insert</operation><object>Contact</object><contentType>CSV</contentType></jobInfo>",
        headers=xml,
    )
    assert job.status_code == 201 and job.headers["Content-Type"].startswith("application/xml")
    job_id = re.search(r"<id>([^<]+)</id>", job.text).group(1)
    assert "<state>Open</state>" in job.text and "<contentType>CSV</contentType>" in job.text
    batch = session.post(
        _async(sf, f"job/{job_id}/batch"),
        data="LastName,Email\nDoe,doe@example.com\n,nobody@example.com\n",
        headers={"Content-Type": "text/csv", "X-SFDC-Session": sf.session_id},
    )
    assert batch.status_code == 201
    batch_id = re.search(r"<id>([^<]+)</id>", batch.text).group(1)
    info = session.get(_async(sf, f"job/{job_id}/batch/{batch_id}"), headers=xml).text
    assert "<state>Completed</state>" in info and "<numberRecordsFailed>1</numberRecordsFailed>" in info
    results = list(
        csv.DictReader(
            io.StringIO(session.get(_async(sf, f"job/{job_id}/batch/{batch_id}/result"), headers=xml).text)
        )
    )
    assert [r["Success"] for r in results] == ["true", "false"]
    assert results[1]["Error"] == "REQUIRED_FIELD_MISSING:Required fields are missing: [LastName]:LastName --"
    request = session.get(_async(sf, f"job/{job_id}/batch/{batch_id}/request"), headers=xml)
    assert request.text.startswith("LastName,Email")
    closed = session.post(
        _async(sf, f"job/{job_id}"),
        data='<jobInfo xmlns="http://www.force.com/2009/06/asyncapi/dataload"><state>Closed</state></jobInfo>',
        headers=xml,
    ).text
    assert (
        "<state>Closed</state>" in closed and "<numberRecordsProcessed>2</numberRecordsProcessed>" in closed
    )
    refused = session.post(_async(sf, f"job/{job_id}/batch"), data="LastName\nLate\n", headers=xml)
    assert refused.status_code == 400 and "<exceptionCode>InvalidJobState</exceptionCode>" in refused.text


def test_csv_query_results_are_listed_then_read(sf):
    sf.Account.create({"Name": "Quoted, Inc."})
    xml = {"Content-Type": "application/xml", "X-SFDC-Session": sf.session_id}
    job = sf.session.post(
        _async(sf, "job"),
        data="<jobInfo><operation>query</operation><object>Account</object><contentType>CSV</contentType></jobInfo>",
        headers=xml,
    ).text
    job_id = re.search(r"<id>([^<]+)</id>", job).group(1)
    batch = sf.session.post(
        _async(sf, f"job/{job_id}/batch"), data="SELECT Name, Owner.Name FROM Account", headers=xml
    )
    batch_id = re.search(r"<id>([^<]+)</id>", batch.text).group(1)
    listing = sf.session.get(_async(sf, f"job/{job_id}/batch/{batch_id}/result"), headers=xml).text
    result_id = re.search(r"<result-list[^>]*><result>([^<]+)</result></result-list>", listing).group(1)
    rows = sf.session.get(_async(sf, f"job/{job_id}/batch/{batch_id}/result/{result_id}"), headers=xml).text
    assert rows == '"Name","Owner.Name"\n"Quoted, Inc.","Admin User"\n'


def test_errors_are_bulk_api_errors(sf):
    no_session = requests.Session()
    no_session.mount(f"https://{sf.sf_instance}/", sf.session.get_adapter(f"https://{sf.sf_instance}/"))
    refused = no_session.get(_async(sf, "job/750000000000000AAA"), headers={"X-SFDC-Session": "nope"})
    # jsforce renews its session on exactly this answer: 400 with <exceptionCode>InvalidSessionId</exceptionCode>.
    assert refused.status_code == 400 and "<exceptionCode>InvalidSessionId</exceptionCode>" in refused.text
    headers = {"Content-Type": "application/json", "X-SFDC-Session": sf.session_id}
    unknown = sf.session.post(
        _async(sf, "job"), data=json.dumps({"operation": "insert", "object": "Nope"}), headers=headers
    )
    assert unknown.status_code == 400
    assert unknown.json() == {
        "exceptionCode": "InvalidJob",
        "exceptionMessage": "Unable to find object: Nope",
    }
    bad_key = sf.session.post(
        _async(sf, "job"),
        data=json.dumps(
            {"operation": "upsert", "object": "Account", "externalIdFieldName": "Name", "contentType": "JSON"}
        ),
        headers=headers,
    )
    assert bad_key.json()["exceptionCode"] == "InvalidJob"
    missing = sf.session.get(_async(sf, "job/750000000000000AAA"), headers=headers)
    assert missing.status_code == 400 and missing.json()["exceptionCode"] == "InvalidJob"


def test_unreadable_batches_fail_the_batch_and_write_nothing(sf):
    headers = {"Content-Type": "application/json", "X-SFDC-Session": sf.session_id}
    job = sf.session.post(
        _async(sf, "job"),
        data=json.dumps({"operation": "insert", "object": "Account", "contentType": "JSON"}),
        headers=headers,
    ).json()
    batch = sf.session.post(
        _async(sf, f"job/{job['id']}/batch"), data='[{"Name": NaN}]', headers=headers
    ).json()
    assert batch["state"] == "Failed" and batch["stateMessage"].startswith(
        "InvalidBatch : Failed to parse JSON"
    )
    xml = {"Content-Type": "application/xml", "X-SFDC-Session": sf.session_id}
    bomb = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><jobInfo><operation>insert</operation></jobInfo>'
    refused = sf.session.post(_async(sf, "job"), data=bomb, headers=xml)
    assert refused.status_code == 400 and "<exceptionCode>InvalidXML</exceptionCode>" in refused.text
    assert emulated_org(sf).count("Account") == 0
