"""Many threads on one org and on its forks, from a cold org: every answer as in a serial run, no 500s,
no lost or doubled writes.

Parallel episodes once raced on the DuckDB cursor of a freshly opened org file (its first
query's recycle-bin check ran on the template's shared cursor without the template's lock):
DuckDB refused with "connection is busy with another call" and the runner scored the episode 0.
DuckDB allows one statement at a time per connection and asks each thread to use a cursor of
its own ("Concurrency", https://duckdb.org/docs/stable/connect/concurrency; "Multiple Python
Threads", https://duckdb.org/docs/stable/guides/python/multiple_threads).

Every test starts cold: a copy of the org file this process never opened, so the template,
its plan caches and recycle-bin answers are built while the threads race. The whole session
also runs with ``CRMARENA_SF_CHECK_THREADS=1`` (tests/conftest.py), which makes any thread that
takes an org's cursor without its lock fail at once.
"""

from __future__ import annotations

import concurrent.futures as futures
import json
import shutil
import subprocess
import sys
import threading

import pytest
from crmarena_sf.loaders.load import load_dataset
from serving import served
from simple_salesforce import Salesforce

import crmarena_sf
from crmarena_sf.cli.main import main
from crmarena_sf.connection.connect import emulated_org

THREAD_COUNTS = [2, 4, 8]


@pytest.fixture(scope="module")
def org_file(tiny_dataset, tmp_path_factory):
    """The tiny org saved as an org file (indexed for search), never opened by this process since."""
    path = tmp_path_factory.mktemp("concurrency") / "tiny.duckdb"
    org = load_dataset(tiny_dataset)
    org.save(path)
    org.close()
    return path


@pytest.fixture
def cold_org_file(org_file, tmp_path):
    """A copy of the org file at a path this process has not opened: its template is built cold."""
    path = tmp_path / "cold.duckdb"
    shutil.copyfile(org_file, path)
    return path


def episode(sf: Salesforce, n: int, undelete=None) -> list:
    """What one episode does (read, search, write, delete, undelete) and every answer it got, in order."""
    answers = [
        sf.query("SELECT Id, Name, (SELECT Id FROM Cases ORDER BY Id) FROM Account ORDER BY Id LIMIT 5")[
            "records"
        ],
        sf.query("SELECT Status, COUNT(Id) n FROM Case GROUP BY Status ORDER BY Status")["records"],
        sf.query_all("SELECT Id, Subject, Priority FROM Case ORDER BY CreatedDate, Id")["totalSize"],
        sf.search("FIND {Account} RETURNING Account(Name ORDER BY Name LIMIT 3)")["searchRecords"],
    ]
    created = sf.Account.create({"Name": f"Concurrency {n}", "Phone": "555-0100"})["id"]
    sf.Account.update(created, {"Phone": f"555-{n:04d}"})
    answers.append(sf.Account.get(created)["Phone"])
    answers.append(sf.query(f"SELECT COUNT() FROM Account WHERE Name = 'Concurrency {n}'")["totalSize"])
    sf.Account.delete(created)
    answers.append(sf.query(f"SELECT COUNT() FROM Account WHERE Id = '{created}'")["totalSize"])
    deleted = sf.query_all(f"SELECT IsDeleted FROM Account WHERE Id = '{created}'", include_deleted=True)
    answers.append([r["IsDeleted"] for r in deleted["records"]])
    if undelete is not None:
        undelete("Account", created)
        answers.append(
            [r["Phone"] for r in sf.query(f"SELECT Phone FROM Account WHERE Id = '{created}'")["records"]]
        )
    return answers


def run_threads(count: int, job) -> list:
    """``job(n)`` for n in range(count), all at once, switching threads often as a loaded machine does."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    barrier = threading.Barrier(count)

    def start(n):
        barrier.wait()
        return job(n)

    try:
        with futures.ThreadPoolExecutor(count) as pool:
            return list(pool.map(start, range(count)))
    finally:
        sys.setswitchinterval(interval)


@pytest.mark.parametrize("threads", THREAD_COUNTS)
def test_forks_of_a_cold_org_file_answer_as_a_serial_run(cold_org_file, threads):
    def job(n):
        sf = crmarena_sf.connect(org=cold_org_file)  # each call: a private fork of the process's template
        org = emulated_org(sf)
        try:
            return episode(sf, n % 2, undelete=org.undelete)
        finally:
            org.close()

    parallel = run_threads(threads, job)
    serial = [job(n) for n in range(threads)]
    assert parallel == serial


@pytest.mark.parametrize("threads", THREAD_COUNTS)
def test_threads_sharing_one_org_lose_and_double_no_write(cold_org_file, threads):
    sf0 = crmarena_sf.connect(org=cold_org_file)
    shared = emulated_org(sf0)
    before = sf0.query("SELECT COUNT() FROM Account")["totalSize"]

    def job(n):
        sf = crmarena_sf.connect(org=shared)  # every thread on the same org
        mine = [sf.Contact.create({"LastName": f"Writer {n}-{i}"})["id"] for i in range(5)]
        for record_id in mine[:2]:
            sf.Contact.update(record_id, {"Title": f"updated by {n}"})
        sf.Contact.delete(mine[4])
        shared.undelete("Contact", mine[4])
        sf.Contact.delete(mine[3])
        return episode(sf, 1000 + n, undelete=shared.undelete), mine

    results = run_threads(threads, job)
    for n, (answers, mine) in enumerate(results):
        rows = sf0.query_all(
            f"SELECT Id, Title FROM Contact WHERE LastName LIKE 'Writer {n}-%' ORDER BY LastName"
        )["records"]
        assert [r["Id"] for r in rows] == [mine[0], mine[1], mine[2], mine[4]]
        assert [r["Title"] for r in rows] == [f"updated by {n}"] * 2 + [None, None]
        assert answers[4] == f"555-{1000 + n:04d}" and answers[5] == 1  # its own account, once
    total = sf0.query("SELECT COUNT() FROM Account")["totalSize"]
    assert total == before + threads  # every thread's undeleted account, none twice
    ids = [r["Id"] for r in sf0.query_all("SELECT Id FROM Contact")["records"]]
    assert len(ids) == len(set(ids))


@pytest.fixture
def served_org(cold_org_file, tmp_path):
    """``crmarena-sf serve`` of the cold org file, in a process of its own."""
    with served(
        "--org", str(cold_org_file), "--session-id", "00DEm0000000001!concurrency", cert_dir=tmp_path
    ) as printed:
        yield printed["instance_url"], printed["certificate"], printed["session_id"]


@pytest.mark.parametrize("threads", [4, 8])
def test_serve_answers_parallel_https_clients_without_a_500(served_org, threads):
    url, cert, session_id = served_org

    def client():
        return crmarena_sf.connect(
            backend="salesforce", instance_url=url, session_id=session_id, verify=cert, env_file=None
        )

    def job(n):
        return episode(client(), 2000 + n)

    answers = run_threads(threads, job)
    for n, got in enumerate(answers):
        assert got == episode(client(), 3000 + n)[:4] + got[4:]  # the reads agree with a later serial run
        assert got[4] == f"555-{2000 + n:04d}" and got[5] == 1 and got[6] == 0
    sf = client()
    names = [
        r["Name"] for r in sf.query_all("SELECT Name FROM Account WHERE Name LIKE 'Concurrency %'")["records"]
    ]
    assert names == []  # every one deleted, none left half-written


@pytest.fixture(scope="module")
def task_file(org_file, tmp_path_factory):
    path = tmp_path_factory.mktemp("concurrency-tasks") / "tasks.jsonl"
    assert (
        main(["tasks", "build", "--org", str(org_file), "--per-task", "3", "--out", str(path), "--quiet"])
        == 0
    )
    return path


@pytest.mark.parametrize(("parallel", "workers"), [("threads", 4), ("threads", 8), ("processes", 4)])
def test_run_with_workers_and_a_task_file_on_a_cold_org_scores_100(
    cold_org_file, task_file, tmp_path, parallel, workers
):
    out = tmp_path / "results.json"
    command = [
        sys.executable, "-m", "crmarena_sf.cli.main", "run", "--agent", "reference",
        "--tasks", str(task_file), "--org", str(cold_org_file), "--workers", str(workers),
        "--parallel", parallel, "--out", str(out), "--quiet",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    body = json.loads(out.read_text())
    assert [e for e in body["episodes"] if e.get("error")] == []
    assert body["overall"] == 100.0
