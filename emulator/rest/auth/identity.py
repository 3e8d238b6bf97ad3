"""Who is logged in: the identity URL ``/id/<org>/<user>`` and OpenID Connect's ``/services/oauth2/userinfo``.

Salesforce Help, "Identity URLs" (https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_openid.htm)
and "UserInfo Endpoint" (https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_userinfo_endpoint.htm):
both answer JSON describing the user whose access token comes as ``Authorization: Bearer`` (or,
for the identity URL, ``?oauth_token=``); the ``urls`` map keeps Salesforce's literal
``{version}`` placeholder. A request without a valid token is 403 ``Bad_OAuth_Token``; an identity
URL naming another org or an unknown user is 403 ``Bad_Id``. jsforce's ``identity()`` reads the
URL from the ``identity`` entry of ``GET /services/data/vXX.X``; the sf CLI's
``org login access-token`` reads ``preferred_username`` from userinfo.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.rest.transport.messages import Headers, Request, Response, json_response
from crmarena_sf.emulator.store.seed import ORGANIZATION_ID
from crmarena_sf.emulator.store.users import OrgUser, user_by_id

if TYPE_CHECKING:
    from crmarena_sf.emulator.rest.transport.router import Router

_ID_PATH = re.compile(r"^/id/(?P<org>[^/]+)/(?P<user>[^/]+)/?$", re.IGNORECASE)


def handle(router: Router, request: Request) -> Response:
    """Answer ``GET /id/<org>/<user>`` or ``GET|POST /services/oauth2/userinfo``."""
    token = router.session_of(request) or request.param("oauth_token")
    if not router.accepts(token):
        return _forbidden("Bad_OAuth_Token")
    session_user = router.user_of_session(token)
    match = _ID_PATH.match(request.path)
    if match is None:
        user = user_by_id(router.org, session_user)
        return json_response(200, userinfo(request.instance_url, user))
    org_id, user_id = ids.normalize(match.group("org")), ids.normalize(match.group("user"))
    if org_id != ORGANIZATION_ID or user_id is None:
        return _forbidden("Bad_Id")
    user = user_by_id(router.org, user_id)
    if user.id != user_id:
        return _forbidden("Bad_Id")
    return json_response(200, identity(request.instance_url, user))


def _forbidden(reason: str) -> Response:
    return Response(403, Headers({"Content-Type": "text/plain;charset=UTF-8"}), reason.encode())


def _urls(instance: str, user: OrgUser) -> dict[str, str]:
    org15 = ORGANIZATION_ID[:15]
    data = f"{instance}/services/data/v{{version}}"
    return {
        "enterprise": f"{instance}/services/Soap/c/{{version}}/{org15}",
        "metadata": f"{instance}/services/Soap/m/{{version}}/{org15}",
        "partner": f"{instance}/services/Soap/u/{{version}}/{org15}",
        "rest": f"{data}/",
        "sobjects": f"{data}/sobjects/",
        "search": f"{data}/search/",
        "query": f"{data}/query/",
        "recent": f"{data}/recent/",
        "tooling_soap": f"{instance}/services/Soap/T/{{version}}/{org15}",
        "tooling_rest": f"{data}/tooling/",
        "profile": f"{instance}/{user.id}",
        "feeds": f"{data}/chatter/feeds",
        "groups": f"{data}/chatter/groups",
        "users": f"{data}/chatter/users",
        "feed_items": f"{data}/chatter/feed-items",
        "feed_elements": f"{data}/chatter/feed-elements",
        "custom_domain": instance,
    }


def _utc_offset_millis(time_zone: str) -> int:
    try:
        offset = dt.datetime.now(ZoneInfo(time_zone)).utcoffset()
    except (ZoneInfoNotFoundError, ValueError):
        return 0
    return int(offset.total_seconds() * 1000) if offset else 0


def _updated(user: OrgUser) -> str:
    value = user.last_modified if isinstance(user.last_modified, dt.datetime) else dt.datetime(2024, 1, 1)
    return value.strftime("%Y-%m-%dT%H:%M:%S") + "Z"


def _photos(instance: str, user: OrgUser) -> dict[str, str]:
    return {"picture": f"{instance}/profilephoto/005/F", "thumbnail": f"{instance}/profilephoto/005/T"}


def identity(instance_url: str, user: OrgUser) -> dict[str, Any]:
    """The identity URL's JSON for ``user``."""
    instance = instance_url.rstrip("/")
    return {
        "id": f"{instance}/id/{ORGANIZATION_ID}/{user.id}",
        "asserted_user": True,
        "user_id": user.id,
        "organization_id": ORGANIZATION_ID,
        "username": user.username,
        "nick_name": user.username.split("@")[0],
        "display_name": user.name,
        "email": user.email,
        "email_verified": True,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "timezone": user.time_zone,
        "photos": _photos(instance, user),
        "addr_street": None,
        "addr_city": None,
        "addr_state": None,
        "addr_country": None,
        "addr_zip": None,
        "mobile_phone": None,
        "mobile_phone_verified": False,
        "is_lightning_login_user": False,
        "status": {"created_date": None, "body": None},
        "urls": _urls(instance, user),
        "active": user.active,
        "user_type": user.user_type.upper(),
        "language": user.language,
        "locale": user.locale,
        "utcOffset": _utc_offset_millis(user.time_zone),
        "last_modified_date": _updated(user),
        "is_app_installed": True,
    }


def userinfo(instance_url: str, user: OrgUser) -> dict[str, Any]:
    """The OpenID Connect UserInfo document for ``user``."""
    instance = instance_url.rstrip("/")
    return {
        "sub": f"{instance}/id/{ORGANIZATION_ID}/{user.id}",
        "user_id": user.id,
        "organization_id": ORGANIZATION_ID,
        "preferred_username": user.username,
        "nickname": user.username.split("@")[0],
        "name": user.name,
        "email": user.email,
        "email_verified": True,
        "given_name": user.first_name,
        "family_name": user.last_name,
        "zoneinfo": user.time_zone,
        "photos": _photos(instance, user),
        "profile": f"{instance}/{user.id}",
        "picture": _photos(instance, user)["picture"],
        "address": {},
        "is_salesforce_integration_user": False,
        "urls": _urls(instance, user),
        "active": user.active,
        "user_type": user.user_type.upper(),
        "language": user.language,
        "locale": user.locale,
        "utcOffset": _utc_offset_millis(user.time_zone),
        "updated_at": _updated(user),
        "is_app_installed": True,
    }
