"""The partner API's calls about the session and the org: ``getUserInfo()``, ``getServerTimestamp()``, ``describeTabs()``.

SOAP API Developer Guide: "getUserInfo()" answers a ``GetUserInfoResult`` for the session's user
(the same element a login's ``userInfo`` is); "getServerTimestamp()" the server's time in UTC
(``GetServerTimestampResult``: ``timestamp``), here the org's clock; "describeTabs()" one
``DescribeTabSetResult`` per app the user can see, built with the REST API's ``tabs``
(:mod:`crmarena_sf.emulator.rest.data.tabs`).
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.emulator.rest.auth.login import user_info_xml
from crmarena_sf.emulator.rest.data.tabs import tab_sets
from crmarena_sf.emulator.rest.partner.soap_xml import PartnerCall, value_xml
from crmarena_sf.emulator.store.users import user_by_id


def get_user_info(call: PartnerCall) -> str:
    return f"<result>{user_info_xml(user_by_id(call.router.org, call.user_id))}</result>"


def get_server_timestamp(call: PartnerCall) -> str:
    return f"<result>{value_xml('timestamp', call.router.org.clock.now())}</result>"


def _element(name: str, value: Any) -> str:
    if isinstance(value, list):
        return "".join(_element(name, item) for item in value)
    if isinstance(value, dict):
        return f"<{name}>{''.join(_element(k, v) for k, v in value.items())}</{name}>"
    return value_xml(name, value)


def describe_tabs(call: PartnerCall) -> str:
    instance = call.request.instance_url.rstrip("/")
    return "".join(_element("result", tab_set) for tab_set in tab_sets(call.router.org, instance))
