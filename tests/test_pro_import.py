"""``crmarena-sf import-crmarena-pro``: CRMArena-Pro's SQLite dumps as datasets, Ids and key prefixes kept.

The dump here is built by ``tests/pro_dump.py`` in the official layout (27 tables; the B2B dump's
columns and quirks: ``OrderItem.PriceBookEntryId``, list-valued ``EmailMessage.ToIds``, polymorphic
``Task.WhatId``, numbers stored as text, custom objects with their own key prefixes).
"""

from __future__ import annotations

import json

import pytest
from pro_dump import (
    ACCOUNTS,
    CASE,
    CONTACTS,
    ENTRIES,
    ISSUE,
    LEADS,
    OPPS,
    ORDER_ITEMS,
    TASKS,
    USERS,
    write_pro_dump,
)

from crmarena_sf.cli.main import main as cli
from crmarena_sf.connection.connect import connect


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    root = tmp_path_factory.mktemp("pro-dump")
    dump = write_pro_dump(root / "crmarenapro_b2b_data.db")
    assert cli(["import-crmarena-pro", str(dump), "--out", str(root / "ds"), "--quiet"]) == 0
    return root / "ds"


@pytest.fixture(scope="module")
def sf(imported):
    return connect(org=str(imported))


def test_the_import_reports_what_it_wrote_and_repaired(tmp_path, capsys):
    dump = write_pro_dump(tmp_path / "dump.db")
    assert cli(["import-crmarena-pro", str(dump), "--out", str(tmp_path / "ds"), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("wrote ") and "(1 dangling references repaired)" in out
    manifest = json.loads((tmp_path / "ds" / "manifest.json").read_text())
    assert manifest["schema"] == "crmarena-pro" and manifest["repairs"] == {"Task.WhatId": 1}
    assert manifest["key_prefixes"] == {"CaseHistory__c": "a04", "Issue__c": "a03"}


def test_official_ids_are_kept_and_references_resolve(sf):
    lead = sf.query(
        f"SELECT Name, IsConverted, ConvertedAccount.Name, ConvertedContact.Email FROM Lead WHERE Id = '{LEADS[0]}'"
    )
    assert lead["records"][0]["Name"] == "Cy Park"
    assert lead["records"][0]["ConvertedAccount"]["Name"] == "Keel Robotics"
    case = sf.query(
        f"SELECT IssueId__r.Name, OrderItemId__r.Product2.Name, Owner.Name FROM Case WHERE Id = '{CASE}'"
    )["records"][0]
    assert (
        case["IssueId__r"]["Name"] == "Simulation Crash"
        and case["OrderItemId__r"]["Product2"]["Name"] == "Trace Router"
    )
    deal = sf.query(
        f"SELECT StageName, IsWon, ContractID__r.CompanySignedDate FROM Opportunity WHERE Id = '{OPPS[0]}'"
    )["records"][0]
    assert deal["IsWon"] and deal["ContractID__r"]["CompanySignedDate"] == "2023-03-15"
    assert (
        sf.query(f"SELECT Territory2.Description FROM UserTerritory2Association WHERE UserId = '{USERS[1]}'")[
            "records"
        ][0]["Territory2"]["Description"]
        == "CA, OR, WA"
    )


def test_the_dumps_quirks_are_read(sf):
    item = sf.query(
        f"SELECT PricebookEntryId, Quantity, UnitPrice, TotalPrice FROM OrderItem WHERE Id = '{ORDER_ITEMS[0]}'"
    )["records"][0]
    assert item["PricebookEntryId"] == ENTRIES[0]  # the dump's PriceBookEntryId column
    assert (item["Quantity"], item["UnitPrice"], item["TotalPrice"]) == (2.0, 6000.0, 12000.0)
    emails = sf.query("SELECT ToIds FROM EmailMessage ORDER BY MessageDate")["records"]
    assert [e["ToIds"] for e in emails] == [[USERS[0]], [CONTACTS[2], USERS[1]]]
    tasks = {t["Id"]: t for t in sf.query("SELECT Id, WhatId, What.Name, IsClosed FROM Task")["records"]}
    assert tasks[TASKS[0]]["What"]["Name"] == "Keel - Router" and tasks[TASKS[0]]["IsClosed"]
    assert tasks[TASKS[1]]["WhatId"] == ACCOUNTS[0] and tasks[TASKS[1]]["What"]["Name"] == "Orbit Devices"
    assert tasks[TASKS[2]]["WhatId"] is None  # its object is not in the org: cleared, counted in the manifest
    line = sf.query("SELECT Subtotal, TotalPrice FROM QuoteLineItem")["records"][0]
    assert (line["Subtotal"], line["TotalPrice"]) == (12000.0, 9000.0)
    found = sf.search(
        "FIND {approval} RETURNING Knowledge__kav(Title WHERE PublishStatus = 'Online' AND Language = 'en_US')"
    )
    assert [r["Title"] for r in found["searchRecords"]] == ["Quote Approval"]


def test_custom_objects_keep_the_dumps_key_prefixes_in_an_org_file(imported, tmp_path, capsys):
    org_file = tmp_path / "pro.duckdb"
    assert cli(["load", str(imported), "--org", str(org_file), "--quiet"]) == 0
    sf = connect(org=str(org_file))
    assert sf.Issue__c.describe()["keyPrefix"] == "a03"
    assert (
        sf.query(f"SELECT Name FROM Issue__c WHERE Id = '{ISSUE}'")["records"][0]["Name"]
        == "Simulation Crash"
    )
    created = sf.Issue__c.create({"Name": "New issue"})
    assert created["id"].startswith("a03")


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (
            {"drop_table": "VoiceCallTranscript__c"},
            "is not a CRMArena-Pro dump: it lacks the tables VoiceCallTranscript__c",
        ),
        (
            {"drop_column": ("OrderItem", "PriceBookEntryId")},
            "is not a CRMArena-Pro dump: table OrderItem lacks the columns PriceBookEntryId",
        ),
    ],
)
def test_a_wrong_file_gets_one_line_naming_the_table_and_column(tmp_path, capsys, broken, message):
    dump = write_pro_dump(tmp_path / "dump.db", **broken)
    assert cli(["import-crmarena-pro", str(dump), "--out", str(tmp_path / "ds"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "ds").exists()


def test_a_file_that_is_not_sqlite_is_refused_in_one_line(tmp_path, capsys):
    (tmp_path / "x.db").write_text("not a database")
    assert cli(["import-crmarena-pro", str(tmp_path / "x.db"), "--out", str(tmp_path / "ds")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "x.db" in err
    assert not (tmp_path / "ds").exists()
