"""Malformed and hostile requests in-process: each gets a Salesforce-shaped 4xx, fast, and writes nothing.

Every test goes through the transport adapter of ``connect("blank")`` (the requests a client
library would send, raw) and, after a refused write, checks that the org's record counts did
not move. References: REST API Developer Guide errorcodes.htm (error bodies, JSON_PARSER_ERROR),
resources_composite_composite_post.htm (at most 25 subrequests), intro_rest_compression.htm
(gzip/deflate request bodies), resources_composite_sobjects_collections_upsert.htm; Bulk API
2.0 Developer Guide (job states, ingest results); OAuth 2.0 JWT Bearer Flow (Salesforce Help).
"""

from __future__ import annotations

import json
import time

import pytest

from crmarena_sf import connect
from crmarena_sf.connect import emulated_org

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


def refused(api: Client, method: str, path: str, status: int, code: str, **kwargs) -> list[dict]:
    """Send a request that must be refused with ``status``/``code``, quickly, leaving every count as it was."""
    before = api.counts()
    started = time.monotonic()
    response = api.call(method, path, **kwargs)
    assert time.monotonic() - started < FAST
    assert response.status_code == status, response.text
    body = response.json()
    assert isinstance(body, list) and body[0]["errorCode"] == code, body
    assert api.counts() == before
    return body


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


def test_nan_and_infinity_are_not_json(api):
    [error] = refused(
        api, "POST", "sobjects/Account/", 400, "JSON_PARSER_ERROR", raw=b'{"Name":"x","AnnualRevenue":NaN}'
    )
    assert error["message"].startswith("Non-standard token 'NaN'")


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
