"""The search index follows every write: insert, update, delete, undelete, bulk load, forks, reopened files."""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import sosl
from crmarena_sf.emulator.sosl import index
from crmarena_sf.emulator.store.dml import write_rows
from crmarena_sf.emulator.store.org import Org


def names(org: Org, term: str, obj: str = "Product2") -> list[str]:
    return [
        r["Name"]
        for r in sosl.search(org, f"FIND {{{term}}} RETURNING {obj}(Name ORDER BY Name)")["searchRecords"]
    ]


@pytest.fixture
def org():
    org = Org.new()
    org.insert("Product2", {"Name": "Alpine Parka"})
    sosl.ensure_index(org)
    return org


def index_tables(org: Org) -> set[str]:
    return {name for name in org.table_names() if name.startswith("_sf_search")}


def test_an_org_without_searches_has_no_index_and_writes_ignore_it():
    org = Org.new()
    org.insert("Product2", {"Name": "Alpine Parka"})
    assert index_tables(org) == set()
    assert names(org, "parka") == ["Alpine Parka"]  # built on the first search
    assert "_sf_search_tokens_Product2" in index_tables(org)


def test_insert_update_delete_undelete(org):
    record = org.insert("Product2", {"Name": "Glacier Boots"})
    assert names(org, "glacier") == ["Glacier Boots"]
    org.update("Product2", record, {"Name": "Summit Boots"})
    assert names(org, "glacier") == []
    assert names(org, "summit") == ["Summit Boots"]
    org.delete("Product2", record)
    assert names(org, "summit") == []
    org.undelete("Product2", record)
    assert names(org, "summit") == ["Summit Boots"]


def test_an_update_of_other_fields_keeps_the_record_findable(org):
    record = org.insert("Product2", {"Name": "Glacier Boots", "Description": "warm"})
    org.update("Product2", record, {"IsActive": True})
    assert names(org, "glacier warm") == ["Glacier Boots"]


def test_cascading_deletes_leave_the_index_too(org):
    account = org.insert("Account", {"Name": "Cascade Outfitters"})
    org.insert("Contact", {"LastName": "Cascader", "AccountId": account})
    cascades = any(
        r.cascadeDelete and r.childSObject == "Contact" for r in org.schema.get("Account").childRelationships
    )
    org.delete("Account", account)
    assert names(org, "cascade*", "Account") == []
    expected = [] if cascades else ["Cascader"]
    assert [
        r["LastName"]
        for r in sosl.search(org, "FIND {cascader} RETURNING Contact(LastName)")["searchRecords"]
    ] == expected


def test_a_rolled_back_write_leaves_no_trace_in_the_index(org):
    with pytest.raises(RuntimeError), org.transaction():
        org.insert("Product2", {"Name": "Phantom Jacket"})
        raise RuntimeError("abandon")
    assert names(org, "phantom") == []
    results = org.insert_many("Product2", [{"Name": "Real Jacket"}, {"Description": "no name"}])
    assert isinstance(results[1], Exception)
    assert names(org, "jacket") == ["Real Jacket"]


def test_a_bulk_load_rebuilds_the_object(org):
    """loaders.load notifies kind "load" with no Ids after writing rows directly."""
    obj = org.schema.get("Product2")
    row = {"Id": "01tEm00000000ZZIAA", "Name": "Loaded Lantern", "IsDeleted": False}
    with org.transaction():
        org.before_write("Product2")
        write_rows(org, obj, [row])
        org.notify("Product2", [], index.LOAD_KIND)
    assert names(org, "lantern") == ["Loaded Lantern"]


def test_a_fork_inherits_the_index_without_rebuilding(org, monkeypatch):
    fork = org.fork()
    monkeypatch.setattr(index, "build_objects", lambda *a, **k: pytest.fail("a fork rebuilt its index"))
    assert names(fork, "parka") == ["Alpine Parka"]
    assert (
        fork.table_sql("_sf_search_tokens_Product2") != '"_sf_search_tokens_Product2"'
    )  # still the parent's table


def test_writes_stay_on_their_side_of_a_fork(org):
    fork = org.fork()
    fork.insert("Product2", {"Name": "Fork Only Parka"})
    org.insert("Product2", {"Name": "Parent Only Parka"})
    assert names(fork, "parka") == ["Alpine Parka", "Fork Only Parka"]
    assert names(org, "parka") == ["Alpine Parka", "Parent Only Parka"]
    grandchild = fork.fork()
    grandchild.delete("Product2", grandchild.insert("Product2", {"Name": "Short Lived Parka"}))
    assert names(grandchild, "parka") == ["Alpine Parka", "Fork Only Parka"]
    assert names(fork, "parka") == ["Alpine Parka", "Fork Only Parka"]


def test_a_fork_made_before_the_first_search_builds_its_own(tmp_path):
    parent = Org.new()
    parent.insert("Product2", {"Name": "Alpine Parka"})
    fork = parent.fork()
    fork.insert("Product2", {"Name": "Fork Parka"})
    assert names(fork, "parka") == ["Alpine Parka", "Fork Parka"]
    assert index_tables(parent) == set()


def test_a_reopened_org_keeps_its_index_and_catches_up_on_later_writes(org, tmp_path, monkeypatch):
    org.insert("Product2", {"Name": "Saved Parka"})
    path = tmp_path / "org.duckdb"
    org.save(path, index=False)  # the index as it was in memory, written since it was built
    reopened = Org.open(path)
    built = []
    real_build = index.build_objects
    monkeypatch.setattr(
        index, "build_objects", lambda o, objs: (built.extend(x.name for x in objs), real_build(o, objs))
    )
    assert names(reopened, "parka") == ["Alpine Parka", "Saved Parka"]
    assert "Product2" in built  # written after its index was built: checked and rebuilt
    built.clear()

    reopened.insert("Product2", {"Name": "Later Parka"})  # kept current by the listener now
    assert names(reopened, "parka") == ["Alpine Parka", "Later Parka", "Saved Parka"]
    assert built == []
    reopened.close()

    again = Org.open(path)
    again.insert("Product2", {"Name": "Unseen Parka"})  # written before any search: no listener yet
    assert names(again, "parka") == ["Alpine Parka", "Later Parka", "Saved Parka", "Unseen Parka"]
    again.close()


def test_a_saved_org_file_holds_an_up_to_date_index(org, tmp_path, monkeypatch):
    org.insert("Product2", {"Name": "Saved Parka"})  # written after the index was built
    path = tmp_path / "org.duckdb"
    org.save(path)
    monkeypatch.setattr(index, "build_objects", lambda *a, **k: pytest.fail("a saved org was re-indexed"))
    with Org.open(path, read_only=True) as reader:  # a reader could not store an index in the file
        assert names(reader, "parka") == ["Alpine Parka", "Saved Parka"]


def test_an_org_never_searched_still_writes_an_index_into_the_file_it_is_saved_to(tmp_path, monkeypatch):
    """The store announces "file written"; the search index, subscribed for every org, writes itself in."""
    never_searched = Org.new()
    never_searched.insert("Product2", {"Name": "Alpine Parka"})
    assert index_tables(never_searched) == set()
    path = tmp_path / "org.duckdb"
    never_searched.save(path)
    monkeypatch.setattr(index, "build_objects", lambda *a, **k: pytest.fail("a saved org was re-indexed"))
    with Org.open(path, read_only=True) as reader:  # a reader could not store an index in the file
        assert names(reader, "parka") == ["Alpine Parka"]


def test_a_fork_of_a_read_only_org_with_an_outdated_index_rebuilds_it_in_memory(org, tmp_path):
    org.insert("Product2", {"Name": "Saved Parka"})
    path = tmp_path / "org.duckdb"
    org.save(path, index=False)  # its index is older than its last write
    before = path.read_bytes()
    with Org.open(path, read_only=True) as reader:
        assert names(reader.fork(), "parka") == ["Alpine Parka", "Saved Parka"]
    assert path.read_bytes() == before


def test_an_unchanged_reopened_org_is_not_rebuilt(tmp_path, monkeypatch):
    org = Org.new()
    org.insert("Product2", {"Name": "Alpine Parka"})
    sosl.ensure_index(org)
    path = tmp_path / "org.duckdb"
    org.save(path)
    reopened = Org.open(path)
    monkeypatch.setattr(index, "build_objects", lambda *a, **k: pytest.fail("an unchanged org was rebuilt"))
    assert names(reopened, "parka") == ["Alpine Parka"]
    reopened.close()


def test_rich_text_updates_are_reindexed_without_markup(org):
    record = org.insert(
        "Knowledge__kav",
        {"Title": "Care Guide", "UrlName": "care-guide", "FAQ_Answer__c": "<p>wash cold</p>"},
    )
    org.update("Knowledge__kav", record, {"FAQ_Answer__c": "<p>tumble&nbsp;dry &amp; iron</p>"})
    found = sosl.search(org, "FIND {tumble dry} RETURNING Knowledge__kav(Title)")["searchRecords"]
    assert [r["Title"] for r in found] == ["Care Guide"]
    assert sosl.search(org, "FIND {nbsp OR wash} RETURNING Knowledge__kav(Title)")["searchRecords"] == []
