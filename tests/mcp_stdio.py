"""A minimal MCP client over stdio: JSON-RPC 2.0 messages, one per line, as the MCP specification's
stdio transport defines them (https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#stdio).

Enough to drive an MCP server as an agent's client does: ``initialize``, the ``initialized``
notification, ``tools/list`` and ``tools/call``. The server runs in a process group of its own,
ended when the client closes.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import threading
import time
from typing import Any

PROTOCOL_VERSION = "2025-06-18"


class McpStdioClient:
    """One MCP server process and the requests sent to it."""

    def __init__(self, command: list[str], env: dict[str, str], cwd: str | None = None) -> None:
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._read, args=(self.process.stdout, self._lines), daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()
        self._next_id = 0

    @staticmethod
    def _read(stream, lines: queue.Queue) -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    def _drain(self) -> None:
        for line in self.process.stderr:
            self.stderr.append(line)

    def request(
        self, method: str, params: dict[str, Any] | None = None, timeout: float = 120
    ) -> dict[str, Any]:
        """Send a request and wait for its response (server notifications in between are skipped)."""
        self._next_id += 1
        wanted = self._next_id
        self._send({"jsonrpc": "2.0", "id": wanted, "method": method, "params": params or {}})
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(
                    f"no answer to {method} in {timeout} s; stderr: {''.join(self.stderr)[-3000:]}"
                )
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                raise RuntimeError(f"the server ended; stderr: {''.join(self.stderr)[-3000:]}")
            line = line.strip()
            if not line.startswith("{"):
                continue
            message = json.loads(line)
            if message.get("id") == wanted and ("result" in message or "error" in message):
                return message

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params or {}})

    def _send(self, message: dict[str, Any]) -> None:
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def initialize(self) -> dict[str, Any]:
        answer = self.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "crmarena-sf-tests", "version": "1"},
            },
        )
        self.notify("notifications/initialized")
        return answer["result"]

    def tools(self) -> list[str]:
        return [tool["name"] for tool in self.request("tools/list")["result"]["tools"]]

    def call(self, tool: str, arguments: dict[str, Any], timeout: float = 120) -> tuple[bool, str]:
        """``(isError, the text of the result)`` of one tool call."""
        answer = self.request("tools/call", {"name": tool, "arguments": arguments}, timeout)
        if "error" in answer:
            return True, json.dumps(answer["error"])
        result = answer["result"]
        text = "\n".join(
            part.get("text", "") for part in result.get("content", []) if part.get("type") == "text"
        )
        return bool(result.get("isError")), text

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.process.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.process.wait(timeout=5)
                break
            except subprocess.TimeoutExpired:
                continue
        self.process.wait()
