"""``limits/recordCount``: how many records each object holds.

REST API Developer Guide, "Record Count"
(https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_record_count.htm):
``GET limits/recordCount[?sObjects=Account,Contact]`` answers ``{"sObjects": [{"count", "name"}]}``;
records in the recycle bin are not counted. Without ``sObjects`` every object that holds
records is listed; names the org does not know are left out.
"""

from __future__ import annotations

from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route


def record_count(call: RestCall) -> Response:
    """``GET limits/recordCount``."""
    wanted = [n.strip() for n in (call.request.param("sObjects") or "").split(",") if n.strip()]
    objects = (
        [call.org.schema.get(n) for n in wanted] if wanted else sorted(call.org.schema, key=lambda o: o.name)
    )
    counts = []
    for obj in objects:
        if obj is None or not call.org.has_table(obj.name):
            continue
        count = call.org.count(obj.name)
        if count or wanted:
            counts.append({"count": count, "name": obj.name})
    return json_response(200, {"sObjects": counts})


ROUTES = [Route(r"limits/recordCount", GET=record_count)]
