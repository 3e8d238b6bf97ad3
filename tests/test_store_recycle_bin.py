"""The recycle bin through forks of org files: a query leaves out the recycle-bin condition only where
a table cannot hold a deleted record (emulator/store/recycle_bin.py), and answers the same.

Deleted records stay queryable with queryAll and are invisible to query (REST API Developer
Guide, "QueryAll", https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_queryall.htm).
"""

from __future__ import annotations

import pytest
from crmarena_sf.loaders.load import load_dataset

from crmarena_sf import connect


@pytest.fixture(scope="module")
def org_files(tiny_dataset, tmp_path_factory):
    """(a file whose tables hold no deleted record, a file holding one deleted Case and its Id)."""
    folder = tmp_path_factory.mktemp("recycle")
    clean, dirty = folder / "clean.duckdb", folder / "dirty.duckdb"
    org = load_dataset(tiny_dataset)
    org.save(clean, index=False)
    sf = connect(org)
    deleted = sf.query("SELECT Id FROM Case ORDER BY Id LIMIT 1")["records"][0]["Id"]
    sf.Case.delete(deleted)
    org.save(dirty, index=False)
    org.close()
    return clean, dirty, deleted


def _case_ids(sf, all_rows=False):
    text = "SELECT Id FROM Case ORDER BY Id"
    return [r["Id"] for r in sf.query_all(text, include_deleted=all_rows)["records"]]


def test_a_deleted_record_in_the_file_stays_in_the_recycle_bin(org_files):
    clean, dirty, deleted = org_files
    live = _case_ids(connect(dirty))
    assert deleted not in live
    assert deleted in _case_ids(connect(dirty), all_rows=True)
    assert _case_ids(connect(clean)) == sorted([deleted, *live])


def test_a_record_deleted_in_a_fork_of_a_clean_file_leaves_its_queries(org_files):
    clean, _, _ = org_files
    sf = connect(clean)
    before = _case_ids(sf)
    sf.Case.delete(before[-1])
    assert _case_ids(sf) == before[:-1]
    assert _case_ids(sf, all_rows=True) == before
    count = sf.query("SELECT COUNT() FROM Case")["totalSize"]
    assert count == len(before) - 1
    account = sf.query(f"SELECT AccountId FROM Case WHERE Id = '{before[0]}'")["records"][0]["AccountId"]
    children = sf.query(f"SELECT (SELECT Id FROM Cases) FROM Account WHERE Id = '{account}'")["records"][0]
    assert before[-1] not in [r["Id"] for r in (children["Cases"] or {"records": []})["records"]]
    assert _case_ids(connect(clean)) == before  # the file and other forks keep it
