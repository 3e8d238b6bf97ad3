"""SOQL from several threads at once (the benchmark runner's --workers, a threaded serve): every query parses.

A shared tokenizer once garbled concurrent queries into MALFORMED_QUERY ("unexpected token"),
and the plan cache then kept the error for that query text for good.
"""

from __future__ import annotations

import sys
import threading

from crmarena_sf.emulator import Org, soql


def test_concurrent_queries_never_garble_each_other():
    org = Org.new()
    org.insert("Account", {"Name": "Acme"})
    failures: list[str] = []

    def worker(n: int) -> None:
        fork = org.fork()
        try:
            for i in range(60):
                values = ", ".join(f"'name {n} {i} {k}'" for k in range(60))
                text = f"SELECT Id, Name FROM Account WHERE Name IN ({values}) OR Name = 'Acme' ORDER BY Name LIMIT {i + 1}"
                try:
                    assert soql.query(fork, text)["totalSize"] == 1
                except Exception as exc:  # noqa: BLE001 - any failure is what this test looks for
                    failures.append(f"{type(exc).__name__}: {exc}")
        finally:
            fork.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often, as a loaded machine does
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
