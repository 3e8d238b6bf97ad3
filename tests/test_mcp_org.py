"""``crmarena-sf mcp --org``: an emulated org driven by the MCP SDK's own ``Client``, over stdio and HTTP.

Each server is the CLI in a process of its own (the blank org: its 868 ``FieldPermissions`` rows
give a query several pages), driven as an agent's MCP client drives it: list the tools, call
each, and read Salesforce's errors back as tool errors (``isError``) holding the REST API's
``[{"message", "errorCode"}]``. The REST API's words are checked against the REST API Developer
Guide (resources_query.htm, resources_sobject_create.htm, errorcodes.htm) and the SOQL and SOSL
Reference's error messages. Every server started here is ended by its test, and checked gone.
"""

from __future__ import annotations

import json
import signal
import sys
import urllib.error
import urllib.request

import anyio
import anyio.from_thread
import pytest
from mcp import Client
from mcp_sdk import SyncClient, http_client, http_server, stdio_client

from crmarena_sf.cli.main import main

ALL_TOOLS = {
    "run_soql_query",
    "query_more",
    "run_sosl_search",
    "list_sobjects",
    "describe_object",
    "get_record",
    "create_record",
    "update_record",
    "delete_record",
}
WRITE_TOOLS = {"create_record", "update_record", "delete_record"}


@pytest.fixture(scope="module")
def stdio():
    with stdio_client("--org", "blank") as client:
        yield client


# ---------------------------------------------------------------------------- the tools
def test_the_tools_are_listed_each_with_a_json_schema_a_description_and_hints(stdio):
    tools = stdio.tools()
    assert set(tools) == ALL_TOOLS
    for tool in tools.values():
        assert tool.description and tool.input_schema["type"] == "object"
    assert tools["run_soql_query"].input_schema["required"] == ["query"]
    assert set(tools["update_record"].input_schema["required"]) == {"object_name", "record_id", "data"}
    assert tools["run_soql_query"].annotations.read_only_hint is True
    assert tools["delete_record"].annotations.destructive_hint is True


def test_a_soql_query_answers_the_rest_apis_json(stdio):
    answer = stdio.ok("run_soql_query", {"query": "SELECT COUNT() FROM FieldPermissions"})
    assert answer == {"totalSize": 868, "done": True, "records": []}


def test_a_query_pages_through_next_records_url_as_query_more_follows_it(stdio):
    # resources_query.htm: a response holds at most batchSize records and a nextRecordsUrl to the rest
    first = stdio.ok("run_soql_query", {"query": "SELECT Id FROM FieldPermissions", "batch_size": 500})
    assert (first["totalSize"], first["done"], len(first["records"])) == (868, False, 500)
    second = stdio.ok("query_more", {"next_records_url": first["nextRecordsUrl"]})
    assert (second["done"], len(second["records"])) == (True, 368)
    assert "nextRecordsUrl" not in second
    ids = {r["Id"] for r in first["records"]} | {r["Id"] for r in second["records"]}
    assert len(ids) == 868
    # the locator alone (the last segment of the URL) works too
    locator = first["nextRecordsUrl"].rsplit("/", 1)[1]
    assert stdio.ok("query_more", {"next_records_url": locator}) == second
    assert stdio.error("query_more", {"next_records_url": "nonsense"})["errorCode"] == "INVALID_QUERY_LOCATOR"


def test_list_sobjects_and_describe_object_answer_describe_global_and_the_objects_describe(stdio):
    listed = stdio.ok("list_sobjects", {})
    names = {entry["name"] for entry in listed["sobjects"]}
    assert {"Account", "Case", "Contact", "FieldPermissions"} <= names
    described = stdio.ok("describe_object", {"object_name": "Case"})
    assert described["name"] == "Case"
    assert "Subject" in {field["name"] for field in described["fields"]}


def test_records_are_created_read_updated_searched_and_deleted(stdio):
    created = stdio.ok("create_record", {"object_name": "Account", "data": {"Name": "Acme over MCP"}})
    assert created["success"] is True and created["errors"] == [] and created["id"].startswith("001")
    record_id = created["id"]
    got = stdio.ok("get_record", {"object_name": "Account", "record_id": record_id, "fields": ["Name"]})
    assert got["Name"] == "Acme over MCP" and got["attributes"]["type"] == "Account"
    updated = stdio.ok(
        "update_record", {"object_name": "Account", "record_id": record_id, "data": {"Name": "Acme Renamed"}}
    )
    assert updated == {"id": record_id, "success": True, "errors": []}
    found = stdio.ok("run_sosl_search", {"search": "FIND {Renamed} RETURNING Account(Id, Name)"})
    assert [(r["Id"], r["Name"]) for r in found["searchRecords"]] == [(record_id, "Acme Renamed")]
    assert stdio.ok("delete_record", {"object_name": "Account", "record_id": record_id})["id"] == record_id
    queried = stdio.ok(
        "run_soql_query", {"query": f"SELECT Id, IsDeleted FROM Account WHERE Id = '{record_id}'"}
    )
    assert queried["totalSize"] == 0
    in_the_bin = stdio.ok(
        "run_soql_query",
        {"query": f"SELECT Id, IsDeleted FROM Account WHERE Id = '{record_id}'", "include_deleted": True},
    )
    assert in_the_bin["records"][0]["IsDeleted"] is True


def test_every_result_is_the_rest_apis_body_byte_for_byte():
    """In-process, on one org: each tool's text is what ``connect()``'s REST call of the same request returns."""
    from crmarena_sf import connect
    from crmarena_sf.connection.orgs import resolve_org
    from crmarena_sf.mcp_server.org_tools import org_server

    org = resolve_org("blank")
    sf = connect(org)
    record_id = sf.Account.create({"Name": "Bytes"})["id"]
    rest = lambda path, **params: sf.session.get(sf.base_url + path, params=params, headers=sf.headers).text  # noqa: E731
    cases = [
        (
            "run_soql_query",
            {"query": "SELECT Id, Name FROM Account"},
            rest("query", q="SELECT Id, Name FROM Account"),
        ),
        ("run_soql_query", {"query": "SELECT Bad FROM Account"}, rest("query", q="SELECT Bad FROM Account")),
        ("run_sosl_search", {"search": "FIND {Bytes}"}, rest("search", q="FIND {Bytes}")),
        ("list_sobjects", {}, rest("sobjects")),
        ("describe_object", {"object_name": "Account"}, rest("sobjects/Account/describe")),
        (
            "get_record",
            {"object_name": "Account", "record_id": record_id},
            rest(f"sobjects/Account/{record_id}"),
        ),
    ]
    with (
        anyio.from_thread.start_blocking_portal() as portal,
        portal.wrap_async_context_manager(Client(org_server(org, "blank"))) as client,
    ):
        tools = SyncClient(portal, client)
        for name, arguments, expected in cases:
            assert tools.call(name, arguments)[1] == expected, name


# ---------------------------------------------------------------------------- Salesforce's errors
def test_malformed_soql_is_a_tool_error_with_malformed_query(stdio):
    error = stdio.error("run_soql_query", {"query": "SELEC Id FROM Account"})
    assert error["errorCode"] == "MALFORMED_QUERY"


def test_an_unknown_field_is_invalid_field_in_salesforces_words(stdio):
    error = stdio.error("run_soql_query", {"query": "SELECT Nope FROM Account"})
    assert error["errorCode"] == "INVALID_FIELD"
    assert "No such column 'Nope' on entity 'Account'" in error["message"]


def test_an_unknown_object_is_invalid_type_in_soql_and_not_found_to_describe(stdio):
    error = stdio.error("run_soql_query", {"query": "SELECT Id FROM Nope__c"})
    assert error["errorCode"] == "INVALID_TYPE"
    assert "sObject type 'Nope__c' is not supported" in error["message"]
    assert stdio.error("describe_object", {"object_name": "Nope__c"}) == {
        "message": "The requested resource does not exist",
        "errorCode": "NOT_FOUND",
    }


def test_a_missing_required_field_is_required_field_missing(stdio):
    error = stdio.error("create_record", {"object_name": "Account", "data": {}})
    assert error == {
        "message": "Required fields are missing: [Name]",
        "errorCode": "REQUIRED_FIELD_MISSING",
        "fields": ["Name"],
    }


def test_a_bad_id_is_not_found_and_a_malformed_id_in_soql_is_refused(stdio):
    assert stdio.error("get_record", {"object_name": "Account", "record_id": "001000000000000AAA"})[
        "errorCode"
    ] == ("NOT_FOUND")
    assert stdio.error("get_record", {"object_name": "Account", "record_id": "Account/describe"})[
        "errorCode"
    ] == ("NOT_FOUND")
    error = stdio.error("run_soql_query", {"query": "SELECT Id FROM Account WHERE Id = 'xyz'"})
    assert error["errorCode"] == "INVALID_QUERY_FILTER_OPERATOR"
    assert "invalid ID field: xyz" in error["message"]


def test_arguments_outside_the_schema_are_a_tool_error_and_the_server_goes_on(stdio):
    failed, text = stdio.call("run_soql_query", {})
    assert failed and "query" in text
    failed, text = stdio.call("run_soql_query", {"query": "SELECT Id FROM Account", "batch_size": 5})
    assert failed and "batch_size" in text
    assert stdio.ok("run_soql_query", {"query": "SELECT COUNT() FROM Account"})["done"] is True


# ---------------------------------------------------------------------------- --read-only
def test_read_only_leaves_out_the_tools_that_write():
    with stdio_client("--org", "blank", "--read-only") as client:
        assert set(client.tools()) == ALL_TOOLS - WRITE_TOOLS
        failed, text = client.call("create_record", {"object_name": "Account", "data": {"Name": "X"}})
        assert failed and "create_record" in text
        assert client.ok("run_soql_query", {"query": "SELECT COUNT() FROM Account"})["totalSize"] == 0


# ---------------------------------------------------------------------------- HTTP
def _post(url: str, headers: dict[str, str]) -> int:
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }
    request = urllib.request.Request(
        url,
        data=json.dumps(initialize).encode(),
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **headers,
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_http_serves_the_tools_to_a_client_sending_the_printed_token_and_refuses_others():
    with http_server("--org", "blank") as (url, token, process):
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
        assert process.stdout.read(0) == ""  # nothing on stdout: the token and URL went to stderr
        with (
            anyio.from_thread.start_blocking_portal() as portal,
            portal.wrap_async_context_manager(http_client(url, token)) as client,
        ):
            http = SyncClient(portal, client)
            assert set(http.tools()) == ALL_TOOLS
            created = http.ok("create_record", {"object_name": "Contact", "data": {"LastName": "Doe"}})
            queried = http.ok("run_soql_query", {"query": "SELECT Id, LastName FROM Contact"})
            assert [(r["Id"], r["LastName"]) for r in queried["records"]] == [(created["id"], "Doe")]
            assert http.error("run_soql_query", {"query": "SELECT FROM"})["errorCode"] == "MALFORMED_QUERY"
        assert _post(url, {}) == 401
        assert _post(url, {"Authorization": "Bearer not-the-token"}) == 401
        assert _post(url, {"Authorization": f"Basic {token}"}) == 401
        assert _post(url, {"Authorization": f"Bearer {token}"}) == 200
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        assert "crmarena-sf: MCP server stopped" in process.stderr.read()


def test_http_takes_the_token_given_with_token():
    with http_server("--org", "blank", "--token", "s3cret", "--read-only") as (url, token, _):
        assert token == "s3cret"
        assert _post(url, {"Authorization": "Bearer s3cret"}) == 200


# ---------------------------------------------------------------------------- usage errors
@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ["--http", "0.0.0.0:8000"],
            "crmarena-sf: --http 0.0.0.0 is reachable from other machines; add --allow-remote to serve "
            "there, or use 127.0.0.1\n",
        ),
        (["--token", "abc"], "crmarena-sf: --token is the HTTP clients' bearer token: give it with --http\n"),
        (["--http", "127.0.0.1:0", "--token", " "], "crmarena-sf: --token must not be empty\n"),
    ],
)
def test_unsafe_or_inconsistent_options_are_refused_in_one_line(options, message, capsys):
    assert main(["mcp", *options]) == 2
    assert capsys.readouterr().err == message


def test_a_malformed_http_address_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["mcp", "--http", "8000"])
    assert stopped.value.code == 2
    assert "expected HOST:PORT (e.g. 127.0.0.1:8000), not '8000'" in capsys.readouterr().err


def test_an_org_that_does_not_exist_is_one_line(tmp_path, capsys):
    assert main(["mcp", "--org", str(tmp_path / "missing.duckdb")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("crmarena-sf: ") and err.count("\n") == 1


def test_without_the_sdk_the_command_says_how_to_install_it(monkeypatch, capsys):
    for name in ("mcp", "mcp.server", "mcp.types"):  # importing them raises ImportError
        monkeypatch.setitem(sys.modules, name, None)
    for name in ("crmarena_sf.mcp_server.org_tools", "crmarena_sf.mcp_server.http_transport"):
        monkeypatch.delitem(sys.modules, name, raising=False)  # imported afresh, without the SDK
    assert main(["mcp", "--org", "blank"]) == 2
    assert capsys.readouterr().err == (
        "crmarena-sf: crmarena-sf mcp needs the MCP Python SDK 2.x: pip install 'crmarena-sf[mcp]'\n"
    )
