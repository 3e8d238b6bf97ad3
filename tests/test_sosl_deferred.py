"""Writes in an in-memory org are indexed by the next search (emulator/sosl/index.py, "deferred"):
every search still sees every write before it, a write only notes its records."""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import sosl
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.sosl import index
from crmarena_sf.emulator.store.org import Org


def names(org: Org, term: str) -> list[str]:
    found = sosl.search(org, f"FIND {{{term}}} RETURNING Product2(Name ORDER BY Name)")["searchRecords"]
    return [r["Name"] for r in found]


def noted(org: Org) -> int:
    if index.PENDING_TABLE not in org.table_names():
        return 0
    return org.con.execute(f"SELECT count(*) FROM {org.table_sql(index.PENDING_TABLE)}").fetchone()[0]


@pytest.fixture
def org():
    org = Org.new()
    org.insert("Product2", {"Name": "Alpine Parka"})
    sosl.ensure_index(org)
    return org


def test_writes_are_noted_and_indexed_in_one_batch_by_the_next_search(org):
    tokens = org.con.execute('SELECT count(*) FROM "_sf_search_tokens_Product2"').fetchone()[0]
    first = org.insert("Product2", {"Name": "Glacier Boots"})
    org.update("Product2", first, {"Name": "Summit Boots"})
    org.insert("Product2", {"Name": "Glacier Gloves"})
    assert noted(org) == 3
    assert org.con.execute('SELECT count(*) FROM "_sf_search_tokens_Product2"').fetchone()[0] == tokens
    assert names(org, "glacier OR summit") == ["Glacier Gloves", "Summit Boots"]
    assert noted(org) == 0
    org.delete("Product2", first)
    assert names(org, "summit") == []


def test_a_failed_write_notes_nothing(org):
    with pytest.raises(SalesforceError):
        org.insert("Product2", {"Name": "Broken", "Family": 12, "NoSuchField": 1})
    with pytest.raises(RuntimeError), org.transaction():
        org.insert("Product2", {"Name": "Rolled Back Parka"})
        raise RuntimeError("the caller's transaction fails")
    assert noted(org) == 0
    assert names(org, "parka") == ["Alpine Parka"]


def test_a_fork_catches_up_on_its_parents_notes_for_itself(org):
    org.insert("Product2", {"Name": "Parent Parka"})
    fork = org.fork()
    fork.insert("Product2", {"Name": "Fork Parka"})
    assert names(fork, "parka") == ["Alpine Parka", "Fork Parka", "Parent Parka"]
    assert noted(org) == 1  # the parent's note stays the parent's until it searches
    assert names(org, "parka") == ["Alpine Parka", "Parent Parka"]


def test_an_org_file_is_indexed_at_each_write(tmp_path):
    path = tmp_path / "org.duckdb"
    Org.new(path=path).close()
    with Org.open(path) as org:
        sosl.ensure_index(org)
        org.insert("Product2", {"Name": "Written Parka"})
        assert index.PENDING_TABLE not in org.table_names()
        assert names(org, "parka") == ["Written Parka"]
