"""The server's load test: ``crmarena-sf serve`` in its own process, N keep-alive HTTPS clients in theirs.

Each client is a simple-salesforce ``Salesforce`` (one ``requests`` session, so one kept-alive
TLS connection) in a process of its own, as independent clients are; the server is the
command users run, on the CRMArena org. Every client runs the same bounded loop: two reads
to one write, the reads cycling through a query by Id, a small query, a describe and a
record GET, the writes alternating between creating a Case and updating the Case it created
last. The clock starts when every client is connected and warmed up (a barrier), and stops
when the last one finishes; afterwards every created Case is looked up and every update
checked, so a lost write counts like a failed request.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

READS = ("query by Id", "small query", "describe", "record GET")
SMALL_QUERY = "SELECT Id, Name, ShippingState FROM Account WHERE ShippingState = 'CA' ORDER BY Name LIMIT 5"


@dataclass
class LoadResult:
    """One run: throughput over the timed window, latencies, failures and lost writes."""

    clients: int
    requests: int
    seconds: float
    latencies_ms: list[float]
    failures: list[str]
    lost_writes: int
    server_cpu_s: float | None = None
    """CPU time the server process used in the run (Linux), to tell server cost from machine load."""
    client_cpu_s: float = 0.0

    @property
    def throughput(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.latencies_ms) if self.latencies_ms else 0.0


class Server:
    """``crmarena-sf serve`` on a free loopback port, in a child process; a context manager."""

    def __init__(self, org: str = "crmarena") -> None:
        self.org = org
        self._certs = tempfile.TemporaryDirectory()
        self.process: subprocess.Popen | None = None
        self.printed: dict[str, str] = {}

    def __enter__(self) -> Server:
        command = [sys.executable, "-m", "crmarena_sf.cli.main", "serve", "--org", self.org, "--port", "0"]
        self.process = subprocess.Popen(
            [*command, "--cert-dir", self._certs.name],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        reader = threading.Thread(target=self._read, daemon=True)
        reader.start()
        reader.join(timeout=300)  # the first start may build the CRMArena org
        if "certificate" not in self.printed:
            self.__exit__()
            raise RuntimeError("crmarena-sf serve did not start")
        return self

    def _read(self) -> None:
        for _ in range(3):
            key, _, value = self.process.stdout.readline().rstrip("\n").partition(": ")
            self.printed[key] = value

    def __exit__(self, *exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._certs.cleanup()

    def client(self):
        from crmarena_sf import connect

        return connect(
            backend="salesforce",
            instance_url=self.printed["instance_url"],
            session_id=self.printed["session_id"],
            verify=self.printed["certificate"],
        )


def _client_main() -> None:
    """One client process (``python -m crmarena_sf.bench.server_load``): a job as JSON on stdin, ``ready``, then
    ``go`` on stdin starts the loop; the report is one JSON line on stdout."""
    from crmarena_sf import connect

    job = json.loads(sys.stdin.readline())
    printed, number, operations, case_ids = job["printed"], job["number"], job["operations"], job["case_ids"]
    sf = connect(
        backend="salesforce",
        instance_url=printed["instance_url"],
        session_id=printed["session_id"],
        verify=printed["certificate"],
    )
    sf.Case.describe()  # the TLS handshake and the first request happen before the clock starts
    latencies, failures, created, updated = [], [], [], {}
    print("ready", flush=True)
    sys.stdin.readline()
    started = time.monotonic()
    cpu = time.process_time()
    for i in range(operations):
        case_id = case_ids[(number * 7 + i) % len(case_ids)]
        begin = time.perf_counter()
        try:
            if i % 3 == 2:
                if (i // 3) % 2 == 0 or not created:
                    created.append(sf.Case.create({"Subject": f"load {number}-{i}", "Origin": "Web"})["id"])
                else:
                    subject = f"updated {number}-{i}"
                    sf.Case.update(created[-1], {"Subject": subject})
                    updated[created[-1]] = subject
            else:
                kind = READS[(i // 3 * 2 + i % 3) % len(READS)]
                if kind == "query by Id":
                    sf.query(f"SELECT Id, Subject, Status FROM Case WHERE Id = '{case_id}'")
                elif kind == "small query":
                    sf.query(SMALL_QUERY)
                elif kind == "describe":
                    sf.Case.describe()
                else:
                    sf.Case.get(case_id)
        except Exception as exc:  # a failure is a measurement, never a crash of the benchmark
            failures.append(f"client {number}: {type(exc).__name__}: {str(exc)[:200]}")
        latencies.append((time.perf_counter() - begin) * 1000)
    report = {
        "started": started,
        "ended": time.monotonic(),
        "cpu": time.process_time() - cpu,
        "latencies": latencies,
        "failures": failures,
        "created": created,
        "updated": updated,
    }
    print(json.dumps(report), flush=True)


def run_load(server: Server, clients: int, operations: int) -> LoadResult:
    """``clients`` processes of ``operations`` calls each against ``server``; a bounded run."""
    checker = server.client()
    case_ids = [r["Id"] for r in checker.query("SELECT Id FROM Case ORDER BY CaseNumber LIMIT 50")["records"]]
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "crmarena_sf.bench.server_load"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for _ in range(clients)
    ]
    try:
        for number, worker in enumerate(workers):
            job = {
                "printed": server.printed,
                "number": number,
                "operations": operations,
                "case_ids": case_ids,
            }
            worker.stdin.write(json.dumps(job) + "\n")
            worker.stdin.flush()
        for worker in workers:
            if worker.stdout.readline().strip() != "ready":
                raise RuntimeError("a load-test client could not connect")
        server_cpu = _cpu_seconds(server.process.pid)
        for worker in workers:  # every client is connected and warm: start them together
            worker.stdin.write("go\n")
            worker.stdin.flush()
        reports = [json.loads(worker.stdout.readline()) for worker in workers]
        if server_cpu is not None:
            server_cpu = _cpu_seconds(server.process.pid) - server_cpu
    finally:
        for worker in workers:
            try:
                worker.wait(timeout=60)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
    latencies = [ms for r in reports for ms in r["latencies"]]
    failures = [f for r in reports for f in r["failures"]]
    lost = _lost_writes(checker, [r["created"] for r in reports], [r["updated"] for r in reports])
    seconds = max(r["ended"] for r in reports) - min(r["started"] for r in reports)
    client_cpu = sum(r["cpu"] for r in reports)
    return LoadResult(clients, len(latencies), seconds, latencies, failures, lost, server_cpu, client_cpu)


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc; None elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _lost_writes(sf, created: list[list[str]], updated: list[dict[str, str]]) -> int:
    """Created Cases the server no longer has, and updates it does not show."""
    lost = 0
    wanted = [case_id for ids in created for case_id in ids]
    for start in range(0, len(wanted), 100):
        chunk = wanted[start : start + 100]
        quoted = ", ".join(f"'{case_id}'" for case_id in chunk)
        found = sf.query_all(f"SELECT Id, Subject FROM Case WHERE Id IN ({quoted})")["records"]
        subjects = {r["Id"]: r["Subject"] for r in found}
        lost += len(chunk) - len(subjects)
        for changes in updated:
            lost += sum(
                1
                for case_id, subject in changes.items()
                if case_id in subjects and subjects[case_id] != subject
            )
    return lost


if __name__ == "__main__":
    _client_main()
