"""The Lightning Knowledge action ``actions/standard/publishKnowledgeArticles``.

Actions Developer Guide, "Knowledge Actions": ``POST /services/data/vXX.X/actions/standard/
publishKnowledgeArticles`` with ``{"inputs": [{"articleVersionIdList": ["ka0...", ...]}]}``
(API 44.0 and later) publishes draft article versions; the answer has one result per input,
``{"actionName", "errors", "isSuccess", "outputValues"}``, whose ``outputValues`` map each
version's 15-character Id to ``"Success"``. An input whose versions cannot all be published
reports ``isSuccess: false`` and the errors. The list may also come as one comma-separated
string, as the guide types it. The publication itself is the store's
(:mod:`crmarena_sf.emulator.store.knowledge`).
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route
from crmarena_sf.emulator.store.knowledge import publish_versions

ACTION = "publishKnowledgeArticles"
FIRST_VERSION = 44.0


def publish(call: RestCall) -> Response:
    """``POST actions/standard/publishKnowledgeArticles``."""
    if call.api_version_number < FIRST_VERSION:
        raise SalesforceError("NOT_FOUND", "The requested resource does not exist", status=404)
    body = call.request.json()
    inputs = body.get("inputs") if isinstance(body, dict) else None
    if not isinstance(inputs, list) or not inputs:
        raise SalesforceError("JSON_PARSER_ERROR", "Cannot deserialize instance of inputs from missing value")
    return json_response(200, [_one(call, item) for item in inputs])


def _one(call: RestCall, item: Any) -> dict[str, Any]:
    listed = item.get("articleVersionIdList") if isinstance(item, dict) else None
    if isinstance(listed, str):
        listed = [part.strip() for part in listed.split(",") if part.strip()]
    if not isinstance(listed, list) or not listed or not all(isinstance(i, str) for i in listed):
        return _failed(
            [
                SalesforceError(
                    "REQUIRED_FIELD_MISSING", "Missing required input parameter: articleVersionIdList", []
                )
            ]
        )
    errors = [e for e in publish_versions(call.org, listed) if e is not None]
    if errors:
        return _failed(errors)
    return {
        "actionName": ACTION,
        "errors": None,
        "isSuccess": True,
        "outputValues": {version[:15]: "Success" for version in listed},
    }


def _failed(errors: list[SalesforceError]) -> dict[str, Any]:
    return {
        "actionName": ACTION,
        "errors": [e.to_save_error() for e in errors],
        "isSuccess": False,
        "outputValues": None,
    }


ROUTES = [Route(r"actions/standard/publishKnowledgeArticles", POST=publish)]
