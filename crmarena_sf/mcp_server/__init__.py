"""``crmarena-sf mcp``: emulated orgs served to any MCP client (the Model Context Protocol).

What is here (the front door's floor: it reaches orgs through :mod:`crmarena_sf.connection` and
answers every call through the emulator's REST router, never the store directly):

- :mod:`.org_calls`: the calls an agent makes on an org (SOQL and its next pages, SOSL, the
  sObject list, a describe, a record's get, create, update and delete), each one REST API request
  answered by the org's :class:`~crmarena_sf.emulator.rest.transport.router.Router`, so a tool
  returns the REST API's own JSON body, byte for byte, and its errors are the REST API's
  ``[{"message", "errorCode"}]`` (no MCP import: the project's own agents can reuse it);
- :mod:`.org_tools`: those calls as MCP tools (name, JSON schema, description, read-only or
  destructive hints) on an SDK ``MCPServer``; ``read_only`` leaves the writes out;
- :mod:`.http_transport`: streamable HTTP behind a bearer token, loopback unless told.

A benchmark mode (``mcp --suite``, issue 30's second half) goes beside the org mode, not inside
it: a module ``suite_tools`` that registers, on the same kind of ``MCPServer``, a tool to get the
next task, a tool to submit an answer (scored and logged by the runner's own code), and the task
family's tools bound to the current episode's fork; the transports (stdio, and
:func:`.http_transport.serve_http`) take any ``MCPServer`` and need no change, and
:class:`.org_calls.OrgCalls` already works on any org, a fork included.
"""
