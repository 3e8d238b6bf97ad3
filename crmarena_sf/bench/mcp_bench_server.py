"""The MCP server the ``mcp`` benchmark area talks to over stdio: ``crmarena-sf mcp``'s tools and a do-nothing one.

Run as ``python -m crmarena_sf.bench.mcp_bench_server``: a blank org holding one account named
``Bench`` (what the one-row query finds), served with the same tools as ``crmarena-sf mcp`` plus
``noop``, run like them (in the event loop, as over stdio) and returning an empty text block (the transport's and the
SDK's own cost of a tool call, the floor a tool call is measured against).
"""

from __future__ import annotations

import contextlib

from mcp.types import CallToolResult, TextContent

from crmarena_sf.connection.orgs import resolve_org
from crmarena_sf.mcp_server.org_tools import in_event_loop, org_server

ACCOUNT_NAME = "Bench"


def bench_org():
    """A blank org with the one account the benchmark's query returns."""
    org = resolve_org("blank", progress=False)
    org.insert("Account", {"Name": ACCOUNT_NAME})
    return org


@contextlib.contextmanager
def one_duckdb_thread(org):
    """DuckDB on one thread while the block runs, as ``crmarena-sf mcp`` runs it; the setting comes back after."""
    (before,) = org.con.execute("SELECT current_setting('threads')").fetchone()
    org.con.execute("SET GLOBAL threads = 1")
    try:
        yield
    finally:
        org.con.execute(f"SET GLOBAL threads = {int(before)}")


def noop() -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text="")])


def main() -> None:
    org = bench_org()
    org.con.execute("SET GLOBAL threads = 1")  # as crmarena-sf mcp runs
    server = org_server(org, "blank")
    server.add_tool(in_event_loop(noop), description="Do nothing (the benchmark's floor).")
    server.run("stdio")


if __name__ == "__main__":
    main()
