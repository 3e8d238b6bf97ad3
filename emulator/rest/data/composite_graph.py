"""``POST composite/graph``: several composite requests, each one all or nothing.

REST API Developer Guide, "Composite Graph"
(https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_composite_graph.htm):
``{"graphs": [{"graphId", "compositeRequest": [...]}]}`` answers HTTP 200
``{"graphs": [{"graphId", "graphResponse": {"compositeResponse": [...]}, "isSuccessful"}]}``.
A graph's subrequests are those of ``composite`` (same references, same answers) and run as one
transaction: the first failure rolls the graph back and halts its other subrequests, while the
other graphs keep their writes. At most 75 graphs and 500 subrequests per graph.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.data.composite import run_subrequests
from crmarena_sf.emulator.rest.data.composite_request import MAX_SUBREQUESTS, read_composite_request
from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route

MAX_GRAPHS = 75
MAX_NODES = 500


def _subrequests(graph: dict[str, Any]) -> list[dict[str, Any]]:
    """A graph's subrequests, each checked as ``composite`` checks them (a graph has no 25-subrequest cap)."""
    subrequests = graph.get("compositeRequest")
    if not isinstance(subrequests, list):
        raise SalesforceError(
            "JSON_PARSER_ERROR", "Cannot deserialize instance of compositeRequest from missing value"
        )
    if len(subrequests) > MAX_NODES:
        raise SalesforceError(
            "LIMIT_EXCEEDED", f"The graph has {len(subrequests)} nodes; the maximum is {MAX_NODES}."
        )
    for start in range(0, len(subrequests), MAX_SUBREQUESTS):
        read_composite_request({"compositeRequest": subrequests[start : start + MAX_SUBREQUESTS]})
    return subrequests


def composite_graph(call: RestCall) -> Response:
    """``POST composite/graph``."""
    data = call.request.json()
    graphs = data.get("graphs") if isinstance(data, dict) else None
    if not isinstance(graphs, list) or not all(isinstance(g, dict) for g in graphs):
        raise SalesforceError("JSON_PARSER_ERROR", "Cannot deserialize instance of graphs from missing value")
    if len(graphs) > MAX_GRAPHS:
        raise SalesforceError(
            "LIMIT_EXCEEDED", f"The request has {len(graphs)} graphs; the maximum is {MAX_GRAPHS}."
        )
    prepared = [
        (graph, _subrequests(graph)) for graph in graphs
    ]  # a malformed graph refuses the request whole
    answers: list[dict[str, Any]] = []
    for graph, subrequests in prepared:
        entries, ok = run_subrequests(call, subrequests, True)
        answers.append(
            {
                "graphId": graph.get("graphId"),
                "graphResponse": {"compositeResponse": entries},
                "isSuccessful": ok,
            }
        )
    return json_response(200, {"graphs": answers})


ROUTES = [Route(r"composite/graph", POST=composite_graph)]
