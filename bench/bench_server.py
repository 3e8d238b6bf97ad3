"""REST API: in-process call overhead and the HTTPS server under 8 concurrent clients (issue 4).

The load test runs 8 simple-salesforce clients over loopback HTTPS against one org, mixing
reads (record GET, SOQL by Id) and writes (create, update); it reports throughput and checks
that no request failed and no write was lost. Throughput is reported, not asserted.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time

import requests
from simple_salesforce import Salesforce

from bench import Measurement, median_ms, under
from crmarena_sf import connect
from crmarena_sf.connect import emulated_org
from emulator.rest.router import Router
from emulator.rest.server import serve
from emulator.store.org import Org

CLIENTS = 8


def _client(instance_url: str, session_id: str, cert: str) -> Salesforce:
    session = requests.Session()
    session.trust_env = False
    session.verify = cert
    return Salesforce(instance_url=instance_url, session_id=session_id, session=session)


def _load_test(operations: int) -> list[Measurement]:
    org = Org.new()
    seed_ids = org.insert_many("Account", [{"Name": f"Seed {i}"} for i in range(50)])
    router = Router(org)
    session_id = router.issue_session()
    with tempfile.TemporaryDirectory() as cert_dir:
        server, cert = serve(router, "127.0.0.1", 0, cert_dir=cert_dir)
        server.start_background()
        created: list[list[str]] = [[] for _ in range(CLIENTS)]
        updated: list[dict[str, str]] = [{} for _ in range(CLIENTS)]
        latencies: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()

        def work(number: int) -> None:
            sf = _client(server.instance_url, session_id, str(cert))
            mine: list[float] = []
            try:
                for i in range(operations):
                    start = time.perf_counter()
                    kind = i % 10
                    if kind < 3:
                        created[number].append(sf.Account.create({"Name": f"c{number}-{i}"})["id"])
                    elif kind < 5 and created[number]:
                        target = created[number][-1]
                        sf.Account.update(target, {"Description": f"{number}-{i}"})
                        updated[number][target] = f"{number}-{i}"
                    elif kind < 8:
                        sf.Account.get(seed_ids[(number * 7 + i) % len(seed_ids)])
                    else:
                        sf.query(f"SELECT Id, Name FROM Account WHERE Id = '{seed_ids[i % len(seed_ids)]}'")
                    mine.append((time.perf_counter() - start) * 1000)
            except Exception as exc:  # reported as a measurement, never raised
                with lock:
                    errors.append(f"client {number}: {exc}")
            with lock:
                latencies.extend(mine)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(CLIENTS)]
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - began
        server.stop()
    lost = 0
    for number in range(CLIENTS):
        for record_id in created[number]:
            try:
                org.get("Account", record_id, ["Id"])
            except Exception:
                lost += 1
        for record_id, value in updated[number].items():
            if org.get("Account", record_id, ["Description"])["Description"] != value:
                lost += 1
    note = f"{CLIENTS} clients x {operations} mixed calls over loopback HTTPS"
    return [
        Measurement("server", "load test throughput", round(len(latencies) / elapsed, 1), "req/s", note=note),
        Measurement(
            "server",
            "load test median latency",
            round(statistics.median(latencies), 2) if latencies else 0,
            "ms",
            note=note,
        ),
        Measurement(
            "server",
            "load test failed requests + lost writes",
            len(errors) + lost,
            "count",
            "= 0",
            not errors and lost == 0,
            "; ".join(errors[:3]),
        ),
    ]


def _in_process(repeat: int) -> list[Measurement]:
    sf = connect("blank")
    org = emulated_org(sf)
    record_id = org.insert("Account", {"Name": "Bench"})
    rest_times, store_times, overheads = [], [], []
    for _ in range(repeat):  # interleaved, so load from elsewhere on the machine hits both alike
        start = time.perf_counter()
        sf.Account.get(record_id)
        middle = time.perf_counter()
        org.get("Account", record_id)
        end = time.perf_counter()
        rest_times.append((middle - start) * 1000)
        store_times.append((end - middle) * 1000)
        overheads.append(rest_times[-1] - store_times[-1])
    rest_get, store_get = statistics.median(rest_times), statistics.median(store_times)
    return [
        under("rest", "in-process call, no store work (GET limits)", median_ms(sf.limits, repeat), 1.5),
        Measurement(
            "rest",
            "record GET: REST + client overhead over the store's get",
            round(statistics.median(overheads), 3),
            "ms",
            note=f"REST GET {rest_get:.2f} ms, store get {store_get:.2f} ms",
        ),
    ]


def run(quick: bool = False) -> list[Measurement]:
    return _in_process(20 if quick else 200) + _load_test(25 if quick else 200)
