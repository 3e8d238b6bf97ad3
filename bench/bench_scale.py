"""Cost that must not grow with the org: the default org and a `--scale 100` org side by side (issue 14).

Salesforce's own indexes keep lookups by Id, lookup and master-detail fields, external ids,
Name and audit dates flat however large the org; search is indexed too. Each query runs
through simple-salesforce in-process on both orgs (the scaled one: 97,700 cases, 4.2 M
records, built once into the cache by :mod:`bench.scale_org`). Target: indexed lookups and
SOSL at `--scale 100` within 1.5x of their default-org time, SOSL under 5 ms there too; a
GROUP BY over every case is reported alongside (it scans, on Salesforce too).
"""

from __future__ import annotations

import statistics
import time

from bench import Measurement

TARGET_RATIO = 1.5
TARGET_SOSL_MS = 5.0


def _median_ms(func, repeat: int) -> float:
    for _ in range(3):
        func()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def workload(org) -> list[tuple[str, str, str, bool]]:
    """(name, kind, statement, indexed) with values from ``org``: ``kind`` is ``soql`` or ``sosl``."""
    one = lambda sql: org.con.execute(sql).fetchone()  # noqa: E731
    case_id = one('SELECT "Id" FROM "Case" ORDER BY "Id" LIMIT 1')[0]
    email_case = one('SELECT "ParentId" FROM "EmailMessage" ORDER BY "Id" LIMIT 1')[0]
    return [
        ("lookup by Id", "soql", f"SELECT Id, Subject, Status, Priority, CreatedDate FROM Case WHERE Id = '{case_id}'", True),
        ("the emails of a case", "soql",
         f"SELECT Subject, TextBody, FromAddress, ToAddress, MessageDate FROM EmailMessage WHERE ParentId = '{email_case}'", True),
        ("a case with its parents", "soql",
         f"SELECT Subject, Account.Name, Contact.Name, Owner.Name FROM Case WHERE Id = '{case_id}'", True),
        ("SOSL: a product search", "sosl", "FIND {jacket} IN ALL FIELDS RETURNING Product2(Id, Name, Description)", True),
        ("GROUP BY over all cases", "soql", "SELECT Status, COUNT(Id) FROM Case GROUP BY Status", False),
    ]  # fmt: skip


def run(quick: bool = False) -> list[Measurement]:
    from bench.scale_org import scaled_org
    from crmarena_sf import connect
    from loaders.default_org import crmarena_org

    repeat = 15 if quick else 40
    small = crmarena_org(progress=False)
    large = scaled_org(100)
    clients = {"default": connect(small), "scale 100": connect(large)}
    rows: list[Measurement] = []
    large_workload = {name: (kind, text) for name, kind, text, _ in workload(large)}
    for name, kind, text, indexed in workload(small):
        times = {}
        for label, sf in clients.items():
            statement = text if label == "default" else large_workload[name][1]
            call = (
                (lambda sf=sf, s=statement: sf.query(s))
                if kind == "soql"
                else (lambda sf=sf, s=statement: sf.search(s))
            )
            times[label] = _median_ms(call, repeat)
        ratio = times["scale 100"] / times["default"]
        met = (
            ratio <= TARGET_RATIO and (kind != "sosl" or times["scale 100"] < TARGET_SOSL_MS)
            if indexed
            else None
        )
        target = (
            f"<= {TARGET_RATIO}" + (f", < {TARGET_SOSL_MS:g} ms" if kind == "sosl" else "") if indexed else ""
        )
        rows.append(
            Measurement(
                "scale",
                f"{name}: `--scale 100` / default org",
                round(ratio, 2),
                "x",
                target,
                met,
                f"default {times['default']:.3f} ms, scale 100 {times['scale 100']:.3f} ms",
            )
        )
    return rows


if __name__ == "__main__":
    for m in run(quick=True):
        print(f"{m.name:60s} {m.value:8.3f} {m.unit:3s} {m.target:18s} {m.note}")
