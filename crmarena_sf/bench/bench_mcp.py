"""``crmarena-sf mcp``: what a one-row SOQL tool call costs over MCP stdio (issue 30).

One server process (:mod:`crmarena_sf.bench.mcp_bench_server`), driven by the SDK's own
``Client`` over stdio, as an agent's MCP client drives it; in turns, so machine load hits each
side alike:

- ``run_soql_query`` with a query returning one row;
- ``noop``, a do-nothing tool on the same server and transport (JSON-RPC over pipes, the SDK's
  dispatch, argument validation, the worker thread a tool runs on);
- the same query through ``connect()`` (simple-salesforce in-process) and through the REST
  router alone (what the tool asks of the emulator: the query's own cost), on an org like the
  server's in this process, both on one DuckDB thread as the server runs (``crmarena-sf mcp``
  and ``serve`` set it: a small query runs faster on one thread than split into tasks).

Target: the tool call costs at most the do-nothing call plus the query's own cost plus 0.3 ms.
"""

from __future__ import annotations

import math
import statistics
import sys
import time

from crmarena_sf.bench import Measurement

QUERY = "SELECT Id, Name FROM Account WHERE Name = 'Bench'"
TARGET_OVERHEAD_MS = 0.3


def _calls(repeat: int) -> dict[str, list[float]]:
    """Milliseconds of each call: ``noop`` and ``run_soql_query`` over stdio, and the same query through
    ``connect()`` and through the router alone in this process, in turns."""
    import anyio
    from mcp import Client, StdioServerParameters

    from crmarena_sf import connect
    from crmarena_sf.bench.mcp_bench_server import bench_org, one_duckdb_thread
    from crmarena_sf.mcp_server.org_calls import OrgCalls

    org = bench_org()
    sf = connect(org)
    calls = OrgCalls(org)
    params = StdioServerParameters(command=sys.executable, args=["-m", "crmarena_sf.bench.mcp_bench_server"])
    times: dict[str, list[float]] = {"noop": [], "soql": [], "connect": [], "router": []}

    async def timed(name: str, call) -> None:
        start = time.perf_counter()
        await call()
        times[name].append((time.perf_counter() - start) * 1000)

    async def drive() -> None:
        async with Client(params) as client:
            first = await client.call_tool("run_soql_query", {"query": QUERY})
            if first.is_error or '"totalSize":1' not in first.content[0].text:
                raise RuntimeError(f"the benchmark's query did not return one row: {first.content}")
            steps = {
                "noop": lambda: client.call_tool("noop", {}),
                "soql": lambda: client.call_tool("run_soql_query", {"query": QUERY}),
                "connect": _awaitable(lambda: sf.query(QUERY)),
                "router": _awaitable(lambda: calls.query(QUERY)),
            }
            for round_number in range(20 + repeat):  # 20 warm-up rounds: plans, worker threads
                for name, step in steps.items():
                    await timed(name, step)
                if round_number < 20:
                    for values in times.values():
                        values.clear()

    with one_duckdb_thread(org):
        anyio.run(drive)
    return times


def noop_call_ms(repeat: int) -> float:
    """The median milliseconds of the do-nothing tool call over stdio (after 20 warm-up calls)."""
    import anyio
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "crmarena_sf.bench.mcp_bench_server"])
    times: list[float] = []

    async def drive() -> None:
        async with Client(params) as client:
            for n in range(20 + repeat):
                start = time.perf_counter()
                await client.call_tool("noop", {})
                if n >= 20:
                    times.append((time.perf_counter() - start) * 1000)

    anyio.run(drive)
    return statistics.median(times)


def _awaitable(function):
    """``function`` (run in the event loop's thread, as the timing wants) as a coroutine function."""

    async def call() -> None:
        function()

    return call


def run(quick: bool = False) -> list[Measurement]:
    try:
        import mcp.server  # noqa: F401
    except ImportError:
        return [
            Measurement(
                "mcp",
                "one-row SOQL tool call over stdio",
                math.nan,
                "ms",
                note="the mcp SDK is not installed",
            )
        ]
    repeat = 100 if quick else 600
    times = _calls(repeat)
    noop, soql, connect_ms, router_ms = (
        statistics.median(times[k]) for k in ("noop", "soql", "connect", "router")
    )
    limit = noop + router_ms + TARGET_OVERHEAD_MS
    return [
        Measurement(
            "mcp",
            "one-row SOQL tool call over stdio (run_soql_query)",
            round(soql, 3),
            "ms",
            f"<= noop + query + {TARGET_OVERHEAD_MS:g} ms = {limit:.3f} ms",
            soql <= limit,
            f"median of {repeat}; beyond the do-nothing call and the query: {soql - noop - router_ms:+.3f} ms",
        ),
        Measurement("mcp", "do-nothing tool call over stdio (noop)", round(noop, 3), "ms"),
        Measurement(
            "mcp",
            "the same query through connect() (simple-salesforce, in-process)",
            round(connect_ms, 3),
            "ms",
        ),
        Measurement(
            "mcp",
            "the same query through the REST router alone (the query's own cost)",
            round(router_ms, 3),
            "ms",
        ),
    ]
