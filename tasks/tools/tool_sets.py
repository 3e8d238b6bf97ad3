"""The tools an agent has on a suite's tasks: one definition for every harness that hands them out.

CRMArena's tasks (the ``crmarena`` suite and the text-to-SOQL track) get its 27 tools
(:mod:`.schemas`); CRMArena-Pro's get three, ``execute_soql``, ``execute_sosl`` and ``respond``
(:mod:`crmarena_sf.tasks.agents.pro_prompts`). The function-calling agent, the gym environment
(:mod:`crmarena_sf.env`) and the MCP server's benchmark mode (``crmarena-sf mcp --suite``) all
read :func:`tool_schemas` and call :func:`run_tool`, so the three see the same names, the same
JSON schemas and the same results.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.tasks.agents.pro_prompts import PRO_TOOL_NAMES, PRO_TOOLS
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.pro.suite import is_pro
from crmarena_sf.tasks.tools import ToolResult, call_tool
from crmarena_sf.tasks.tools.schemas import TOOL_SCHEMAS

FINAL_TOOL = "respond"
"""The tool that gives the episode's answer, in every suite's set."""


def tool_schemas(suite: str | None) -> list[dict[str, Any]]:
    """The function-calling schemas (``{"type": "function", "function": {name, description, parameters}}``)
    of the tools an agent has on a task of ``suite`` (None: CRMArena's)."""
    return PRO_TOOLS if is_pro(suite) else TOOL_SCHEMAS


def tool_names(suite: str | None) -> list[str]:
    """The names of :func:`tool_schemas`, in order."""
    return [schema["function"]["name"] for schema in tool_schemas(suite)]


def run_tool(client: OrgClient, suite: str | None, name: str, arguments: Any) -> ToolResult:
    """Run the tool ``name`` of ``suite``'s set with ``arguments`` (a dict or its JSON text); a name not in
    the set is an error result, as a failing call is (never an exception)."""
    if not is_pro(suite):
        return call_tool(client, name, arguments)
    if name not in PRO_TOOL_NAMES:
        return ToolResult(
            None, f"Error: there is no tool named {name!r}; use {', '.join(PRO_TOOL_NAMES)}", error=True
        )
    return call_tool(client, PRO_TOOL_NAMES[name], arguments)
