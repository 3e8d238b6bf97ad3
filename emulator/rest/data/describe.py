"""Describes and limits: ``sobjects``, ``sobjects/<Object>`` (basic information),
``sobjects/<Object>/describe`` and ``limits``.

Shapes follow the REST API Developer Guide (resources_describeGlobal.htm,
resources_sobject_basic_info.htm, resources_sobject_describe.htm, resources_limits.htm).
The describe documents in ``metadata/describes`` were taken at v62.0; URLs inside them are
rewritten to the version the client asked for. Serialised documents are cached per org.
"""

from __future__ import annotations

import json
from typing import Any

from crmarena_sf.emulator.rest.transport.messages import Headers, Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route
from crmarena_sf.emulator.store import storage
from crmarena_sf.metadata import API_VERSION
from crmarena_sf.metadata.model import SObject

SOURCE_PREFIX = f"/services/data/v{API_VERSION}"
"""The data path written in the stored describe documents."""

GLOBAL_DESCRIBE_KEYS = (
    "activateable",
    "associateEntityType",
    "associateParentEntity",
    "createable",
    "custom",
    "customSetting",
    "deepCloneable",
    "deletable",
    "deprecatedAndHidden",
    "feedEnabled",
    "hasSubtypes",
    "isInterface",
    "isSubtype",
    "keyPrefix",
    "label",
    "labelPlural",
    "layoutable",
    "mergeable",
    "mruEnabled",
    "name",
    "queryable",
    "replicateable",
    "retrieveable",
    "searchable",
    "triggerable",
    "undeletable",
    "updateable",
    "urls",
)
"""The keys of one ``sobjects[]`` entry of a global describe (DescribeGlobalSObjectResult)."""


def cached_json(call: RestCall, key: tuple, build) -> Response:
    """A JSON response whose body is built once per org, key and API version."""
    cache: dict = call.org.cache.setdefault("rest.describe", {})
    cache_key = (*key, call.version)
    body = cache.get(cache_key)
    if body is None:
        text = json.dumps(build(), ensure_ascii=False, separators=(",", ":"))
        body = text.replace(SOURCE_PREFIX, call.data_path).encode("utf-8")
        cache[cache_key] = body
    return Response(200, Headers({"Content-Type": "application/json;charset=UTF-8"}), body)


def global_entry(obj: SObject) -> dict[str, Any]:
    """One object as the global describe lists it."""
    doc = obj.model_dump()
    return {key: doc[key] for key in GLOBAL_DESCRIBE_KEYS if key in doc}


def global_describe(call: RestCall) -> Response:
    """``GET sobjects``: every object of the org, sorted by name as Salesforce lists them."""

    def build() -> dict[str, Any]:
        objects = sorted(call.org.schema, key=lambda o: o.name.lower())
        return {"encoding": "UTF-8", "maxBatchSize": 200, "sobjects": [global_entry(o) for o in objects]}

    return cached_json(call, ("global",), build)


def basic_info(call: RestCall, name: str) -> Response:
    """``GET sobjects/<Object>``: the object's global-describe entry and recently viewed items (none)."""
    obj = call.sobject(name)
    return cached_json(
        call, ("info", obj.name), lambda: {"objectDescribe": global_entry(obj), "recentItems": []}
    )


def describe(call: RestCall, name: str) -> Response:
    """``GET sobjects/<Object>/describe``: the full describe document."""
    obj = call.sobject(name)
    return cached_json(call, ("describe", obj.name), obj.model_dump)


LIMIT_MAXIMUMS = {
    "ConcurrentAsyncGetReportInstances": 200,
    "ConcurrentSyncReportRuns": 20,
    "DailyApiRequests": 15000,
    "DailyAsyncApexExecutions": 250000,
    "DailyBulkApiBatches": 15000,
    "DailyBulkV2QueryFileStorageMB": 976562,
    "DailyBulkV2QueryJobs": 10000,
    "HourlySyncReportRuns": 500,
    "MassEmail": 10,
    "SingleEmail": 15,
}
"""A Developer Edition org's allowances, by the names ``GET limits`` uses."""


def limits(call: RestCall) -> Response:
    """``GET limits``: ``{Name: {"Max", "Remaining"}}``; API requests and Bulk jobs count down as used,
    ``DataStorageMB`` by what the org's records use (:mod:`crmarena_sf.emulator.store.storage`), in whole MB."""
    used = {
        "DailyApiRequests": call.router.api_requests,
        "DailyBulkV2QueryJobs": call.router.state.get("bulk2.query_jobs", 0),
        "DailyBulkApiBatches": call.router.state.get("bulk2.ingest_jobs", 0),
    }
    body = {
        name: {"Max": maximum, "Remaining": max(0, maximum - int(used.get(name, 0)))}
        for name, maximum in LIMIT_MAXIMUMS.items()
    }
    used_mb = storage.used_kb(call.org) / 1024
    body["DataStorageMB"] = {
        "Max": storage.DEVELOPER_EDITION_DATA_MB,
        "Remaining": max(0, int(storage.DEVELOPER_EDITION_DATA_MB - used_mb)),
    }
    body["FileStorageMB"] = {
        "Max": storage.DEVELOPER_EDITION_FILE_MB,
        "Remaining": storage.DEVELOPER_EDITION_FILE_MB,
    }
    return json_response(200, dict(sorted(body.items())))


ROUTES = [
    Route(r"sobjects", GET=global_describe, read_only=True),
    Route(r"sobjects/(?P<name>[^/]+)/describe", GET=describe, read_only=True),
    Route(r"limits", GET=limits),
]
