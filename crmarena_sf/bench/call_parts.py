"""The parts of a query's cost per call: what ``sf.query()`` pays beyond its floor, piece by piece.

Each piece is timed on its own, the same request each time, in turns with the others (so
machine load hits them alike), as the median of many short batches:

- the adapter: ``requests``' prepared request turned into the emulator's request and its
  answer into a ``requests.Response``, plus what simple-salesforce does with the real answer's
  headers: the whole call less the router's answer and less the client floor
  (simple-salesforce on a fixed body);
- routing: finding the service mounted at the path and the data API's route for it;
- session: reading the session id and checking it, and counting the day's API requests;
- lock: taking and releasing the org's lock;
- plan cache: finding the compiled plan of the query text;
- execution: DuckDB running the plan's SQL and handing back its rows (beside it, the plain
  floor's hand-written SQL);
- JSON: shaping those rows into the REST body's records and writing the body;
- other REST work: the rest of the router's answer (the request's parameters and headers, the
  response object, the limit header, the error boundary, decompression).

The parts are medians of separately timed steps, so they add up to the whole only roughly.
"""

from __future__ import annotations

import statistics
import time
from urllib.parse import quote_plus

from crmarena_sf.bench import Measurement
from crmarena_sf.emulator import soql
from crmarena_sf.emulator.rest import services
from crmarena_sf.emulator.rest.data import api as data_api
from crmarena_sf.emulator.rest.transport.messages import Request
from crmarena_sf.emulator.rest.transport.router import Router
from crmarena_sf.emulator.soql.execute import fetch_records
from crmarena_sf.emulator.soql.plans import plan_for
from crmarena_sf.metadata import API_VERSION

BATCH = 20
"""Calls per timed batch: a single microsecond step is below the clock's resolution."""


def _per_call_us(func, batch: int = BATCH) -> float:
    start = time.perf_counter()
    for _ in range(batch):
        func()
    return (time.perf_counter() - start) * 1e6 / batch


def medians(steps: dict[str, object], rounds: int) -> dict[str, float]:
    """The median microseconds per call of each step, timed in batches taken in turns."""
    for step in steps.values():
        for _ in range(3):
            step()
    times: dict[str, list[float]] = {name: [] for name in steps}
    for round_ in range(rounds):
        order = list(steps) if round_ % 2 == 0 else list(reversed(steps))
        for name in order:
            times[name].append(_per_call_us(steps[name]))
    return {name: statistics.median(values) for name, values in times.items()}


def parts(org, sf, fixed_client, plain, query, rounds: int) -> dict[str, float]:
    """Microseconds of each part of ``query``'s cost per call (see the module docstring)."""
    router = Router.for_org(org)
    url = f"{sf.base_url}query/?q={quote_plus(query.soql)}"
    headers = dict(sf.headers)
    request = Request.from_url("GET", url, headers=headers)
    rest = request.path.split(f"/v{API_VERSION}/", 1)[1]
    plan = plan_for(org, query.soql, False, API_VERSION)
    lock = org.lock

    def execution() -> None:
        with lock:
            fetch_records(org, plan)

    def session() -> None:
        router.accepts(router.session_of(request))
        router.count_api_request()

    def lock_step() -> None:
        lock.acquire(blocking=False)
        lock.release()

    steps = {
        "call": lambda: sf.query(query.soql),
        "client floor": lambda: fixed_client.query(query.soql),
        "router": lambda: router.handle(request),
        "engine": lambda: soql.query_json(org, query.soql),
        "routing": lambda: (services.mount_for(request.path), data_api.route_for(rest)),
        "session": session,
        "lock": lock_step,
        "plan cache": lambda: plan_for(org, query.soql, False, API_VERSION),
        "execution": execution,
        "plain floor SQL": lambda: plain.execute(query.floor_sql).fetchall(),
    }
    t = medians(steps, rounds)
    return {
        "the adapter": t["call"] - t["router"] - t["client floor"],
        "routing": t["routing"],
        "session": t["session"],
        "lock": t["lock"],
        "plan cache": t["plan cache"],
        "execution": t["execution"],
        "JSON": t["engine"] - t["plan cache"] - t["execution"],
        "other REST work": t["router"] - t["engine"] - t["routing"] - t["session"] - t["lock"],
        "_call": t["call"],
        "_client": t["client floor"],
        "_plain": t["plain floor SQL"],
    }


def rows(org, sf, fixed_client, plain, query, records: int, rounds: int) -> list[Measurement]:
    """The performance table's rows for ``query``'s parts."""
    found = parts(org, sf, fixed_client, plain, query, rounds)
    over = found["_call"] - found["_client"] - found["_plain"]
    out = [
        Measurement(
            "soql",
            f"per-call cost, {query.name} ({records} records): the whole call through simple-salesforce",
            round(found["_call"]),
            "µs",
            note=f"floor {found['_plain'] + found['_client']:.0f} µs: plain SQL {found['_plain']:.0f} + "
            f"client {found['_client']:.0f}; {over:.0f} µs over it",
        )
    ]
    for name in (
        "routing",
        "session",
        "lock",
        "plan cache",
        "execution",
        "JSON",
        "other REST work",
        "the adapter",
    ):
        note = f"the plain floor's SQL: {found['_plain']:.0f} µs" if name == "execution" else ""
        out.append(
            Measurement(
                "soql", f"per-call cost, {query.name}: {name}", round(found[name], 1), "µs", note=note
            )
        )
    return out
