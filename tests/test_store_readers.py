"""Reads beside writes (emulator/store/readers.py): a thread inside ``Org.reading()`` reads one committed
snapshot on a cursor of its own, never waits for the writer, and never sees a write half done."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from crmarena_sf.emulator.store.org import Org

import crmarena_sf
from crmarena_sf.connection.connect import emulated_org


def accounts(org: Org) -> int:
    return org.con.execute('SELECT count(*) FROM "Account"').fetchone()[0]


def test_a_reader_neither_waits_for_nor_sees_a_write_in_progress():
    org = Org.new()
    org.insert("Account", {"Name": "Committed"})
    inside, release = threading.Event(), threading.Event()

    def writer() -> None:
        with org.transaction():
            org.insert("Account", {"Name": "Not yet"})
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=writer)
    thread.start()
    assert inside.wait(10)
    try:
        with org.reading():  # the writer holds the org's lock all along
            assert accounts(org) == 1
    finally:
        release.set()
        thread.join(10)
    with org.reading():
        assert accounts(org) == 2


def test_one_reading_block_is_one_snapshot():
    org = Org.new()
    org.insert("Account", {"Name": "First"})
    with org.reading():
        before = accounts(org)
        done = threading.Thread(target=lambda: org.insert("Account", {"Name": "Meanwhile"}))
        done.start()
        done.join(10)
        assert accounts(org) == before == 1
    assert accounts(org) == 2


def test_a_write_inside_a_reading_block_is_refused():
    org = Org.new()
    with org.reading(), pytest.raises(RuntimeError, match="write inside Org.reading"):
        org.insert("Account", {"Name": "Refused"})
    assert accounts(org) == 0


def test_a_writer_reading_sees_its_own_rows():
    org = Org.new()
    with org.transaction():
        org.insert("Account", {"Name": "Mine"})
        with org.reading():
            assert accounts(org) == 1


def test_forks_read_through_their_parent_and_their_own_copy():
    parent = Org.new()
    parent.insert("Account", {"Name": "Parent"})
    fork = parent.fork()
    with fork.reading():
        assert accounts(fork) == 1  # the parent's table, read through the search path
    fork.insert("Account", {"Name": "Fork"})  # the fork copies the table (copy-on-write)
    with fork.reading():
        assert accounts(fork) == 2
    with parent.reading():
        assert accounts(parent) == 1


def test_rest_reads_and_writes_from_many_threads_on_one_org():
    sf = crmarena_sf.connect("blank")
    org = emulated_org(sf)
    first = sf.Account.create({"Name": "Seed"})["id"]

    def client(number: int) -> list[int]:
        seen = []
        for i in range(15):
            sf.Account.create({"Name": f"c{number}-{i}"})
            sf.Account.update(first, {"Description": f"{number}-{i}"})
            seen.append(sf.query("SELECT COUNT() FROM Account")["totalSize"])
            assert sf.Account.get(first)["Name"] == "Seed"
            assert sf.Account.describe()["name"] == "Account"
        return seen

    with ThreadPoolExecutor(4) as pool:
        counts = list(pool.map(client, range(4)))
    assert all(a <= b for seen in counts for a, b in zip(seen, seen[1:]))  # never goes back
    assert org.count("Account") == 1 + 4 * 15
    assert sf.query("SELECT COUNT() FROM Account")["totalSize"] == 61
