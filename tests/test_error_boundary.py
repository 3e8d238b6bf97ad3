"""One error boundary: an engine failure reaches SOQL, SOSL and REST clients as the same Salesforce error.

Salesforce's generic answers (REST API Developer Guide, "Status Codes and Error Responses",
https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm):
UNKNOWN_EXCEPTION (HTTP 500) with an ErrorId shaped ``<n>-<n> (<signed n>)`` for a failure
of the platform's own, and QUERY_TOO_COMPLICATED for a statement past the engine's limits.
"""

from __future__ import annotations

import json
import logging
import re

import pytest
from crmarena_sf.emulator import soql, sosl
from crmarena_sf.emulator.errors import TOO_COMPLICATED, SalesforceError
from crmarena_sf.emulator.store.org import Org

from crmarena_sf import connect

ERROR_ID = re.compile(
    r"^An unexpected error occurred\. Please include this ErrorId if you contact support: "
    r"(\d+)-(\d+) \((-?\d+)\)$"
)


@pytest.fixture
def org():
    org = Org.new()
    org.insert("Account", {"Name": "Acme"})
    yield org
    org.close()


def _engine_bug(*args, **kwargs):
    raise RuntimeError("engine bug")


def _too_deep(*args, **kwargs):
    raise RecursionError("maximum recursion depth exceeded")


def _failure(call) -> SalesforceError:
    with pytest.raises(SalesforceError) as info:
        call()
    return info.value


def _each_door(org):
    """The three engine entry points a client reaches: SOQL, SOSL's RETURNING (through SOQL), SOSL."""
    return {
        "query": lambda: soql.query(org, "SELECT Name FROM Account"),
        "select_records": lambda: soql.select_records(org, "Account", "Name"),
        "search": lambda: sosl.search(org, "FIND {Acme} RETURNING Account(Name)"),
    }


def test_an_engine_bug_is_unknown_exception_with_one_error_id_format_and_is_logged(org, monkeypatch, caplog):
    monkeypatch.setattr(soql, "first_batch", _engine_bug)
    monkeypatch.setattr(soql, "fetch_records", _engine_bug)
    monkeypatch.setattr(sosl, "_run", _engine_bug)
    caplog.set_level(logging.ERROR, logger="emulator")
    for door, call in _each_door(org).items():
        caplog.clear()
        error = _failure(call)
        assert (error.error_code, error.status) == ("UNKNOWN_EXCEPTION", 500), door
        assert ERROR_ID.match(error.message), (door, error.message)
        # The operator's log names the same ErrorId, with the traceback of the bug.
        assert [r.exc_info[1].args for r in caplog.records] == [("engine bug",)], door
        assert error.message in caplog.records[0].getMessage(), door


def test_the_traceback_behind_an_error_id_is_in_a_log_file_the_user_finds(org, monkeypatch, private_cache):
    from crmarena_sf.emulator.error_boundary import error_log_path

    monkeypatch.setattr(soql, "first_batch", _engine_bug)
    error = _failure(lambda: soql.query(org, "SELECT Id FROM Account"))
    assert error_log_path().is_relative_to(private_cache)
    entries = error_log_path().read_text(encoding="utf-8").split("\n\n")
    entry = next(e for e in entries if error.message in e)
    assert "RuntimeError: engine bug" in entry and "Traceback" in entry


def test_the_same_bug_keeps_its_first_and_last_numbers(org, monkeypatch):
    monkeypatch.setattr(soql, "first_batch", _engine_bug)
    first = ERROR_ID.match(_failure(lambda: soql.query(org, "SELECT Id FROM Account")).message)
    again = ERROR_ID.match(_failure(lambda: soql.query(org, "SELECT Id FROM Account")).message)
    assert (first[1], first[3]) == (again[1], again[3]) and first[2] != again[2]


def test_a_statement_too_deep_to_walk_is_query_too_complicated_everywhere(org, monkeypatch):
    monkeypatch.setattr(soql, "first_batch", _too_deep)
    monkeypatch.setattr(soql, "fetch_records", _too_deep)
    monkeypatch.setattr(sosl, "_run", _too_deep)
    for door, call in _each_door(org).items():
        error = _failure(call)
        assert (error.error_code, error.message, error.status) == (
            "QUERY_TOO_COMPLICATED",
            TOO_COMPLICATED,
            400,
        ), door
    # query_more: the next page of a statement fails the same way.
    monkeypatch.setattr(soql, "next_batch", _too_deep)
    assert _failure(lambda: soql.query_more(org, "01gEm0000000001AAA-2000")).error_code == (
        "QUERY_TOO_COMPLICATED"
    )


def test_rest_answers_an_engine_bug_and_a_router_bug_alike(monkeypatch, caplog):
    sf = connect("blank")
    caplog.set_level(logging.ERROR, logger="emulator")
    monkeypatch.setattr(soql, "first_batch", _engine_bug)
    monkeypatch.setattr(soql, "first_batch_json", _engine_bug)  # REST answers /query with the JSON body
    from crmarena_sf.emulator.rest.data import describe

    monkeypatch.setattr(describe.ROUTES[2], "handlers", {"GET": _engine_bug})
    for path in ("query?q=SELECT+Id+FROM+Account", "limits"):
        response = sf.session.get(sf.base_url + path, headers=sf.headers)
        assert response.status_code == 500, path
        [body] = json.loads(response.content)
        assert set(body) == {"message", "errorCode"} and body["errorCode"] == "UNKNOWN_EXCEPTION", path
        assert ERROR_ID.match(body["message"]), path
        assert body["message"] in caplog.records[-1].getMessage(), path
    # A bug outside a statement is no QUERY_TOO_COMPLICATED: only statements have that answer.
    monkeypatch.setattr(describe.ROUTES[2], "handlers", {"GET": _too_deep})
    response = sf.session.get(sf.base_url + "limits", headers=sf.headers)
    assert json.loads(response.content)[0]["errorCode"] == "UNKNOWN_EXCEPTION"


def test_a_composite_subrequest_bug_is_answered_and_logged_like_a_request_of_its_own(monkeypatch, caplog):
    sf = connect("blank")
    caplog.set_level(logging.ERROR, logger="emulator")
    from crmarena_sf.emulator.rest.data import describe

    monkeypatch.setattr(describe.ROUTES[2], "handlers", {"GET": _engine_bug})
    body = {
        "compositeRequest": [{"method": "GET", "url": "/services/data/v62.0/limits", "referenceId": "lim"}]
    }
    response = sf.session.post(sf.base_url + "composite", json=body, headers=sf.headers)
    [answer] = response.json()["compositeResponse"]
    assert answer["httpStatusCode"] == 500 and answer["body"][0]["errorCode"] == "UNKNOWN_EXCEPTION"
    assert ERROR_ID.match(answer["body"][0]["message"])
    assert answer["body"][0]["message"] in caplog.records[-1].getMessage()
    assert "composite subrequest lim" in caplog.records[-1].getMessage()
