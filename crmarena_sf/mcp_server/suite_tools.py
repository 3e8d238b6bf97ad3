"""A benchmark's MCP tools: ``next_task``, the suite's own tools, ``submit_answer``.

The suite's tools are the function-calling agent's, from the one definition both read
(:func:`crmarena_sf.tasks.tools.tool_sets.tool_schemas`): CRMArena's 27 (less ``respond``) on a
CRMArena task set, ``execute_soql`` and ``execute_sosl`` on a CRMArena-Pro one, each with the same
name, description and JSON schema (its ``parameters`` as the MCP ``inputSchema``) and the same
result text. The final tool, ``respond`` for the function-calling agent, is ``submit_answer``
here (it ends an episode the server, not the agent, opened), or ``reply_to_user`` in an
interactive suite (its result is the simulated user's reply). A call that fails (a Salesforce
error such as MALFORMED_QUERY or INVALID_FIELD, a bad argument, no open episode, an unknown tool)
is a tool result with ``isError`` set, never a protocol error or a crash of the server.

Who the agent is: the MCP client's ``clientInfo`` (sent with ``initialize`` under the 2025
protocol; under 2026-07-28 each request's ``_meta`` carries it, and the SDK makes the same
connection parameters of it), read when ``next_task`` is called. Importing this module needs the
``mcp`` SDK (the ``mcp`` extra).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools.base import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from crmarena_sf.mcp_server.org_tools import in_event_loop
from crmarena_sf.mcp_server.suite_session import REPLY_TOOL, EpisodeStateError, SuiteSession
from crmarena_sf.tasks.tools.tool_sets import FINAL_TOOL, tool_schemas

CLIENT_INFO_META_KEY = "io.modelcontextprotocol/clientInfo"
"""Where a 2026-07-28 request's ``_meta`` names the client (the MCP specification's reserved key)."""

READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)
EPISODE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)


def task_tool_schemas(suite: str | None) -> list[dict[str, Any]]:
    """The suite's tools as the MCP server lists them: the function-calling agent's, less its final tool."""
    return [s["function"] for s in tool_schemas(suite) if s["function"]["name"] != FINAL_TOOL]


def suite_server(
    session: SuiteSession, suite: str | None, title: str, *, worker_threads: bool = False
) -> MCPServer:
    """An ``MCPServer`` serving ``session``'s benchmark (``suite``: its tasks' suite, None for CRMArena's;
    ``title``: how the instructions name it)."""
    from crmarena_sf import __version__

    tools = [_task_tool(session, schema, worker_threads) for schema in task_tool_schemas(suite)]
    final = session.final_tool
    how = (
        f"talk with the user through {REPLY_TOOL} (their reply comes back as its result) until they end "
        "the conversation"
        if session.interactive
        else f"then call {final} with your answer"
    )
    server = MCPServer(
        "crmarena-sf",
        version=__version__,
        instructions=f"The {title} benchmark (crmarena-sf): call next_task to get a task, work on it with the "
        f"tools, {how}; repeat until next_task says done. Each task runs on its own copy of the org.",
        log_level="WARNING",
        tools=tools,
    )

    async def next_task(ctx: Context) -> CallToolResult:
        client = client_identity(ctx)
        return _guarded(lambda: _text(json.dumps(session.next_task(client), ensure_ascii=False)))

    def submit_answer(
        answer: Annotated[
            str,
            Field(description="Your final answer: only what the task asks for (or None when nothing fits)"),
        ],
    ) -> CallToolResult:
        return _guarded(lambda: _reply(session.respond(answer)))

    def reply_to_user(
        message: Annotated[str, Field(description="Your message to the user: a question, or your answer")],
    ) -> CallToolResult:
        return _guarded(lambda: _reply(session.respond(message)))

    server.add_tool(
        next_task,
        description="Open the next task: its query (in a conversation, the user's first message instead), its "
        "context (required and optional notes), for CRMArena-Pro the asker's persona, the instructions an "
        "agent is given, and the tools it may use. Says done when every task is answered. One task is open "
        "at a time.",
        annotations=EPISODE,
    )
    if session.interactive:
        server.add_tool(
            reply_to_user if worker_threads else in_event_loop(reply_to_user),
            description="Send a message to the user (ask what you need, one thing at a time, or give your "
            "answer alone). Returns the user's reply; when the user ends the conversation, the task is "
            "scored on your last message and recorded.",
            annotations=EPISODE,
        )
    else:
        server.add_tool(
            submit_answer if worker_threads else in_event_loop(submit_answer),
            description="Submit the answer to the open task; it is scored and recorded, and the task closes. "
            "Call it once per task.",
            annotations=EPISODE,
        )
    return server


def client_identity(ctx: Context) -> dict[str, str] | None:
    """The client's ``{"name", "version"}``: its connection's ``clientInfo``, else the request's ``_meta``."""
    request = ctx.request_context
    params = getattr(request.session, "client_params", None)
    info = getattr(params, "client_info", None)
    if info is not None and info.name:
        return {"name": info.name, "version": info.version or ""}
    meta = request.meta or {}
    raw = meta.get(CLIENT_INFO_META_KEY) if isinstance(meta, dict) else None
    if isinstance(raw, dict) and isinstance(raw.get("name"), str) and raw["name"]:
        return {"name": raw["name"], "version": str(raw.get("version") or "")}
    return None


class _SchemaTool(Tool):
    """A tool whose input schema is given as JSON schema and whose arguments reach it as they came."""

    call: Callable[[dict[str, Any]], CallToolResult] = Field(exclude=True)
    in_worker_thread: bool = Field(default=False, exclude=True)

    async def run(self, arguments: dict[str, Any], context: Any, convert_result: bool = False) -> Any:
        if self.in_worker_thread:
            import anyio.to_thread

            return await anyio.to_thread.run_sync(self.call, arguments)
        return self.call(arguments)


def _task_tool(session: SuiteSession, schema: dict[str, Any], worker_threads: bool) -> Tool:
    name = schema["name"]

    def call(arguments: dict[str, Any]) -> CallToolResult:
        return _guarded(lambda: _reply(session.call(name, arguments)))

    def placeholder() -> None:  # the SDK's metadata of a function; the schema is replaced below
        return None

    base = Tool.from_function(
        placeholder, name=name, description=schema["description"], structured_output=False
    )
    fields = {
        key: getattr(base, key)
        for key in ("fn", "title", "fn_metadata", "is_async", "context_kwarg", "icons", "meta")
    }
    return _SchemaTool(
        **fields,
        name=name,
        description=schema["description"],
        parameters=schema["parameters"],
        annotations=READS,
        call=call,
        in_worker_thread=worker_threads,
    )


def _guarded(call: Callable[[], CallToolResult]) -> CallToolResult:
    try:
        return call()
    except EpisodeStateError as exc:
        return _text(f"Error: {exc}", True)


def _reply(reply) -> CallToolResult:
    return _text(reply.text, reply.error)


def _text(text: str, is_error: bool = False) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=is_error)
