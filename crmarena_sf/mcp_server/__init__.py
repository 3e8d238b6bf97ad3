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

The benchmark mode (``mcp --suite``, issue 30's second half) goes beside the org mode:

- :mod:`.suite_session`: the benchmark's side (no MCP import): the tasks to hand out, the open
  episode on its own fork (:class:`crmarena_sf.tasks.episode.Episode`, stepped as the project's
  agents step it), scoring, the episode log and ``results.json``;
- :mod:`.suite_tools`: ``next_task``, the suite's tools (the function-calling agent's, from
  :mod:`crmarena_sf.tasks.tools.tool_sets`), and ``submit_answer`` or, on the interactive suites,
  ``reply_to_user``, on the same kind of ``MCPServer``; the transports take either server.
"""
