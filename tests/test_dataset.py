"""The dataset format: Parquet per object plus manifest, written atomically, read with clear errors."""

from __future__ import annotations

import json

import duckdb
import pytest
from crmarena_sf.emulator import ids
from crmarena_sf.loaders.dataset import MANIFEST, Dataset, DatasetError, DatasetWriter, schema_version
from crmarena_sf.loaders.validate import validate_dataset
from crmarena_sf.metadata import load_schema


@pytest.fixture(scope="module")
def schema():
    return load_schema()


def write_issues(path, schema, names=("Shipping Delay", "Size Mismatch"), **columns):
    with DatasetWriter(path, schema) as writer:
        writer.stage(
            "raw", {"n": ("BIGINT", list(range(1, len(names) + 1))), "name": ("VARCHAR", list(names))}
        )
        extra = "".join(f', {sql} AS "{name}"' for name, sql in columns.items())
        writer.write_object(
            "Issue__c", f'SELECT sfid(\'a1M\', n) AS "Id", name AS "Name"{extra} FROM raw ORDER BY n'
        )
        return writer.commit({"source": "test"})


def test_writer_makes_one_parquet_file_per_object_in_describe_order_with_org_types(tmp_path, schema):
    path = write_issues(tmp_path / "ds", schema)
    ds = Dataset(path)
    assert ds.objects == ["Issue__c"]
    assert ds.manifest["counts"] == {"Issue__c": 2}
    assert ds.manifest["schema_version"] == schema_version(schema, ["Issue__c"])
    con = duckdb.connect()
    described = con.execute(f"DESCRIBE SELECT * FROM {ds.parquet_sql('Issue__c')}").fetchall()
    stored = [f.name for f in schema.get("Issue__c").stored_fields]
    columns = [r[0] for r in described]
    assert columns == [c for c in stored if c in columns]  # describe order
    assert "IsDeleted" in columns  # a checkbox always has a value: its default is written
    assert con.execute(
        f'SELECT "Id", "IsDeleted" FROM {ds.parquet_sql("Issue__c")} ORDER BY 1'
    ).fetchall() == [
        (ids.make_id("a1M", 1), False),
        (ids.make_id("a1M", 2), False),
    ]


def test_sql_ids_are_the_emulators_ids(tmp_path, schema):
    from crmarena_sf.loaders import sqlids

    con = duckdb.connect()
    sqlids.install(con)
    for prefix in ("001", "a1M", "ka0", "01u"):
        for n in (1, 61, 62, 3843, 3844, 238_327, 14_776_336, 916_132_831, 916_132_832, 56_800_235_583):
            made = con.execute("SELECT sfid(?, ?)", [prefix, n]).fetchone()[0]
            assert made == ids.make_id(prefix, n)
            assert con.execute("SELECT sfid_valid(?)", [made]).fetchone()[0]
    assert not con.execute("SELECT sfid_valid('001D000000IqhSLXXX')").fetchone()[0]


def test_columns_the_describe_lacks_are_dropped_and_reported(tmp_path, schema):
    path = write_issues(tmp_path / "ds", schema, Colour__c="'red'")
    ds = Dataset(path)
    assert ds.manifest["fields_not_in_schema"] == {"Issue__c": ["Colour__c"]}
    columns = [
        r[0]
        for r in duckdb.connect().execute(f"DESCRIBE SELECT * FROM {ds.parquet_sql('Issue__c')}").fetchall()
    ]
    assert "Colour__c" not in columns


def test_a_failed_write_leaves_no_directory(tmp_path, schema):
    with pytest.raises(duckdb.Error), DatasetWriter(tmp_path / "ds", schema) as writer:
        writer.write_object("Issue__c", "SELECT no_such_column FROM range(3)")
    assert list(tmp_path.iterdir()) == []


def test_existing_output_is_refused(tmp_path, schema):
    (tmp_path / "ds").mkdir()
    with pytest.raises(DatasetError, match="already exists"):
        DatasetWriter(tmp_path / "ds", schema)


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda p: (p / MANIFEST).unlink(), "has no manifest.json"),
        (lambda p: (p / MANIFEST).write_text("{not json"), "unreadable"),
        (
            lambda p: (p / MANIFEST).write_text(json.dumps({"format": "other"})),
            "not a crmarena-sf-dataset manifest",
        ),
        (lambda p: (p / "Issue__c.parquet").unlink(), "incomplete: Issue__c.parquet is missing"),
    ],
)
def test_a_damaged_dataset_is_reported_clearly(tmp_path, schema, damage, message):
    path = write_issues(tmp_path / "ds", schema)
    damage(path)
    with pytest.raises(DatasetError, match=message):
        Dataset(path)


def test_validator_reports_each_kind_of_problem(tmp_path, schema):
    long_name = "x" * 81
    path = write_issues(
        tmp_path / "ds",
        schema,
        names=("Fine", long_name),
        OwnerId="CASE WHEN n = 1 THEN sfid('005', 999) ELSE '001Em0000000001IAA' END",
        CreatedDate="TIMESTAMP '2020-01-01'",
    )
    problems = validate_dataset(path, schema)
    assert any(p.startswith("Issue__c.Name: 1 row(s) is longer than 80 characters") for p in problems), (
        problems
    )
    assert any("Issue__c.OwnerId: 1 row(s) is not an Id of Group/User" in p for p in problems), problems
    assert any("Issue__c.OwnerId: 1 row(s) points at records that do not exist" in p for p in problems), (
        problems
    )
