"""The 27 CRMArena tools an agent can call: :func:`call_tool` runs one and returns what the agent observes.

As in CRMArena, a tool never raises at the agent: a bad argument, an unknown tool or a
Salesforce error becomes a string starting ``Error:`` (or ``CODE: message`` for a query),
and the agent reads the ``str()`` of the returned Python value.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass
from typing import Any

from crmarena_sf.tasks.observation import run_query
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.tools import functions
from crmarena_sf.tasks.tools.schemas import TOOL_SCHEMAS

TOOL_NAMES = [schema["function"]["name"] for schema in TOOL_SCHEMAS]
ALIASES = {"search_knowledge_articles": {"keywords": "search_term"}}
"""Argument names models use because CRMArena's schema declared them (its ``keywords`` bug)."""


@dataclass
class ToolResult:
    value: Any
    observation: str
    final: bool = False
    """True for ``respond``: the episode's answer is ``value``."""
    error: bool = False
    """True when the call failed (a bad argument, an unknown tool, a Salesforce error): ``observation`` says why."""


def call_tool(client: OrgClient, name: str, arguments: Any) -> ToolResult:
    """Run tool ``name`` with ``arguments`` (a dict, or its JSON text) on the org behind ``client``."""
    from simple_salesforce.exceptions import SalesforceError

    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments or "{}")
        except json.JSONDecodeError as exc:
            return ToolResult(None, f"Error: the arguments are not valid JSON ({exc.msg})", error=True)
    if not isinstance(arguments, dict):
        return ToolResult(None, "Error: the arguments must be a JSON object", error=True)
    arguments = {ALIASES.get(name, {}).get(k, k): v for k, v in arguments.items()}
    if name == "respond":
        content = arguments.get("content")
        return ToolResult(None if content is None else str(content), str(content), final=True)
    if name in ("issue_soql_query", "issue_sosl_query"):
        query = arguments.get("query")
        if not isinstance(query, str):
            return ToolResult(None, "Error: query must be a string", error=True)
        value = run_query(client.sf, query)
        client.log.append({"action": "soql" if name == "issue_soql_query" else "sosl", "query": query})
        return ToolResult(value, str(value), error=isinstance(value, str))  # a str is ``CODE: message``
    function = getattr(functions, name, None) if name in TOOL_NAMES else None
    if function is None:
        return ToolResult(None, f"Error: there is no tool named {name!r}", error=True)
    try:
        inspect.signature(function).bind(client, **arguments)
    except TypeError as exc:
        return ToolResult(None, f"Error: {name}() {exc}", error=True)
    try:
        value = function(client, **arguments)
    except (ValueError, TypeError, KeyError) as exc:
        return ToolResult(None, f"Error: {exc}", error=True)
    except SalesforceError as exc:
        from crmarena_sf.tasks.observation import error_text

        return ToolResult(None, f"Error: {error_text(exc)}", error=True)
    return ToolResult(value, str(value))
