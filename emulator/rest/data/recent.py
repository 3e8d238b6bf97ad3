"""``recent``: the records the user last viewed or referenced.

REST API Developer Guide, "Recently Viewed Items"
(https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_recent_items.htm):
an array of records with ``attributes``, ``Id`` and ``Name``, most recent first, at most
``limit`` (200 by default). Salesforce fills this list when a user views a record in the user
interface (or a query asks ``FOR VIEW``); nobody views an emulated org's records in a browser,
so its list, like that of a freshly loaded org, is empty.
"""

from __future__ import annotations

from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.params import capped_number
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route

MAX_ITEMS = 200


def recent(call: RestCall) -> Response:
    """``GET recent[?limit=n]``."""
    capped_number(call.request.param("limit") or "", MAX_ITEMS)
    return json_response(200, [])


ROUTES = [Route(r"recent", GET=recent)]
