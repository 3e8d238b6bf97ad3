"""Loading a dataset into an emulator org: the fast path, its refusals, listeners, and `crmarena-sf load`."""

from __future__ import annotations

import shutil

import duckdb
import pytest
from crmarena_sf.emulator import soql
from crmarena_sf.emulator.store import files
from crmarena_sf.emulator.store.org import Org
from crmarena_sf.loaders.dataset import Dataset, DatasetError
from crmarena_sf.loaders.load import LOAD_KIND, load_dataset

from crmarena_sf.cli.main import main


@pytest.fixture(scope="module")
def tiny(tiny_dataset):
    """The session's tiny dataset (copied before any test changes it)."""
    return tiny_dataset


def test_a_loaded_org_holds_the_dataset_plus_what_a_new_org_has(tiny):
    counts = Dataset(tiny).manifest["counts"]
    with load_dataset(tiny) as org:
        assert org.count("Case") == counts["Case"]
        assert org.count("User") == counts["User"] + 1  # the admin user
        assert org.count("Pricebook2") == counts["Pricebook2"] + 1  # the standard price book
        body = soql.query(org, "SELECT COUNT() FROM Case WHERE Status = 'Closed'")
        assert (
            body["totalSize"] == org.con.execute('SELECT count(*) FROM "Case" WHERE "IsClosed"').fetchone()[0]
        )
        standard = soql.query(org, "SELECT Id FROM Pricebook2 WHERE IsStandard = true")["records"]
        assert len(standard) == 1


def test_ids_minted_after_a_load_do_not_collide(tiny):
    with load_dataset(tiny) as org:
        account = org.con.execute('SELECT "Id" FROM "Account" LIMIT 1').fetchone()[0]
        new_case = org.insert("Case", {"Subject": "After the load", "AccountId": account})
        new_issue = org.insert("Issue__c", {"Name": "Another issue"})
        assert org.count("Case") == Dataset(tiny).manifest["counts"]["Case"] + 1
        assert org.get("Issue__c", new_issue)["Name"] == "Another issue"
        assert (
            org.get("Case", new_case)["CaseNumber"]
            > org.con.execute('SELECT max("CaseNumber") FROM "Case" WHERE "Id" <> ?', [new_case]).fetchone()[
                0
            ]
        )


def test_listeners_hear_one_load_per_object(tiny):
    org = Org.new()
    heard = []
    org.listeners.append(lambda o, name, ids, kind: heard.append((name, tuple(ids), kind)))
    load_dataset(tiny, org)
    assert sorted(heard) == sorted((name, (), LOAD_KIND) for name in Dataset(tiny).objects)
    org.close()


def _copy_with(tiny, tmp_path, object_name, select):
    """A copy of the dataset whose ``object_name`` file is rewritten by ``select`` (over ``src``)."""
    copy = tmp_path / "copy"
    shutil.copytree(tiny, copy)
    path = copy / f"{object_name}.parquet"
    con = duckdb.connect()
    con.execute(f"CREATE TABLE src AS SELECT * FROM read_parquet('{path}')")
    con.execute(f"COPY ({select}) TO '{path}' (FORMAT parquet)")
    return copy


@pytest.mark.parametrize(
    "object_name, select, message",
    [
        (
            "Issue__c",
            "SELECT *, 'red' AS Colour__c FROM src",
            "columns that are not fields of Issue__c: Colour__c",
        ),
        ("Order", "SELECT * REPLACE ('not a date' AS \"EffectiveDate\") FROM src", "does not fit Order"),
        ("Issue__c", "SELECT * FROM src UNION ALL SELECT * FROM src", "is already in the org"),
    ],
)
def test_a_dataset_that_does_not_fit_leaves_the_org_unchanged(tiny, tmp_path, object_name, select, message):
    bad = _copy_with(tiny, tmp_path, object_name, select)
    org = Org.new()
    before = {name: org.count(name) for name in ("Account", "Case", "Issue__c", "Order", "User")}
    with pytest.raises(DatasetError, match=message):
        load_dataset(bad, org)
    assert {name: org.count(name) for name in before} == before
    org.close()


def test_an_object_the_schema_lacks_is_refused(tiny, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(tiny, copy)
    manifest = (
        (copy / "manifest.json")
        .read_text()
        .replace('"Issue__c": "Issue__c.parquet"', '"Widget__c": "Issue__c.parquet"')
    )
    (copy / "manifest.json").write_text(manifest)
    with pytest.raises(DatasetError, match="objects not in this org's schema: Widget__c"):
        load_dataset(copy)


def compressions(path, table: str = "EmailMessage") -> set[str]:
    """How DuckDB stores the columns of a table of an org file (pragma storage_info)."""
    with duckdb.connect(str(path), read_only=True) as con:
        rows = con.execute("SELECT DISTINCT compression FROM pragma_storage_info(?)", [table]).fetchall()
    return {row[0] for row in rows}


def test_a_small_org_file_is_stored_uncompressed_and_a_large_one_only_in_its_small_tables(
    tiny, tmp_path, monkeypatch
):
    # Uncompressed, DuckDB reads an org file as fast as memory; a large org keeps the disk small.
    load_dataset(tiny, Org.new(path=tmp_path / "small.duckdb")).close()
    assert compressions(tmp_path / "small.duckdb") <= {"Uncompressed", "Constant"}
    counts = Dataset(tiny).manifest["counts"]
    # the tiny dataset as a large org: its emails more than the limit, its cases fewer
    monkeypatch.setattr(files, "UNCOMPRESSED_MAX_ROWS", (counts["EmailMessage"] + counts["Case"]) // 2)
    with load_dataset(tiny, Org.new(path=tmp_path / "large.duckdb")) as org:
        case = org.con.execute('SELECT "Id", "Subject" FROM "Case" ORDER BY "Id" LIMIT 1').fetchone()
        assert (
            soql.query(org, f"SELECT Subject FROM Case WHERE Id = '{case[0]}'")["records"][0]["Subject"]
            == case[1]
        )
    assert compressions(tmp_path / "large.duckdb") - {"Uncompressed", "Constant"}
    assert compressions(tmp_path / "large.duckdb", "Case") <= {"Uncompressed", "Constant"}


def test_cli_load_creates_an_org_file_and_never_overwrites(tiny, tmp_path, capsys):
    target = tmp_path / "org.duckdb"
    assert main(["load", str(tiny), "--org", str(target), "--quiet"]) == 0
    with Org.open(target) as org:
        assert org.count("Case") == Dataset(tiny).manifest["counts"]["Case"]
    size = target.stat().st_size
    assert main(["load", str(tiny), "--org", str(target), "--quiet"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert target.stat().st_size == size


def test_cli_load_of_a_bad_dataset_writes_no_org_file(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["load", str(tmp_path / "empty"), "--org", str(tmp_path / "org.duckdb"), "--quiet"]) == 2
    assert "has no manifest.json" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]
