"""SOQL on the default CRMArena org, measured against two floors (issues 14 and 26).

For each query of :mod:`crmarena_sf.bench.soql_mix`, interleaved in the same loop so machine load
affects every side alike:

- the engine: ``sf.query(soql)`` through simple-salesforce, in-process (``crmarena_sf.connect``);
- the plain floor: the same query written by hand in SQL and run on a plain in-memory DuckDB
  database holding the same rows (:mod:`crmarena_sf.bench.plain_floor`: what a user who loads
  the rows into DuckDB gets), plus simple-salesforce's own cost for the same response body (a
  transport adapter that only returns those bytes);
- the org's floor: the same hand-written SQL on the org's own tables, plus the same client cost.

Targets, against the plain floor: each query's ratio engine / floor at most 1.6, the CRMArena
mix's geometric mean at most 1.3; the ratio to the org's floor is reported beside it. The
parts of one small query's cost per call are timed on their own (:mod:`crmarena_sf.bench.call_parts`).
The first run of a new query text (parse, bind, translate) is reported against the warm run
of the same query. simple-mockforce (the peer users compare with; optional, see README) is
timed on the queries it can answer, as a ratio to the engine.
"""

from __future__ import annotations

import io
import logging
import math
import statistics
import time

import requests
from requests.adapters import BaseAdapter

from crmarena_sf.bench import Measurement, call_parts
from crmarena_sf.bench.plain_floor import plain_copy, tables_read
from crmarena_sf.bench.soql_mix import BenchQuery, bench_queries
from crmarena_sf.emulator.soql.plans import clear_caches, plan_for
from crmarena_sf.emulator.wire import to_json
from crmarena_sf.metadata import API_VERSION

TARGET_EACH = 1.6
TARGET_MIX = 1.3
INSTANCE = "https://bench.my.salesforce.com"


def crmarena_org():
    """The default-size synthetic CRMArena org (977 cases, 2,983 history rows, 22,000 price book entries)."""
    from crmarena_sf.loaders.default_org import crmarena_org as default

    return default(progress=False)


class FixedBody(BaseAdapter):
    """Answers every request with the same JSON body: what simple-salesforce costs on its own."""

    def __init__(self, body: bytes) -> None:
        super().__init__()
        self.body = body

    def send(self, request, **kwargs):
        response = requests.Response()
        response.status_code = 200
        response.headers["Content-Type"] = "application/json;charset=UTF-8"
        response._content = self.body
        response._content_consumed = True
        response.raw = io.BytesIO(self.body)
        response.encoding = "utf-8"
        response.url = request.url
        response.request = request
        return response

    def close(self) -> None:
        pass


def client_for(body: bytes):
    """A simple_salesforce.Salesforce whose every answer is ``body``."""
    from simple_salesforce import Salesforce

    session = requests.Session()
    session.trust_env = False
    session.mount(INSTANCE + "/", FixedBody(body))
    return Salesforce(instance_url=INSTANCE, session_id="bench", session=session, version=API_VERSION)


def _ms(func) -> float:
    start = time.perf_counter()
    func()
    return (time.perf_counter() - start) * 1000


def fixed_client(sf, query: BenchQuery):
    """A client answered with the engine's own response body to ``query`` (the client floor's)."""
    return client_for(
        sf.session.get(f"{sf.base_url}query/", params={"q": query.soql}, headers=sf.headers).content
    )


def measure(org, sf, plain, query: BenchQuery, repeat: int) -> dict[str, float]:
    """Median ms of the engine, the hand-written SQL on the plain copy and on the org's tables, and
    the client floor, interleaved run by run."""
    fixed = fixed_client(sf, query)
    con = org.con
    calls = {
        "engine": lambda: sf.query(query.soql),
        "plain": lambda: plain.execute(query.floor_sql).fetchall(),
        "org": lambda: con.execute(query.floor_sql).fetchall(),
        "client": lambda: fixed.query(query.soql),
    }
    times: dict[str, list[float]] = {name: [] for name in calls}
    for i in range(repeat + 3):
        for name, call in calls.items():
            elapsed = _ms(call)
            if i >= 3:
                times[name].append(elapsed)
    return {name: statistics.median(values) for name, values in times.items()}


def cold_compile(org, text: str) -> float:
    """Milliseconds to parse, bind and translate ``text`` with empty plan caches."""
    clear_caches()
    return _ms(lambda: plan_for(org, text, False, API_VERSION))


def mockforce_rows(org, sf, queries: list[BenchQuery], repeat: int) -> list[Measurement]:
    """simple-mockforce on the queries it answers (plain fields, one object, simple WHERE), as engine ratios."""
    try:
        from simple_mockforce import mock_salesforce
        from simple_mockforce.virtual import virtual_salesforce
        from simple_salesforce import Salesforce
    except ImportError:
        return [
            Measurement(
                "soql",
                "simple-mockforce on the queries it answers",
                float("nan"),
                "x",
                note="not installed (optional)",
            )
        ]
    answerable = {"§5 issues", "§5 order items of a product", "§5 emails of a case", "lookup by Id",
                  "§5 shipping states of accounts"}  # fmt: skip
    objects = {"Issue__c", "OrderItem", "EmailMessage", "Case", "Account"}
    rows = []

    logging.getLogger("simple_mockforce").setLevel(logging.ERROR)  # it warns on every query

    def measure_all() -> None:
        virtual_salesforce.provision()
        for name in objects:
            cursor = org.con.execute(f'SELECT * FROM "{name}"')
            columns = [d[0] for d in cursor.description]
            virtual_salesforce.data[name] = [
                {c: to_json(v) for c, v in zip(columns, r)} for r in cursor.fetchall()
            ]
        mock = Salesforce(username="bench", password="bench", security_token="bench", domain="test")
        for query in queries:
            if query.name not in answerable:
                continue
            ours, theirs = [], []
            for i in range(min(repeat, 15) + 1):
                o = _ms(lambda text=query.soql: sf.query(text))
                t = _ms(lambda text=query.soql: mock.query(text))
                if i:
                    ours.append(o)
                    theirs.append(t)
            ratio = statistics.median(theirs) / statistics.median(ours)
            rows.append(
                Measurement(
                    "soql",
                    f"simple-mockforce / crmarena-sf: {query.name}",
                    round(ratio, 2),
                    "x",
                    note=f"simple-mockforce {statistics.median(theirs):.3f} ms, crmarena-sf {statistics.median(ours):.3f} ms",
                )
            )

    mock_salesforce(measure_all)()  # a decorator: the mock is active while measure_all runs
    return rows


PARTS_QUERY = "§5 issues"
"""The small query whose cost per call is taken apart (CRMArena's get_issues: ten records)."""


def run(quick: bool = False) -> list[Measurement]:
    from crmarena_sf import connect

    repeat = 15 if quick else 60
    org = crmarena_org()
    sf = connect(org)
    queries = bench_queries(org)
    plain = plain_copy(org, tables_read(q.floor_sql for q in queries))
    results: list[Measurement] = []
    ratios: list[float] = []
    org_ratios: list[float] = []
    cold_ratios: list[tuple[float, float]] = []
    for query in queries:
        compile_ms = cold_compile(org, query.soql)
        t = measure(org, sf, plain, query, repeat)
        floor, org_floor = t["plain"] + t["client"], t["org"] + t["client"]
        ratio, org_ratio = t["engine"] / floor, t["engine"] / org_floor
        if query.crmarena:
            ratios.append(ratio)
            org_ratios.append(org_ratio)
        cold_ratios.append((compile_ms, t["engine"]))
        results.append(
            Measurement(
                "soql",
                f"{query.name}: through simple-salesforce / plain floor",
                round(ratio, 3),
                "x",
                f"<= {TARGET_EACH}",
                ratio <= TARGET_EACH,
                f"{t['engine']:.3f} ms vs plain floor {floor:.3f} ms (SQL {t['plain']:.3f} + client "
                f"{t['client']:.3f}); org's floor {org_floor:.3f} ms (SQL {t['org']:.3f}): {org_ratio:.3f}x",
            )
        )
    mix = math.exp(statistics.fmean(math.log(r) for r in ratios))
    org_mix = math.exp(statistics.fmean(math.log(r) for r in org_ratios))
    results.append(
        Measurement(
            "soql",
            f"CRMArena mix ({len(ratios)} queries): geometric mean of engine / plain floor",
            round(mix, 3),
            "x",
            f"<= {TARGET_MIX}",
            mix <= TARGET_MIX,
            f"worst {max(ratios):.2f}x",
        )
    )
    results.append(
        Measurement(
            "soql",
            f"CRMArena mix ({len(org_ratios)} queries): geometric mean of engine / org's floor",
            round(org_mix, 3),
            "x",
            note=f"worst {max(org_ratios):.2f}x",
        )
    )
    compile_times = sorted(c for c, _ in cold_ratios)
    results.append(
        Measurement(
            "soql",
            "first run of a new query text: parse + bind + translate, median",
            round(statistics.median(compile_times), 3),
            "ms",
            note=f"max {compile_times[-1]:.2f} ms; median {statistics.median(c / e for c, e in cold_ratios):.2f}x "
            "the warm run of the same query",
        )
    )
    small = next(q for q in queries if q.name == PARTS_QUERY)
    records = sf.query(small.soql)["totalSize"]
    results.extend(
        call_parts.rows(org, sf, fixed_client(sf, small), plain, small, records, 100 if quick else 400)
    )
    results.extend(mockforce_rows(org, sf, queries, repeat))
    plain.close()
    return results


if __name__ == "__main__":
    for m in run(quick=True):
        print(f"{m.name:80s} {m.value:8.3f} {m.unit:3s} {m.target:8s} {m.note}")
