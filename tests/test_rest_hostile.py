"""Malformed and hostile requests in-process: each gets a Salesforce-shaped 4xx, fast, and writes nothing.

Every test goes through the transport adapter of ``connect("blank")`` (the requests a client
library would send, raw) and, after a refused write, checks that the org's record counts did
not move. References: REST API Developer Guide errorcodes.htm (error bodies, JSON_PARSER_ERROR),
resources_composite_composite_post.htm (at most 25 subrequests), intro_rest_compression.htm
(gzip/deflate request bodies), resources_composite_sobjects_collections_upsert.htm; Bulk API
2.0 Developer Guide (job states, ingest results); OAuth 2.0 JWT Bearer Flow (Salesforce Help).
"""

from __future__ import annotations

import base64
import gzip
import json
import time
import zlib

import pytest

from crmarena_sf import connect
from crmarena_sf.connection.connect import emulated_org

V = "/services/data/v62.0"
FAST = 2.0
"""Seconds a refusal may take: a refusal that expands a number or a tree would take minutes."""


class Client:
    """Raw requests through the in-process adapter of an emulated blank org."""

    def __init__(self) -> None:
        self.sf = connect("blank")
        self.org = emulated_org(self.sf)
        self.base = self.sf.base_url.split("/services/")[0]

    def call(self, method: str, path: str, *, body=None, raw: bytes | None = None, headers=None):
        sent = {"Authorization": f"Bearer {self.sf.session_id}", "Content-Type": "application/json"}
        sent.update(headers or {})
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        url = path if path.startswith("/services/") else f"{V}/{path}"
        return self.sf.session.request(method, self.base + url, data=data, headers=sent)

    def counts(self) -> dict[str, int]:
        """Rows of every object, deleted ones included: what a half-written request would change."""
        return {obj.name: self.org.count(obj.name, include_deleted=True) for obj in self.org.schema}


@pytest.fixture
def api() -> Client:
    return Client()


def refused(
    api: Client, method: str, path: str, status: int, code: str, within: float = FAST, **kwargs
) -> list[dict]:
    """Send a request that must be refused with ``status``/``code``, quickly, leaving every count as it was."""
    before = api.counts()
    started = time.monotonic()
    response = api.call(method, path, **kwargs)
    assert time.monotonic() - started < within
    assert response.status_code == status, response.text
    body = response.json()
    assert isinstance(body, list) and body[0]["errorCode"] == code, body
    assert api.counts() == before
    return body


# ---------------------------------------------------------------------------- numbers
def test_a_huge_exponent_for_an_integer_field_is_refused_at_once_without_expanding_it(api):
    # int(Decimal("1e99999999")) would build a hundred-million-digit number under the org's lock.
    [error] = refused(
        api,
        "POST",
        "sobjects/Account/",
        400,
        "NUMBER_OUTSIDE_VALID_RANGE",
        body={"Name": "x", "NumberOfEmployees": "1e99999999"},
    )
    assert error["fields"] == ["NumberOfEmployees"]
    assert error["message"] == "Employees: value outside of valid range on numeric field: 1e99999999"


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (b'{"Name": "x", "AnnualRevenue": 1e300}', "AnnualRevenue"),
        (b'{"Name": "x", "AnnualRevenue": "1e300"}', "AnnualRevenue"),
        (b'{"Name": "x", "AnnualRevenue": "-1e99999999"}', "AnnualRevenue"),
        (b'{"Name": "x", "NumberOfEmployees": 3000000000}', "NumberOfEmployees"),
        (b'{"Name": "x", "BillingLatitude": 1e300}', "BillingLatitude"),
    ],
    ids=[
        "currency-1e300",
        "currency-text-1e300",
        "currency-huge-negative",
        "int-past-8-digits",
        "latitude-1e300",
    ],
)
def test_numbers_out_of_range_for_the_fields_precision_are_number_outside_valid_range(api, raw, field):
    [error] = refused(api, "POST", "sobjects/Account/", 400, "NUMBER_OUTSIDE_VALID_RANGE", raw=raw)
    assert error["fields"] == [field]


def test_a_5000_digit_integer_is_refused_by_the_json_reader(api):
    digits = b"9" * 5000
    [error] = refused(
        api,
        "POST",
        "sobjects/Account/",
        400,
        "JSON_PARSER_ERROR",
        raw=b'{"Name":"x","NumberOfEmployees":' + digits + b"}",
    )
    assert error["message"].startswith("Number value length (5000) exceeds the maximum allowed (1000")


def test_numeric_text_in_non_ascii_digits_is_not_a_number(api):
    # Python's Decimal reads "١٢" as 12; Salesforce's parser does not.
    refused(
        api,
        "POST",
        "sobjects/Account/",
        400,
        "JSON_PARSER_ERROR",
        body={"Name": "x", "NumberOfEmployees": "١٢"},
    )


def test_nan_and_infinity_are_not_json(api):
    [error] = refused(
        api, "POST", "sobjects/Account/", 400, "JSON_PARSER_ERROR", raw=b'{"Name":"x","AnnualRevenue":NaN}'
    )
    assert error["message"].startswith("Non-standard token 'NaN'")


def test_numbers_within_range_still_save(api):
    created = api.call(
        "POST", "sobjects/Account/", body={"Name": "ok", "NumberOfEmployees": "1e3", "AnnualRevenue": 1e17}
    )
    assert created.status_code == 201
    record = api.call("GET", f"sobjects/Account/{created.json()['id']}").json()
    assert record["NumberOfEmployees"] == 1000 and record["AnnualRevenue"] == 1e17


# ---------------------------------------------------------------------------- JSON bodies
def test_invalid_utf8_is_refused_not_stored_as_replacement_characters(api):
    [error] = refused(api, "POST", "sobjects/Account/", 400, "JSON_PARSER_ERROR", raw=b'{"Name":"x\xff\xfe"}')
    assert error["message"] == "Invalid UTF-8 start byte 0xff at [line:1, column:11]"


@pytest.mark.parametrize("escape", [b"\\ud800", b"\\udfff", b"a\\ud83d b"])
def test_a_lone_surrogate_escape_is_json_parser_error(api, escape):
    [error] = refused(
        api, "POST", "sobjects/Account/", 400, "JSON_PARSER_ERROR", raw=b'{"Name":"' + escape + b'"}'
    )
    assert "part of surrogate pair" in error["message"]


def test_a_surrogate_pair_is_one_character_and_saves(api):
    created = api.call("POST", "sobjects/Account/", raw=b'{"Name":"shoe \\ud83d\\udc5f"}')
    assert created.status_code == 201
    assert api.call("GET", f"sobjects/Account/{created.json()['id']}").json()["Name"] == "shoe \U0001f45f"


@pytest.mark.parametrize("depth", [201, 600, 10_000])
def test_json_nested_too_deep_is_json_parser_error(api, depth):
    raw = b'{"Name":"x","Description":' + b"[" * depth + b"]" * depth + b"}"
    [error] = refused(api, "POST", "sobjects/Account/", 400, "JSON_PARSER_ERROR", raw=raw)
    assert error["message"].startswith("Document nesting depth (201) exceeds the maximum allowed (200")


def test_json_nested_just_within_the_limit_inside_a_composite_is_still_a_4xx(api):
    deep = "[" * 195 + "]" * 195
    raw = (
        '{"compositeRequest":[{"method":"POST","url":"' + V + '/sobjects/Account","referenceId":"a",'
        '"body":{"Name":' + deep + "}}]}"
    ).encode()
    before = api.counts()
    [entry] = api.call("POST", "composite", raw=raw).json()["compositeResponse"]
    assert entry["httpStatusCode"] == 400 and entry["body"][0]["errorCode"] == "JSON_PARSER_ERROR"
    assert api.counts() == before


# ---------------------------------------------------------------------------- datetimes
@pytest.mark.parametrize(
    "value",
    [
        "9999-12-31T23:00:00-05:00",
        "0001-01-01T00:00:00+05:00",
        "2024-01-01T00:00:00+99:99",
        "2024-01-01T00:00:00+18:30",
    ],
)
def test_datetimes_whose_offset_leaves_the_calendar_or_the_valid_range_are_refused(api, value):
    refused(
        api,
        "POST",
        "sobjects/Contact/",
        400,
        "JSON_PARSER_ERROR",
        body={"LastName": "x", "EmailBouncedDate": value},
    )


def test_a_datetime_with_a_valid_offset_is_stored_in_utc(api):
    created = api.call(
        "POST", "sobjects/Contact/", body={"LastName": "x", "EmailBouncedDate": "2024-01-01T05:30:00+05:30"}
    )
    record = api.call("GET", f"sobjects/Contact/{created.json()['id']}").json()
    assert record["EmailBouncedDate"] == "2024-01-01T00:00:00.000+0000"


# ---------------------------------------------------------------------------- numbers in URLs and headers
@pytest.mark.parametrize(
    "version",
    ["v²", "v²².0", "v٦٢.0", "v６２.0", "v62.٠", "v" + "6" * 5000 + ".0"],
    ids=["superscript", "superscripts", "arabic-indic", "fullwidth", "arabic-minor", "5000-digits"],
)
def test_only_ascii_digits_make_an_api_version(api, version):
    response = api.call("GET", f"/services/data/{version}/limits")
    assert response.status_code == 404
    assert response.json() == [{"message": "The requested resource does not exist", "errorCode": "NOT_FOUND"}]
    assert api.call("GET", f"{V}/limits").status_code == 200


@pytest.mark.parametrize(
    "option",
    ["batchSize=" + "9" * 5000, "batchSize=٣", "batchSize=99999999999999999999"],
    ids=["5000-digits", "arabic-indic", "past-int64"],
)
def test_a_query_options_header_out_of_range_is_kept_within_salesforces_batch_sizes(api, option):
    # headers_queryoptions.htm: the batch size is kept between 200 and 2,000, never an error.
    api.call("POST", "sobjects/Account/", body={"Name": "one"})
    response = api.call("GET", "query?q=SELECT+Id+FROM+Account", headers={"Sforce-Query-Options": option})
    assert response.status_code == 200 and response.json()["totalSize"] == 1


def _query_job_with_three_rows(api: Client) -> str:
    for name in ("a", "b", "c"):
        api.call("POST", "sobjects/Account/", body={"Name": name})
    job = api.call("POST", "jobs/query", body={"operation": "query", "query": "SELECT Name FROM Account"})
    return job.json()["id"]


@pytest.mark.parametrize(
    ("max_records", "rows"), [("9" * 5000, 3), ("٢", 3), ("2", 2)], ids=["5000-digits", "arabic-indic", "two"]
)
def test_bulk_max_records_reads_ascii_digits_and_caps_huge_values(api, max_records, rows):
    job_id = _query_job_with_three_rows(api)
    response = api.call("GET", f"jobs/query/{job_id}/results?maxRecords={max_records}")
    assert response.status_code == 200
    assert response.headers["Sforce-NumberOfRecords"] == str(rows)


def test_a_composite_reference_with_a_huge_index_has_no_value(api):
    subrequests = [
        {"method": "GET", "url": f"{V}/query?q=SELECT+Id+FROM+Account", "referenceId": "q"},
        {"method": "GET", "url": f"{V}/sobjects/Account/@{{q.records[{'9' * 5000}].Id}}", "referenceId": "r"},
    ]
    entries = api.call("POST", "composite", body={"compositeRequest": subrequests}).json()[
        "compositeResponse"
    ]
    assert entries[1]["httpStatusCode"] == 400
    assert entries[1]["body"][0]["errorCode"] == "PROCESSING_HALTED"
    assert entries[1]["body"][0]["message"].startswith("Invalid reference specified. No value for q.records[")


# ---------------------------------------------------------------------------- sObject collections
def _account(**fields):
    return {"attributes": {"type": "Account"}, **fields}


def test_a_collection_without_all_or_none_answers_the_bad_record_and_keeps_the_others(api):
    before = api.counts()["Account"]
    records = [_account(Name="first"), _account(Name="huge", AnnualRevenue=1e300), _account(Name="third")]
    response = api.call("POST", "composite/sobjects", body={"allOrNone": False, "records": records})
    assert response.status_code == 200
    first, bad, third = response.json()
    assert first["success"] and third["success"]
    assert bad == {
        "success": False,
        "errors": [
            {
                "statusCode": "NUMBER_OUTSIDE_VALID_RANGE",
                "message": "Annual Revenue: value outside of valid range on numeric field: 1e+300",
                "fields": ["AnnualRevenue"],
            }
        ],
    }
    assert api.counts()["Account"] == before + 2


@pytest.mark.parametrize("type_value", [5, True, ["Account"], {"name": "Account"}])
def test_a_collection_record_type_of_the_wrong_json_type_is_a_record_error(api, type_value):
    before = api.counts()
    records = [{"attributes": {"type": type_value}, "Name": "x"}]
    [result] = api.call("POST", "composite/sobjects", body={"records": records}).json()
    assert result["success"] is False and result["errors"][0]["statusCode"] == "JSON_PARSER_ERROR"
    assert api.counts() == before


def test_collection_upsert_on_id_refuses_malformed_and_unknown_ids_as_the_single_record_path_does(api):
    before = api.counts()
    records = [
        _account(Id="' OR 1=1 --", Name="injected"),
        _account(Id="001000000000000AAA", Name="nobody"),
        _account(Id=7, Name="number"),
    ]
    malformed, unknown, number = api.call(
        "PATCH", "composite/sobjects/Account/Id", body={"records": records}
    ).json()
    assert malformed["errors"] == [
        {
            "statusCode": "MALFORMED_ID",
            "message": "Account ID: id value of incorrect type: ' OR 1=1 --",
            "fields": ["Id"],
        }
    ]
    assert unknown["errors"][0]["statusCode"] == "NOT_FOUND"
    assert number["errors"][0]["statusCode"] == "JSON_PARSER_ERROR"
    assert api.counts() == before
    [error] = refused(
        api, "PATCH", "sobjects/Account/Id/' OR 1=1 --", 400, "MALFORMED_ID", body={"Name": "x"}
    )
    assert error["message"] == "Account ID: id value of incorrect type: ' OR 1=1 --"
    refused(api, "PATCH", "sobjects/Account/Id/001000000000000AAA", 404, "NOT_FOUND", body={"Name": "x"})


def test_collection_upsert_on_id_creates_without_an_id_and_updates_with_a_real_one(api):
    existing = api.call("POST", "sobjects/Account/", body={"Name": "before"}).json()["id"]
    records = [_account(Id=None, Name="created"), _account(Id=existing, Name="after")]
    created, updated = api.call("PATCH", "composite/sobjects/Account/Id", body={"records": records}).json()
    assert created["success"] and created["created"] is True
    assert updated == {"id": existing, "success": True, "errors": [], "created": False}
    assert api.call("GET", f"sobjects/Account/{existing}").json()["Name"] == "after"


def test_collection_update_with_a_malformed_id_is_malformed_id(api):
    before = api.counts()
    [result] = api.call(
        "PATCH", "composite/sobjects", body={"records": [_account(Id="' OR 1=1 --", Name="x")]}
    ).json()
    assert result["errors"][0]["statusCode"] == "MALFORMED_ID"
    assert api.counts() == before


# ---------------------------------------------------------------------------- composite
def _create(index: int) -> dict:
    return {
        "method": "POST",
        "url": f"{V}/sobjects/Account",
        "referenceId": f"r{index}",
        "body": {"Name": f"c{index}"},
    }


@pytest.mark.parametrize("count", [26, 60])
def test_composite_refuses_more_than_25_subrequests_and_runs_none(api, count):
    [error] = refused(
        api,
        "POST",
        "composite",
        400,
        "LIMIT_EXCEEDED",
        body={"compositeRequest": [_create(i) for i in range(count)]},
    )
    assert str(count) in error["message"] and "25" in error["message"]


def test_composite_runs_25_subrequests(api):
    before = api.counts()["Account"]
    entries = api.call("POST", "composite", body={"compositeRequest": [_create(i) for i in range(25)]}).json()
    assert [e["httpStatusCode"] for e in entries["compositeResponse"]] == [201] * 25
    assert api.counts()["Account"] == before + 25


@pytest.mark.parametrize(
    "second",
    [
        {**_create(1), "httpHeaders": ["Sforce-Auto-Assign", "FALSE"]},
        {**_create(1), "httpHeaders": "Sforce-Auto-Assign: FALSE"},
        {**_create(1), "httpHeaders": {"Sforce-Auto-Assign": {"value": "FALSE"}}},
        {**_create(1), "url": 5},
        {**_create(1), "url": [f"{V}/sobjects/Account"]},
        {**_create(1), "method": ["POST"]},
        {**_create(1), "referenceId": {"id": 1}},
        "POST /sobjects/Account",
    ],
    ids=[
        "headers-array",
        "headers-string",
        "header-object",
        "url-number",
        "url-array",
        "method-array",
        "reference-object",
        "not-an-object",
    ],
)
def test_a_malformed_second_subrequest_refuses_the_whole_composite_before_the_first_runs(api, second):
    [error] = refused(
        api, "POST", "composite", 400, "JSON_PARSER_ERROR", body={"compositeRequest": [_create(0), second]}
    )
    assert "compositeRequest[1]" in error["message"]


def test_composite_all_or_none_must_be_a_boolean(api):
    refused(
        api,
        "POST",
        "composite",
        400,
        "JSON_PARSER_ERROR",
        body={"allOrNone": ["yes"], "compositeRequest": [_create(0)]},
    )


# ---------------------------------------------------------------------------- Bulk API 2.0
def _ingest(api: Client, csv: bytes, operation: str = "insert") -> str:
    job_id = api.call("POST", "jobs/ingest", body={"object": "Account", "operation": operation}).json()["id"]
    upload = api.call("PUT", f"jobs/ingest/{job_id}/batches", raw=csv, headers={"Content-Type": "text/csv"})
    assert upload.status_code == 201
    closed = api.call("PATCH", f"jobs/ingest/{job_id}", body={"state": "UploadComplete"})
    assert closed.status_code == 200 and closed.json()["state"] == "UploadComplete"
    return job_id


@pytest.mark.parametrize(
    ("csv", "reason"),
    [
        (
            b'Name,Description\nfirst,"never closed\nsecond,row\nthird,row\n',
            "EOF reached before closing an opened quote",
        ),
        (b'Name,Description\n"quoted"tail,x\n', "Not expecting more text after end quote"),
    ],
    ids=["unclosed-quote", "text-after-quote"],
)
def test_malformed_bulk_csv_fails_the_job_and_ingests_nothing(api, csv, reason):
    before = api.counts()
    job_id = _ingest(api, csv)
    job = api.call("GET", f"jobs/ingest/{job_id}").json()
    assert job["state"] == "Failed"
    assert job["errorMessage"] == f"InvalidBatch : {reason}"
    assert job["numberRecordsProcessed"] == 0
    assert api.counts() == before
    assert api.call("GET", f"jobs/ingest/{job_id}/unprocessedrecords").content == csv


def test_a_bulk_row_with_a_huge_exponent_fails_alone_and_quickly(api):
    before = api.counts()["Account"]
    started = time.monotonic()
    job_id = _ingest(api, b"Name,NumberOfEmployees\nhuge,1e99999999\nfine,12\n")
    assert time.monotonic() - started < FAST
    job = api.call("GET", f"jobs/ingest/{job_id}").json()
    assert job["state"] == "JobComplete" and job["numberRecordsFailed"] == 1
    failed = api.call("GET", f"jobs/ingest/{job_id}/failedResults").text
    assert "NUMBER_OUTSIDE_VALID_RANGE" in failed
    assert api.counts()["Account"] == before + 1


def test_a_job_whose_run_breaks_midway_ends_failed_and_keeps_none_of_its_rows(api, monkeypatch):
    from crmarena_sf.emulator.rest.bulk import bulk2

    real = bulk2.run_ingest

    def breaks_after_writing(*args, **kwargs):
        real(*args, **kwargs)  # the rows are written ...
        raise RuntimeError("storage failure")  # ... then the engine fails

    monkeypatch.setattr(bulk2, "run_ingest", breaks_after_writing)
    before = api.counts()
    job_id = _ingest(api, b"Name\nalpha\nbeta\n")
    job = api.call("GET", f"jobs/ingest/{job_id}").json()
    assert job["state"] == "Failed" and job["errorMessage"].startswith("UNKNOWN_EXCEPTION : ")
    assert api.counts() == before
    again = api.call("PATCH", f"jobs/ingest/{job_id}", body={"state": "UploadComplete"})
    assert again.status_code == 400 and again.json()[0]["errorCode"] == "INVALIDJOBSTATE"


@pytest.mark.parametrize(
    "options",
    [
        {"object": "Account", "operation": "insert", "columnDelimiter": ["COMMA"]},
        {"object": ["Account"], "operation": "insert"},
        {"object": "Account", "operation": {"insert": True}},
        {"object": "Account", "operation": "upsert", "externalIdFieldName": 5},
        {"object": "Account", "operation": "insert", "lineEnding": None, "contentType": 1},
    ],
)
def test_bulk_job_options_of_the_wrong_json_type_create_no_job(api, options):
    jobs_before = len(api.call("GET", "jobs/ingest").json()["records"])
    refused(api, "POST", "jobs/ingest", 400, "JSON_PARSER_ERROR", body=options)
    assert len(api.call("GET", "jobs/ingest").json()["records"]) == jobs_before


def test_a_bulk_query_of_the_wrong_json_type_creates_no_job(api):
    refused(
        api,
        "POST",
        "jobs/query",
        400,
        "JSON_PARSER_ERROR",
        body={"operation": "query", "query": ["SELECT Id FROM Account"]},
    )


# ---------------------------------------------------------------------------- logins
def _jwt(payload: bytes) -> str:
    parts = (b'{"alg":"RS256"}', payload, b"signature")
    return ".".join(base64.urlsafe_b64encode(part).decode().rstrip("=") for part in parts)


def _token(api: Client, assertion: str):
    form = f"grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion={assertion}"
    return api.sf.session.post(
        f"{api.base}/services/oauth2/token",
        data=form,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )


@pytest.mark.parametrize(
    "payload", [b"[1,2]", b'"admin"', b"5", b"null", b'{"sub": ["admin"]}', b"\xff\xfe", b"{"]
)
def test_a_jwt_whose_claims_are_not_an_object_is_invalid_grant(api, payload):
    response = _token(api, _jwt(payload))
    assert response.status_code == 400
    assert response.json() == {"error": "invalid_grant", "error_description": "invalid assertion"}


def test_a_jwt_with_an_object_payload_logs_in(api):
    response = _token(api, _jwt(b'{"sub": "anyone@example.com", "aud": "https://login.salesforce.com"}'))
    assert response.status_code == 200 and response.json()["token_type"] == "Bearer"


@pytest.mark.parametrize(
    "envelope",
    [
        b"<a>" * 10_000 + b"</a>" * 10_000,
        b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "admin">]><login><username>&e;</username>'
        b"<password>p</password></login>",
        b"<login><username>admin",
    ],
    ids=["nested-10000-deep", "doctype", "unclosed"],
)
def test_an_unreadable_soap_envelope_is_a_soap_fault(api, envelope):
    started = time.monotonic()
    response = api.sf.session.post(
        f"{api.base}/services/Soap/u/62.0",
        data=envelope,
        headers={"Content-Type": "text/xml", "SOAPAction": "login"},
    )
    assert time.monotonic() - started < FAST
    assert response.status_code == 500
    assert response.headers["Content-Type"].startswith("text/xml")
    assert "<faultcode>soapenv:Client</faultcode>" in response.text
    assert "<sessionId>" not in response.text


# ---------------------------------------------------------------------------- compressed bodies
@pytest.mark.parametrize(
    ("coding", "compress"),
    [("gzip", gzip.compress), ("deflate", zlib.compress)],
)
def test_compressed_request_bodies_are_decompressed(api, coding, compress):
    raw = compress(json.dumps({"Name": f"sent with {coding}"}).encode())
    created = api.call("POST", "sobjects/Account/", raw=raw, headers={"Content-Encoding": coding})
    assert created.status_code == 201, created.text
    assert api.call("GET", f"sobjects/Account/{created.json()['id']}").json()["Name"] == f"sent with {coding}"


def test_a_body_that_does_not_decompress_is_refused(api):
    refused(
        api,
        "POST",
        "sobjects/Account/",
        400,
        "BAD_REQUEST",
        raw=b'{"Name":"plain"}',
        headers={"Content-Encoding": "gzip"},
    )
    truncated = gzip.compress(b'{"Name":"cut"}')[:-6]
    refused(
        api,
        "POST",
        "sobjects/Account/",
        400,
        "BAD_REQUEST",
        raw=truncated,
        headers={"Content-Encoding": "gzip"},
    )


def _gzip_of_spaces(megabytes: int) -> bytes:
    """A gzip member inflating to ``megabytes`` MB of spaces (about a thousand times smaller)."""
    deflater = zlib.compressobj(1, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    chunk = b" " * (1 << 20)
    return b"".join(deflater.compress(chunk) for _ in range(megabytes)) + deflater.flush()


def test_a_compressed_body_that_inflates_past_the_body_limit_is_refused_unread(api):
    bomb = _gzip_of_spaces(151)
    assert len(bomb) < 1 << 20
    refused(
        api,
        "POST",
        "sobjects/Account/",
        413,
        "REQUEST_ENTITY_TOO_LARGE",
        within=10,  # inflating stops at 150 MB: well under a second, with room for a loaded machine
        raw=bomb,
        headers={"Content-Encoding": "gzip"},
    )
