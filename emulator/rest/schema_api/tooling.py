"""The Tooling API as clients use it at login: ``tooling/query`` and ``tooling/sobjects``.

Tooling API Developer Guide, "Query" and "SObjects"
(https://developer.salesforce.com/docs/atlas.en-us.api_tooling.meta/api_tooling/intro_rest_resources.htm):
``GET tooling/query?q=`` answers ``{"size", "totalSize", "done", "queryLocator",
"entityTypeName", "records"}``. The sf CLI asks it about sandboxes when it logs in
(``SandboxProcess``); an emulated org has no sandboxes or debug logs, so those objects answer
no rows. Objects the org itself holds (``User``, ``Organization``, and ``ApexClass``,
``ApexTrigger``, ``ApexPage``, ``ApexComponent``, ``StaticResource``, whose rows metadata deploys
write) answer the same rows as the data API, their URLs under ``tooling/sobjects``;
``EntityDefinition``, ``FieldDefinition``, ``CustomObject`` and ``CustomField`` describe the org's
schema (:mod:`crmarena_sf.emulator.rest.schema_api.tooling_definitions`). Anything else fails as a
data-API query of an unknown object does (INVALID_TYPE). ``GET tooling/sobjects`` lists the
Tooling objects answered here; ``tooling/sobjects/<Object>/describe`` and
``tooling/sobjects/<Object>/<Id>`` describe an object and read a record ("SObject Describe",
"SObject Rows"). Schema changes through the Tooling API are not served by this module.
"""

from __future__ import annotations

import json
from typing import Any

from crmarena_sf.emulator.errors import not_found
from crmarena_sf.emulator.rest.bulk.bulk_csv import object_of_query
from crmarena_sf.emulator.rest.data.describe import SOURCE_PREFIX
from crmarena_sf.emulator.rest.data.query import batch_size
from crmarena_sf.emulator.rest.schema_api.tooling_definitions import (
    DEFINITION_OBJECTS,
    definitions_org,
    definitions_schema,
    query_definitions,
)
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
    if name.lower() in {d.lower() for d in DEFINITION_OBJECTS}:
        page = query_definitions(call.org, text, batch_size(call), call.version)
        return json_response(200, _tooling_body(call, page, definitions_schema().get(name).name))
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
    return json_response(200, _tooling_body(call, page, obj.name if obj is not None else name))


def _tooling_body(call: RestCall, page: dict, entity: str) -> dict:
    body = {
        "size": page["totalSize"],
        "totalSize": page["totalSize"],
        "done": page["done"],
        "queryLocator": None,
        "entityTypeName": entity,
        "records": _tooling_urls(page["records"], call.data_path),
    }
    if page.get("nextRecordsUrl"):
        body["nextRecordsUrl"] = page["nextRecordsUrl"]
        body["queryLocator"] = page["nextRecordsUrl"].rsplit("/", 1)[-1]
    return body


def _tooling_object(call: RestCall, name: str):
    """The Tooling object ``name``: a definition object, or an object of the org."""
    found = definitions_schema().get(name)
    if found is not None and found.name in DEFINITION_OBJECTS:
        return found, True
    obj = call.org.schema.get(name)
    if obj is None:
        raise not_found()
    return obj, False


def tooling_describe(call: RestCall, name: str) -> Response:
    """``GET tooling/sobjects/<Object>/describe``: the object's describe, its URLs under ``tooling/``."""
    obj, _definition = _tooling_object(call, name)
    document = _tooling_urls(
        json.loads(json.dumps(obj.model_dump()).replace(SOURCE_PREFIX, call.data_path)), call.data_path
    )
    return json_response(200, document)


def tooling_record(call: RestCall, name: str, record_id: str) -> Response:
    """``GET tooling/sobjects/<Object>/<Id>``: one record, every field."""
    from crmarena_sf.emulator import soql

    obj, definition = _tooling_object(call, name)
    org = definitions_org(call.org) if definition else call.org
    columns = ", ".join(f.name for f in obj.fields if not f.is_compound)
    rows = soql.select_records(org, obj.name, columns, restrict_ids=[record_id], api_version=call.version)
    if not rows:
        raise not_found()
    return json_response(200, _tooling_urls(rows[0], call.data_path))


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
    Route(r"tooling/sobjects/(?P<name>[^/]+)/describe", GET=tooling_describe, read_only=True),
    Route(r"tooling/sobjects/(?P<name>[^/]+)/(?P<record_id>[^/]+)", GET=tooling_record),
]
