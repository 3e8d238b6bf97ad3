"""Bulk API edge cases real clients hit: a CSV row of empty cells, a batch without data.

jsforce writes a job's CSV header from every record's keys, so a record whose only value is in
a column others lack, or which has no value at all, becomes a line of bare delimiters (``,``).
A real org reads that line as a record that sets nothing and answers it (Account:
``REQUIRED_FIELD_MISSING``), in the batch results for Bulk API 1.0 and in ``failedResults``
for Bulk API 2.0 (Bulk API 2.0 Developer Guide, "Get Job Failed Record Results",
get_job_failed_results.htm); a line with nothing on it stays a blank line. A Bulk API 1.0
batch without data is refused with ``ClientInputError`` "Unable to find any data to create
batch" and no batch is made (the exception jsforce users quote, jsforce/jsforce#545; Bulk API
Developer Guide, "Errors", asynch_api_reference_errors.htm).
"""

from __future__ import annotations

import csv
import io
import re

import pytest

from crmarena_sf import connect

ASYNC_NS = "http://www.force.com/2009/06/asyncapi/dataload"


@pytest.fixture
def sf():
    return connect("blank")


def _async(sf, path: str) -> str:
    return f"https://{sf.sf_instance}/services/async/62.0/{path}"


def _xml(sf) -> dict[str, str]:
    return {"Content-Type": "application/xml; charset=utf-8", "X-SFDC-Session": sf.session_id}


def _open_csv_job(sf, operation: str = "insert") -> str:
    job = sf.session.post(
        _async(sf, "job"),
        data=f'<jobInfo xmlns="{ASYNC_NS}"><operation>{operation}</operation><object>Account</object>'
        "<contentType>CSV</contentType></jobInfo>",
        headers=_xml(sf),
    )
    assert job.status_code == 201, job.text
    return re.search(r"<id>([^<]+)</id>", job.text).group(1)


def test_bulk1_a_row_of_empty_cells_is_a_record_and_a_blank_line_is_not(sf):
    job_id = _open_csv_job(sf)
    batch = sf.session.post(
        _async(sf, f"job/{job_id}/batch"),
        data="Name,BillingState\nOne,NY\n,\n\nTwo,\n",
        headers={"Content-Type": "text/csv", "X-SFDC-Session": sf.session_id},
    )
    assert batch.status_code == 201, batch.text
    batch_id = re.search(r"<id>([^<]+)</id>", batch.text).group(1)
    info = sf.session.get(_async(sf, f"job/{job_id}/batch/{batch_id}"), headers=_xml(sf)).text
    assert "<numberRecordsProcessed>3</numberRecordsProcessed>" in info
    result = sf.session.get(_async(sf, f"job/{job_id}/batch/{batch_id}/result"), headers=_xml(sf)).text
    rows = list(csv.DictReader(io.StringIO(result)))
    assert [r["Success"] for r in rows] == ["true", "false", "true"]
    assert rows[1]["Id"] == ""
    assert rows[1]["Error"] == "REQUIRED_FIELD_MISSING:Required fields are missing: [Name]:Name --"


def _bulk2_insert(sf, csv_text: str) -> dict:
    job = sf.session.post(
        f"{sf.bulk2_url}ingest",
        json={"object": "Account", "operation": "insert", "contentType": "CSV", "lineEnding": "LF"},
        headers=sf.headers,
    ).json()
    uploaded = sf.session.put(
        f"{sf.bulk2_url}ingest/{job['id']}/batches",
        data=csv_text,
        headers={**sf.headers, "Content-Type": "text/csv"},
    )
    assert uploaded.status_code == 201, uploaded.text
    closed = sf.session.patch(
        f"{sf.bulk2_url}ingest/{job['id']}", json={"state": "UploadComplete"}, headers=sf.headers
    )
    assert closed.status_code == 200, closed.text
    return sf.session.get(f"{sf.bulk2_url}ingest/{job['id']}", headers=sf.headers).json()


@pytest.mark.parametrize(
    "header, empty_row",
    [("Name,BillingState", ",\n"), ("Name", '""\n')],
    ids=["two columns", "one quoted empty cell"],
)
def test_bulk2_a_row_of_empty_cells_is_reported_in_failed_results(sf, header, empty_row):
    rows = "".join(f"Account {n}{',' * header.count(',')}\n" for n in range(200))
    info = _bulk2_insert(sf, f"{header}\n{rows}\n{empty_row}")
    assert (info["numberRecordsProcessed"], info["numberRecordsFailed"]) == (201, 1)
    failed = list(csv.DictReader(io.StringIO(sf.bulk2.Account.get_failed_records(info["id"]))))
    assert len(failed) == 1 and failed[0]["sf__Id"] == ""
    assert failed[0]["sf__Error"] == "REQUIRED_FIELD_MISSING:Required fields are missing: [Name]:Name --"


@pytest.mark.parametrize("body", ["", "\n"])
def test_bulk1_a_batch_without_data_is_refused_and_not_created(sf, body):
    job_id = _open_csv_job(sf)
    refused = sf.session.post(
        _async(sf, f"job/{job_id}/batch"),
        data=body,
        headers={"Content-Type": "text/csv", "X-SFDC-Session": sf.session_id},
    )
    assert refused.status_code == 400
    assert "<exceptionCode>ClientInputError</exceptionCode>" in refused.text
    assert "<exceptionMessage>Unable to find any data to create batch</exceptionMessage>" in refused.text
    listed = sf.session.get(_async(sf, f"job/{job_id}/batch"), headers=_xml(sf)).text
    assert "<batchInfo>" not in listed
