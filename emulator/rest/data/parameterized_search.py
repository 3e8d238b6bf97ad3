"""``parameterizedSearch``: SOSL by parameters instead of a statement, with GET or POST.

REST API Developer Guide, "Search for Records Using Parameterized Search"
(https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_search_parameterized.htm):
``GET parameterizedSearch?q=Acme&sobject=Account&Account.fields=Id,Name&Account.limit=10&in=NAME``
or ``POST`` ``{"q", "fields", "sobjects": [{"name", "fields", "where", "limit"}], "in",
"overallLimit", "defaultLimit"}``. The parameters become ``FIND {q} IN ... FIELDS RETURNING ...``
and run through the SOSL engine, so the answer (``{"searchRecords": [...]}``) and its errors
are the same as ``search``'s. ``q`` is taken as a search term: braces and backslashes in it are
escaped, the other operators and wildcards keep their SOSL meaning.
"""

from __future__ import annotations

import importlib
from typing import Any

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route

SEARCH_GROUPS = ("ALL", "NAME", "EMAIL", "PHONE", "SIDEBAR")


def _term(q: Any) -> str:
    if not isinstance(q, str) or not q.strip():
        raise SalesforceError("MISSING_ARGUMENT", "q not specified")
    return q.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}")


def _number(value: Any, name: str) -> int | None:
    if value is None or value == "":
        return None
    text = str(value)
    if not (text.isascii() and text.isdigit()):
        raise SalesforceError("INVALID_QUERY_FILTER_OPERATOR", f"invalid {name}: {text}")
    return int(text)


def _statement(params: dict[str, Any]) -> str:
    """The SOSL statement the parameters describe."""
    sosl = f"FIND {{{_term(params.get('q'))}}}"
    group = str(params.get("in") or "").upper()
    if group:
        if group not in SEARCH_GROUPS:
            raise SalesforceError("INVALID_SEARCH", f"invalid search group: {params.get('in')}")
        sosl += f" IN {group} FIELDS"
    default_fields = params.get("fields") or []
    default_limit = _number(params.get("defaultLimit"), "defaultLimit")
    clauses = []
    for spec in params.get("sobjects") or []:
        name = spec.get("name") if isinstance(spec, dict) else None
        if not isinstance(name, str) or not name:
            raise SalesforceError("INVALID_TYPE", "sobject name not specified")
        fields = spec.get("fields") or default_fields
        inner = ", ".join(str(f) for f in fields)
        if spec.get("where"):
            inner += f" WHERE {spec['where']}"
        limit = _number(spec.get("limit"), "limit") or default_limit
        if limit is not None:
            inner += f" LIMIT {limit}"
        clauses.append(f"{name}({inner})" if fields else (f"{name}(Id LIMIT {limit})" if limit else name))
    if clauses:
        sosl += " RETURNING " + ", ".join(clauses)
    overall = _number(params.get("overallLimit"), "overallLimit")
    if overall is not None:
        sosl += f" LIMIT {overall}"
    return sosl


def _from_query(call: RestCall) -> dict[str, Any]:
    """The GET form's parameters in the POST form's shape."""
    request = call.request
    params: dict[str, Any] = {
        "q": request.param("q"),
        "in": request.param("in"),
        "overallLimit": request.param("overallLimit"),
        "defaultLimit": request.param("defaultLimit"),
        "fields": [f for f in (request.param("fields") or "").split(",") if f],
    }
    sobjects = []
    for value in request.query.get("sobject", []):
        for name in value.split(","):
            if name:
                sobjects.append(
                    {
                        "name": name,
                        "fields": [f for f in (request.param(f"{name}.fields") or "").split(",") if f],
                        "where": request.param(f"{name}.where"),
                        "limit": request.param(f"{name}.limit"),
                    }
                )
    params["sobjects"] = sobjects
    return params


def parameterized_search(call: RestCall) -> Response:
    """``GET|POST parameterizedSearch``."""
    if call.request.method == "POST":
        params = call.request.json()
        if not isinstance(params, dict):
            raise SalesforceError("JSON_PARSER_ERROR", "Cannot deserialize instance of search request")
    else:
        params = _from_query(call)
    engine = importlib.import_module("crmarena_sf.emulator.sosl")
    return json_response(200, engine.search(call.org, _statement(params), api_version=call.version))


ROUTES = [Route(r"parameterizedSearch", GET=parameterized_search, POST=parameterized_search)]
