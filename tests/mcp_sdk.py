"""The MCP SDK's own ``Client`` driving ``crmarena-sf mcp`` in a process of its own, over stdio or HTTP.

``stdio_client(OPTIONS, **client_options)`` starts the command as the SDK's stdio transport does and checks the
process gone at the end; ``http_server(OPTIONS)`` starts it on ``--http 127.0.0.1:0`` and yields
the URL and the bearer token it printed; ``http_client(url, token, **client_options)`` is the SDK's streamable-HTTP
client sending that token (``client_options``: the ``Client``'s, such as ``client_info`` and ``mode``). :class:`SyncClient` calls either from a test through a blocking portal.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.from_thread
import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from serving import end


def mcp_command(*options: str) -> list[str]:
    return [sys.executable, "-m", "crmarena_sf.cli.main", "mcp", *options]


@dataclass
class SyncClient:
    """The SDK's async ``Client``, called from a test through a blocking portal."""

    portal: Any
    client: Client

    def tools(self) -> dict[str, Any]:
        listed = self.portal.call(self.client.list_tools)
        return {tool.name: tool for tool in listed.tools}

    def call(self, name: str, arguments: dict[str, Any]) -> tuple[bool, str]:
        """``(isError, text)`` of one tool call."""
        result = self.portal.call(self.client.call_tool, name, arguments)
        text = "".join(part.text for part in result.content if part.type == "text")
        return bool(result.is_error), text

    def ok(self, name: str, arguments: dict[str, Any]) -> Any:
        failed, text = self.call(name, arguments)
        assert not failed, f"{name}: {text}"
        return json.loads(text)

    def error(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The first Salesforce error of a call that must fail."""
        failed, text = self.call(name, arguments)
        assert failed, f"{name} did not fail: {text[:300]}"
        return json.loads(text)[0]


def _children_running(marker: str) -> list[int]:
    """Ids of this process's children whose command line holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid() and marker in command:
            found.append(int(entry))
    return found


@contextlib.contextmanager
def stdio_client(*options: str, **client_options: Any) -> Iterator[SyncClient]:
    """``crmarena-sf mcp OPTIONS`` started by the SDK's stdio client; the process is gone at the end."""
    command = mcp_command(*options)
    # The SDK hands a child only a few variables unless told: the test session's cache must reach it.
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    before = set(_children_running("crmarena_sf.cli.main mcp"))
    with (
        anyio.from_thread.start_blocking_portal() as portal,
        portal.wrap_async_context_manager(Client(params, **client_options)) as client,
    ):
        yield SyncClient(portal, client)
    assert set(_children_running("crmarena_sf.cli.main mcp")) <= before


@contextlib.contextmanager
def http_server(*options: str) -> Iterator[tuple[str, str, subprocess.Popen]]:
    """``crmarena-sf mcp --http 127.0.0.1:0 OPTIONS``: (url, token, process) once it listens; ended at the end."""
    process = subprocess.Popen(
        mcp_command("--http", "127.0.0.1:0", *options),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    printed: dict[str, str] = {}
    try:
        for line in process.stderr:
            key, _, value = line.strip().partition(": ")
            printed[key] = value
            if key == "header":
                break
        assert {"url", "token"} <= set(printed), f"mcp printed {printed}"
        yield printed["url"], printed["token"], process
    finally:
        end(process)
        process.stdout.close()
        process.stderr.close()


@contextlib.asynccontextmanager
async def http_client(url: str, token: str, **client_options: Any):
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http,
        Client(streamable_http_client(url, http_client=http), **client_options) as client,
    ):
        yield client
