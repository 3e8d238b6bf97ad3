"""Org files and dataset directories behind ``connect()``: private copies, ``writable=True``, several processes.

Every ``connect(org=FILE)`` or ``connect(org=DIR)`` gets its own copy-on-write fork, so writes
reach neither another connection nor another process nor the file; ``writable=True`` writes
into the file. DuckDB lets many processes read a file or one write it, never both
(https://duckdb.org/docs/current/connect/concurrency): readers coexist with a server and with
an idle writable connection, and where a lock really blocks, the message says who holds it.
"""

from __future__ import annotations

import gc
import hashlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from crmarena_sf.emulator import sosl
from crmarena_sf.emulator.sosl import index
from crmarena_sf.emulator.store import files
from crmarena_sf.emulator.store.org import Org
from simple_salesforce.exceptions import SalesforceMalformedRequest

from crmarena_sf import connect
from crmarena_sf.cli.main import main
from crmarena_sf.connection.connect import emulated_org
from crmarena_sf.connection.orgs import OrgInUse, OrgNotFound

CLI = [sys.executable, "-m", "crmarena_sf.cli.main"]


@pytest.fixture(scope="module")
def loaded_file(tmp_path_factory, tiny_dataset) -> Path:
    """The session's tiny dataset loaded by ``crmarena-sf load`` into an org file (tests use copies)."""
    path = tmp_path_factory.mktemp("orgfile") / "crm.duckdb"
    assert main(["load", str(tiny_dataset), "--org", str(path), "--quiet"]) == 0
    return path


@pytest.fixture
def org_file(loaded_file, tmp_path) -> Path:
    """A test's own copy of the loaded org file."""
    return Path(shutil.copy(loaded_file, tmp_path / "crm.duckdb"))


@pytest.fixture
def short_lock_wait(monkeypatch):
    """Give up on a held lock after 0.3 s instead of Salesforce's 10 s."""
    monkeypatch.setattr(files, "LOCK_WAIT_SECONDS", 0.3)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def cli(*args: str, lock_wait: float | None = None) -> subprocess.CompletedProcess:
    """``crmarena-sf ARGS`` in a new process (``lock_wait`` shortens its wait for a held lock)."""
    if lock_wait is None:
        command = [*CLI, *args]
    else:
        code = (
            "import sys; import emulator.store.files as f; f.LOCK_WAIT_SECONDS = float(sys.argv[1]); "
            "from crmarena_sf.cli.main import main; sys.exit(main(sys.argv[2:]))"
        )
        command = [sys.executable, "-c", code, str(lock_wait), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def count(sf, subject: str) -> int:
    return sf.query(f"SELECT COUNT() FROM Case WHERE Subject = '{subject}'")["totalSize"]


# ---------------------------------------------------------------------------- private copies
def test_each_connection_to_an_org_file_gets_a_private_copy_and_the_file_never_changes(org_file):
    before = digest(org_file)
    first, second = connect(org=str(org_file)), connect(org=str(org_file))
    first.Case.create({"Subject": "Only in the first connection"})
    assert count(first, "Only in the first connection") == 1
    assert count(second, "Only in the first connection") == 0
    other_process = cli("query", "--org", str(org_file), "SELECT Id FROM Case WHERE Subject LIKE 'Only in%'")
    assert other_process.returncode == 0, other_process.stderr
    assert other_process.stdout.strip() == "(0 records)"
    assert first.search("FIND {first connection} RETURNING Case(Subject)")["searchRecords"]
    assert digest(org_file) == before


def test_a_dataset_directory_is_loaded_once_per_process_and_each_connection_forks_it(
    tiny_dataset, tmp_path, monkeypatch
):
    from crmarena_sf.loaders import load as loader

    dataset = Path(shutil.copytree(tiny_dataset, tmp_path / "ds"))
    loads = []
    real_load = loader.load_dataset
    monkeypatch.setattr(loader, "load_dataset", lambda *a, **k: loads.append(a) or real_load(*a, **k))
    first, second = connect(org=str(dataset)), connect(org=str(dataset))
    assert len(loads) == 1
    first.Case.create({"Subject": "Only in the first connection"})
    assert count(second, "Only in the first connection") == 0
    assert count(connect(org=str(dataset)), "Only in the first connection") == 0
    with pytest.raises(OrgNotFound, match="never written.*crmarena-sf load"):
        connect(org=str(dataset), writable=True)


def test_writable_is_only_for_org_files():
    with pytest.raises(OrgNotFound, match="writes into an org file.*'blank'"):
        connect(org="blank", writable=True)


# ---------------------------------------------------------------------------- writing into the file
def test_a_writable_connection_writes_into_the_file_and_keeps_its_search_index_current(org_file, monkeypatch):
    writer = connect(org=str(org_file), writable=True)
    writer.Case.create({"Subject": "Written into the file"})
    reader = cli(
        "query", "--org", str(org_file), "SELECT Subject FROM Case WHERE Subject = 'Written into the file'"
    )
    assert reader.returncode == 0 and "(1 record)" in reader.stdout, reader.stderr  # while the writer is open

    in_process = connect(org=str(org_file))  # a fork of the writable org: this process cannot attach it twice
    in_process.Case.create({"Subject": "Only in the fork"})
    writer.Case.create({"Subject": "Written later"})
    assert count(in_process, "Written later") == 0 and count(writer, "Only in the fork") == 0

    emulated_org(writer).close()
    monkeypatch.setattr(index, "build_objects", lambda *a, **k: pytest.fail("the file's index was rebuilt"))
    with Org.open(org_file, read_only=True) as reopened:
        found = sosl.search(reopened, "FIND {written} RETURNING Case(Subject ORDER BY Subject)")
        assert [r["Subject"] for r in found["searchRecords"]] == ["Written into the file", "Written later"]


def test_writable_waits_for_this_process_to_drop_its_read_only_copies(org_file):
    reader = connect(org=str(org_file))
    with pytest.raises(OrgInUse, match="in use by this process .1 read-only connection made by connect"):
        connect(org=str(org_file), writable=True)
    del reader
    gc.collect()
    writer = connect(org=str(org_file), writable=True)
    writer.Case.create({"Subject": "Written after the reader left"})
    assert count(writer, "Written after the reader left") == 1


# ---------------------------------------------------------------------------- several processes
def start_server(org_file: Path) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen(
        [*CLI, "serve", "--org", str(org_file), "--port", "0", "--http"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    instance_url = server.stdout.readline().strip().partition(": ")[2]
    assert instance_url.startswith("http://127.0.0.1:"), (
        server.stderr.read() if server.poll() else instance_url
    )
    return server, instance_url


def stop(server: subprocess.Popen) -> None:
    server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()


def test_readers_share_a_served_file_and_a_writer_is_told_who_holds_it(org_file, short_lock_wait):
    writer = connect(org=str(org_file), writable=True)
    writer.Case.create({"Subject": "Before the server"})
    server, _ = start_server(org_file)  # reads the file while the writable connection is open
    try:
        reader = cli(
            "query", "--org", str(org_file), "SELECT COUNT() FROM Case WHERE Subject = 'Before the server'"
        )
        assert reader.returncode == 0 and reader.stdout.strip() == "(1 record)", reader.stderr

        with pytest.raises(SalesforceMalformedRequest) as refused:  # the write would change the served file
            writer.Case.create({"Subject": "While served"})
        error = refused.value.content[0]
        assert error["errorCode"] == "UNABLE_TO_LOCK_ROW"
        assert f"is in use by another process (PID {server.pid}: " in error["message"]
        assert "serve --org" in error["message"]

        emulated_org(writer).close()
        with pytest.raises(OrgInUse, match=rf"in use by another process \(PID {server.pid}: .*serve --org"):
            connect(org=str(org_file), writable=True)
    finally:
        stop(server)
    again = connect(org=str(org_file), writable=True)
    again.Case.create({"Subject": "After the server"})
    assert count(again, "While served") == 0 and count(again, "After the server") == 1


def test_a_reader_blocked_by_a_writing_process_says_the_file_is_in_use(org_file):
    holder = duckdb.connect(str(org_file))  # e.g. the duckdb CLI with the file open for writing
    try:
        blocked = cli("query", "--org", str(org_file), "SELECT COUNT() FROM Case", lock_wait=0.2)
    finally:
        holder.close()
    assert blocked.returncode == 2
    assert f"is in use by another process (PID {os.getpid()}: " in blocked.stderr
    assert "not a crmarena-sf org file" not in blocked.stderr and "Traceback" not in blocked.stderr


# ---------------------------------------------------------------------------- the search index
def test_crmarena_sf_load_writes_the_search_index_into_the_file(loaded_file, monkeypatch):
    monkeypatch.setattr(
        index, "build_objects", lambda *a, **k: pytest.fail("a loaded org file was re-indexed")
    )
    sf = connect(org=str(loaded_file))
    assert sf.search("FIND {shipping} RETURNING Knowledge__kav(Title)")["searchRecords"]


def test_searching_an_org_file_without_an_index_leaves_the_file_as_it_was(tmp_path):
    path = tmp_path / "unindexed.duckdb"
    with Org.new(path=path) as org:  # written without a search index
        org.insert("Product2", {"Name": "Alpine Parka"})
    assert "_sf_search_meta" not in Org.open(path, read_only=True).table_names()
    before, modified = digest(path), path.stat().st_mtime_ns

    found = connect(org=str(path)).search("FIND {parka} RETURNING Product2(Name)")["searchRecords"]
    assert [r["Name"] for r in found] == ["Alpine Parka"]
    other_process = cli("search", "--org", str(path), "FIND {parka} RETURNING Product2(Name)")
    assert other_process.returncode == 0 and "Alpine Parka" in other_process.stdout, other_process.stderr
    assert digest(path) == before and path.stat().st_mtime_ns == modified
