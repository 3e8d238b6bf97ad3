"""The shape of a ``POST composite`` body, checked before any subrequest runs.

Salesforce reads the whole composite request before executing it (REST API Developer Guide,
"Composite", https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_composite_composite_post.htm
and "Composite Subrequest", requests_composite.htm): a body it cannot read, a subrequest whose
``method``, ``url``, ``referenceId`` or ``httpHeaders`` has the wrong JSON type, or more than
:data:`MAX_SUBREQUESTS` subrequests refuses the whole request with HTTP 400, and nothing runs.
So a client never sees a 4xx or 5xx after some of its subrequests were already saved.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.coerce import json_token

MAX_SUBREQUESTS = 25
"""'You can have up to 25 subrequests in a single call' (resources_composite_composite_post.htm)."""

_STRING_PROPERTIES = ("method", "url", "referenceId")


def too_many_subrequests(count: int) -> SalesforceError:
    """LIMIT_EXCEEDED, Salesforce's code for a request array longer than its documented maximum."""
    return SalesforceError(
        "LIMIT_EXCEEDED",
        f"The composite request has {count} subrequests; the maximum is {MAX_SUBREQUESTS}.",
    )


def _cannot_deserialize(target: str, value: Any, where: str) -> SalesforceError:
    return SalesforceError(
        "JSON_PARSER_ERROR",
        f"Cannot deserialize instance of {target} from {json_token(value)} value: {where}",
    )


def _flag(data: dict[str, Any], name: str) -> bool:
    """A boolean property (Jackson also reads the strings ``"true"``/``"false"``)."""
    value = data.get(name)
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise _cannot_deserialize("boolean", value, name)


def read_composite_request(data: Any) -> tuple[list[dict[str, Any]], bool]:
    """The subrequests and ``allOrNone`` of a composite body, or the 400 that refuses it whole."""
    if not isinstance(data, dict) or not isinstance(data.get("compositeRequest"), list):
        raise SalesforceError(
            "JSON_PARSER_ERROR",
            "Cannot deserialize instance of Composite Request: compositeRequest is required",
        )
    all_or_none = _flag(data, "allOrNone")
    _flag(data, "collateSubrequests")
    subrequests = data["compositeRequest"]
    if len(subrequests) > MAX_SUBREQUESTS:
        raise too_many_subrequests(len(subrequests))
    for index, sub in enumerate(subrequests):
        where = f"compositeRequest[{index}]"
        if not isinstance(sub, dict):
            raise _cannot_deserialize("Subrequest", sub, where)
        for name in _STRING_PROPERTIES:
            value = sub.get(name)
            if value is not None and not isinstance(value, str):
                raise _cannot_deserialize("String", value, f"{where}.{name}")
        headers = sub.get("httpHeaders")
        if headers is not None:
            if not isinstance(headers, dict):
                raise _cannot_deserialize("Map", headers, f"{where}.httpHeaders")
            for key, value in headers.items():
                if isinstance(value, (dict, list)):
                    raise _cannot_deserialize("String", value, f"{where}.httpHeaders.{key}")
    return subrequests, all_or_none
