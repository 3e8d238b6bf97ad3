"""An org's MCP tools: SOQL (and its next pages), SOSL, the object list, a describe, record CRUD.

Named as MCP servers for Salesforce name them (``run_soql_query``, ``run_sosl_search``,
``list_sobjects``, ``describe_object``, ``get_record``, ``create_record``, ``update_record``,
``delete_record``; ``query_more`` is simple-salesforce's and the REST API's word for the next
page). Each has a JSON schema built from its typed arguments, a description, and the MCP tool
annotations a client uses to ask before a write (``readOnlyHint``, ``destructiveHint``). A
result is one text block holding the REST API's JSON body (:mod:`.org_calls`); a Salesforce error
is a result with ``isError`` set holding the REST API's error array, never a protocol error or
a crash of the server.

Where a call runs: over stdio (one client, one call at a time) in the server's event loop, since
handing it to a worker thread and waking the loop from there costs more than a small query
itself (the worker's wake-up write waits for the interpreter lock the loop holds: about 1 ms a
call on a loaded two-core machine, measured with py-spy); over HTTP (``worker_threads``, several
clients) on the SDK's worker threads, so a long query never stalls another session or a ping.
The emulator's REST router takes the org's lock itself either way. Importing this module needs the ``mcp`` SDK (the ``mcp`` extra).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any

from mcp.server import MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from crmarena_sf.mcp_server.org_calls import Answer, OrgCalls

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

WRITE_TOOLS = ("create_record", "update_record", "delete_record")

ObjectName = Annotated[str, Field(description="The object's API name, e.g. Account, Case or Survey__c")]
RecordId = Annotated[str, Field(description="The record's Id (15 or 18 characters)")]
Values = Annotated[
    dict[str, Any],
    Field(
        description='Field API names and their values, e.g. {"Subject": "Zipper broke", "Priority": "High"}'
    ),
]


def org_server(
    org: Org, org_name: str, *, read_only: bool = False, worker_threads: bool = False
) -> MCPServer:
    """An ``MCPServer`` named crmarena-sf holding ``org``'s tools (``org_name``: how the instructions name it;
    ``worker_threads``: run calls on worker threads, for HTTP's several clients)."""
    from crmarena_sf import __version__

    writes = " its records." if read_only else ", create, update and delete its records."
    server = MCPServer(
        "crmarena-sf",
        version=__version__,
        instructions=f"A Salesforce org ({org_name}, emulated by crmarena-sf): query it with SOQL and SOSL, "
        "describe its objects, and read" + writes,
        log_level="WARNING",
    )
    register_org_tools(server, org, read_only=read_only, worker_threads=worker_threads)
    return server


def register_org_tools(
    server: MCPServer, org: Org, *, read_only: bool = False, worker_threads: bool = False
) -> OrgCalls:
    """Add the org's tools to ``server`` (without the writes when ``read_only``; on worker threads
    with ``worker_threads``, else in the event loop); returns the calls behind them."""
    calls = OrgCalls(org)

    def result(answer: Answer) -> CallToolResult:
        return CallToolResult(content=[TextContent(type="text", text=answer.text)], is_error=answer.is_error)

    reads = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    def run_soql_query(
        query: Annotated[str, Field(description="The SOQL query, e.g. SELECT Id, Subject FROM Case LIMIT 5")],
        include_deleted: Annotated[
            bool, Field(description="Also return deleted and archived records (queryAll)")
        ] = False,
        batch_size: Annotated[
            int | None,
            Field(
                ge=200,
                le=2000,
                description="Records per page, 200 to 2000 (default 2000); the rest come from query_more",
            ),
        ] = None,
    ) -> CallToolResult:
        return result(calls.query(query, include_deleted=include_deleted, batch_size=batch_size))

    def query_more(
        next_records_url: Annotated[
            str,
            Field(
                description="The nextRecordsUrl of the previous page, e.g. /services/data/v62.0/query/01gXX-2000"
            ),
        ],
    ) -> CallToolResult:
        return result(calls.query_more(next_records_url))

    def run_sosl_search(
        search: Annotated[
            str,
            Field(
                description="The SOSL search, e.g. FIND {return policy} RETURNING Knowledge__kav(Id, Title)"
            ),
        ],
    ) -> CallToolResult:
        return result(calls.search(search))

    def list_sobjects() -> CallToolResult:
        return result(calls.list_objects())

    def describe_object(object_name: ObjectName) -> CallToolResult:
        return result(calls.describe(object_name))

    def get_record(
        object_name: ObjectName,
        record_id: RecordId,
        fields: Annotated[
            list[str] | None, Field(description="The fields to return (default: every field)")
        ] = None,
    ) -> CallToolResult:
        return result(calls.get(object_name, record_id, fields))

    def create_record(object_name: ObjectName, data: Values) -> CallToolResult:
        return result(calls.create(object_name, data))

    def update_record(object_name: ObjectName, record_id: RecordId, data: Values) -> CallToolResult:
        return result(calls.update(object_name, record_id, data))

    def delete_record(object_name: ObjectName, record_id: RecordId) -> CallToolResult:
        return result(calls.delete(object_name, record_id))

    tools = [
        (
            run_soql_query,
            "Run a SOQL query. Returns the REST API's JSON: totalSize, done, records and, when more records "
            "remain, nextRecordsUrl (pass it to query_more).",
            reads,
        ),
        (query_more, "Fetch the next page of a SOQL query's records from its nextRecordsUrl.", reads),
        (run_sosl_search, "Run a SOSL search. Returns the REST API's JSON: {searchRecords: [...]}.", reads),
        (list_sobjects, "List the org's objects (the REST API's describeGlobal JSON).", reads),
        (describe_object, "Describe an object: its fields, types, picklist values and relationships.", reads),
        (get_record, "Get one record by Id.", reads),
        (
            create_record,
            'Create a record. Returns {"id", "success", "errors"}.',
            ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False),
        ),
        (
            update_record,
            'Update a record\'s fields. Returns {"id", "success", "errors"}.',
            ToolAnnotations(
                read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
            ),
        ),
        (
            delete_record,
            'Delete a record (to the recycle bin). Returns {"id", "success", "errors"}.',
            ToolAnnotations(
                read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False
            ),
        ),
    ]
    for function, description, hints in tools:
        if read_only and function.__name__ in WRITE_TOOLS:
            continue
        tool = function if worker_threads else in_event_loop(function)
        server.add_tool(tool, description=description + _ERRORS, annotations=hints)
    return calls


def in_event_loop(function: Callable[..., CallToolResult]) -> Callable[..., Awaitable[CallToolResult]]:
    """``function`` as a coroutine function of the same signature: the SDK calls it in its event loop
    (a plain function goes to a worker thread)."""

    @functools.wraps(function)
    async def call(**arguments: Any) -> CallToolResult:
        return function(**arguments)

    return call


_ERRORS = (
    ' Salesforce errors come back as a tool error holding [{"message", "errorCode"}] '
    "(MALFORMED_QUERY, INVALID_FIELD, INVALID_TYPE, NOT_FOUND, REQUIRED_FIELD_MISSING ...)."
)
