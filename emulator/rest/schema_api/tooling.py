"""The Tooling API as clients use it at login: ``tooling/query`` and ``tooling/sobjects``.

Tooling API Developer Guide, "Query" and "SObjects"
(https://developer.salesforce.com/docs/atlas.en-us.api_tooling.meta/api_tooling/intro_rest_resources.htm):
``GET tooling/query?q=`` answers ``{"size", "totalSize", "done", "queryLocator",
"entityTypeName", "records"}``. The sf CLI asks it about sandboxes when it logs in
(``SandboxProcess``); an emulated org has no sandboxes or debug logs, so those objects answer
no rows. Objects the org itself holds (``User``, ``Organization``, and ``ApexClass``,
``ApexTrigger``, ``ApexPage``, ``ApexComponent``, ``StaticResource``, whose rows metadata deploys
write) answer the same rows as the data API, their URLs under ``tooling/sobjects``. Anything else fails as a data-API
query of an unknown object does (INVALID_TYPE). ``GET tooling/sobjects`` lists the Tooling
objects answered here. Schema changes through the Tooling API are not served by this module.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.emulator.rest.bulk.bulk_csv import object_of_query
from crmarena_sf.emulator.rest.data.query import batch_size
from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route

TOOLING_OBJECTS = {
    "ApexClass": ("01p", "Apex Class", "Apex Classes"),
    "ApexComponent": ("099", "Visualforce Component", "Visualforce Components"),
    "ApexLog": ("07L", "Apex Debug Log", "Apex Debug Logs"),
    "ApexPage": ("066", "Visualforce Page", "Visualforce Pages"),
    "ApexTrigger": ("01q", "Apex Trigger", "Apex Triggers"),
    "DebugLevel": ("7dl", "Debug Level", "Debug Levels"),
    "SandboxInfo": ("0GQ", "Sandbox", "Sandboxes"),
    "SandboxProcess": ("0GR", "Sandbox Process", "Sandbox Processes"),
    "SourceMember": ("0MZ", "Source Member", "Source Members"),
    "StaticResource": ("081", "Static Resource", "Static Resources"),
    "TraceFlag": ("7tf", "Trace Flag", "Trace Flags"),
}
"""Tooling objects an emulated org has none of: name -> (key prefix, label, plural label)."""


def _tooling_name(name: str) -> str | None:
    return next((known for known in TOOLING_OBJECTS if known.lower() == name.lower()), None)


def _tooling_urls(value: Any, data_path: str) -> Any:
    """A data-API answer with its record URLs under ``tooling/sobjects``."""
    if isinstance(value, dict):
        return {k: _tooling_urls(v, data_path) for k, v in value.items()}
    if isinstance(value, list):
        return [_tooling_urls(v, data_path) for v in value]
    if isinstance(value, str) and value.startswith(f"{data_path}/sobjects/"):
        return f"{data_path}/tooling/sobjects/" + value[len(f"{data_path}/sobjects/") :]
    return value


def tooling_query(call: RestCall) -> Response:
    """``GET tooling/query?q=``."""
    from crmarena_sf.emulator import soql
    from crmarena_sf.emulator.errors import SalesforceError

    text = call.request.param("q") or ""
    if not text.strip():
        raise SalesforceError("MALFORMED_QUERY", "A query string has to be specified")
    name = object_of_query(text)
    known = _tooling_name(name)
    if known is not None and call.org.schema.get(name) is None:
        return json_response(
            200,
            {
                "size": 0,
                "totalSize": 0,
                "done": True,
                "queryLocator": None,
                "entityTypeName": known,
                "records": [],
            },
        )
    page = soql.query(call.org, text, batch_size=batch_size(call), api_version=call.version)
    obj = call.org.schema.get(name)
    body = {
        "size": page["totalSize"],
        "totalSize": page["totalSize"],
        "done": page["done"],
        "queryLocator": None,
        "entityTypeName": obj.name if obj is not None else name,
        "records": _tooling_urls(page["records"], call.data_path),
    }
    if page.get("nextRecordsUrl"):
        body["nextRecordsUrl"] = page["nextRecordsUrl"]
        body["queryLocator"] = page["nextRecordsUrl"].rsplit("/", 1)[-1]
    return json_response(200, body)


def tooling_sobjects(call: RestCall) -> Response:
    """``GET tooling/sobjects``: the Tooling objects served, as a global describe lists objects."""
    entries = []
    for name, (prefix, label, plural) in sorted(TOOLING_OBJECTS.items()):
        base = f"{call.data_path}/tooling/sobjects/{name}"
        entries.append(
            {
                "activateable": False,
                "createable": False,
                "custom": False,
                "customSetting": False,
                "deletable": False,
                "deprecatedAndHidden": False,
                "feedEnabled": False,
                "keyPrefix": prefix,
                "label": label,
                "labelPlural": plural,
                "layoutable": False,
                "mergeable": False,
                "mruEnabled": False,
                "name": name,
                "queryable": True,
                "replicateable": False,
                "retrieveable": True,
                "searchable": False,
                "triggerable": False,
                "undeletable": False,
                "updateable": False,
                "urls": {"sobject": base, "describe": f"{base}/describe", "rowTemplate": f"{base}/{{ID}}"},
            }
        )
    return json_response(200, {"encoding": "UTF-8", "maxBatchSize": 200, "sobjects": entries})


ROUTES = [
    Route(r"tooling/query", GET=tooling_query),
    Route(r"tooling/sobjects", GET=tooling_sobjects),
]
