"""``crmarena-sf query`` / ``crmarena-sf search``: tables, ``--json``, and one-line errors with meaningful exit codes."""

from __future__ import annotations

import json

import pytest
from crmarena_sf.emulator.store.org import Org

from crmarena_sf.cli.cmd_query import format_table
from crmarena_sf.cli.main import main


@pytest.fixture(scope="module")
def org_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("orgs") / "small.duckdb"
    org = Org.new()
    account = org.insert("Account", {"Name": "Acme", "Industry": "Apparel"})
    org.insert("Contact", {"LastName": "Lee", "AccountId": account})
    org.insert("Contact", {"LastName": "Kim"})
    org.save(path)
    org.close()
    return str(path)


def test_query_prints_a_table_with_parent_columns(org_file, capsys):
    assert (
        main(["query", "SELECT LastName, Account.Name FROM Contact ORDER BY LastName", "--org", org_file])
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["LastName", "Account.Name"]
    assert set(out[1]) <= {"-", " "}
    assert out[2].split() == ["Kim"] and out[3].split() == ["Lee", "Acme"]
    assert out[-1] == "(2 records)"


def test_query_json_is_the_rest_body_with_every_page(org_file, capsys):
    assert main(["query", "SELECT Name FROM Account", "--org", org_file, "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["totalSize"] == 1 and body["done"] is True
    assert body["records"][0]["attributes"]["type"] == "Account" and body["records"][0]["Name"] == "Acme"


def test_count_query_prints_the_total(org_file, capsys):
    assert main(["query", "SELECT COUNT() FROM Contact", "--org", org_file]) == 0
    assert capsys.readouterr().out.strip() == "(2 records)"


def test_bad_soql_is_one_line_and_exit_1(org_file, capsys):
    assert main(["query", "SELECT Nope__c FROM Account", "--org", org_file]) == 1
    err = capsys.readouterr().err
    assert err.startswith("crmarena-sf: INVALID_FIELD: ") and "Traceback" not in err


def test_unknown_org_and_missing_credentials_are_exit_2(capsys, monkeypatch, tmp_path):
    assert main(["query", "SELECT Id FROM Account", "--org", "no-such-org"]) == 2
    assert "unknown org 'no-such-org'" in capsys.readouterr().err
    for name in (
        "SALESFORCE_USERNAME",
        "SALESFORCE_PASSWORD",
        "SALESFORCE_SECURITY_TOKEN",
        "SALESFORCE_INSTANCE_URL",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["query", "SELECT Id FROM Account", "--backend", "salesforce"]) == 2
    assert "SALESFORCE_USERNAME" in capsys.readouterr().err


def test_format_table_shows_child_counts_and_truncates_long_cells():
    records = [
        {
            "attributes": {"type": "Account"},
            "Name": "x" * 100,
            "Contacts": {"totalSize": 3, "done": True, "records": []},
            "Owner": None,
            "IsPartner": False,
        }
    ]
    lines = format_table(records).splitlines()
    assert lines[0].split() == ["Name", "Contacts", "Owner", "IsPartner"]
    assert "[3 records]" in lines[2] and lines[2].endswith("false") and "x" * 60 not in lines[2]


def test_search_prints_records_with_their_type(org_file, capsys):
    assert main(["search", "FIND {Acme} RETURNING Account(Name)", "--org", org_file]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["type", "Name"] and out[2].split() == ["Account", "Acme"]


def test_a_file_that_is_not_an_org_is_one_line_and_exit_2(capsys, tmp_path):
    junk = tmp_path / "junk.duckdb"
    junk.write_text("not a database", encoding="utf-8")
    assert main(["query", "SELECT Id FROM Case", "--org", str(junk)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a crmarena-sf org file" in err
    import duckdb

    other = tmp_path / "other.duckdb"
    duckdb.connect(str(other)).execute("CREATE TABLE t (x INT)").close()
    assert main(["query", "SELECT Id FROM Case", "--org", str(other)]) == 2
    assert "is not a crmarena-sf org file" in capsys.readouterr().err


def test_query_shows_child_rows_under_their_parent(org_file, capsys):
    soql = "SELECT Name, (SELECT LastName FROM Contacts ORDER BY LastName) FROM Account"
    assert main(["query", soql, "--org", org_file]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["Name", "Contacts"]
    assert out[2].split() == ["Acme", "[1", "record]"]
    assert out[3:7] == ["  Contacts:", "    LastName", "    --------", "    Lee"]
    assert out[-1] == "(1 record)"


def test_format_table_nests_each_parents_children_and_counts_them_in_words():
    def account(name: str, *last_names: str, total: int | None = None) -> dict:
        children = [{"attributes": {"type": "Contact"}, "LastName": n} for n in last_names]
        size = len(children) if total is None else total
        return {
            "attributes": {"type": "Account"},
            "Name": name,
            "Contacts": {"totalSize": size, "done": size == len(children), "records": children},
        }

    lines = format_table(
        [
            account("Acme", "Lee", "Kim"),
            account("Solo", "Park"),
            account("Empty"),
            account("Big", "A", total=9),
        ]
    ).splitlines()
    assert lines == [
        "Name   Contacts",
        "-----  -----------",
        "Acme   [2 records]",
        "  Contacts:",
        "    LastName",
        "    --------",
        "    Lee",
        "    Kim",
        "Solo   [1 record]",
        "  Contacts:",
        "    LastName",
        "    --------",
        "    Park",
        "Empty  [0 records]",
        "Big    [9 records]",
        "  Contacts (1 of 9 shown):",
        "    LastName",
        "    --------",
        "    A",
    ]
