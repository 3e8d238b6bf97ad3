"""Who is logged in, and logging out: identity URL, userinfo, the refresh-token grant, revocation, SOAP logout.

References: Salesforce Help "Identity URLs" and "UserInfo Endpoint", "OAuth 2.0 Refresh Token
Flow", "Revoke OAuth Tokens"; REST API Developer Guide, resources_versions.htm ("identity" in
the resources by version); SOAP API Developer Guide, logout().
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator.rest import Request, Router
from crmarena_sf.emulator.store.org import Org
from crmarena_sf.emulator.store.seed import ADMIN_USERNAME, ORGANIZATION_ID

from crmarena_sf import connect

INSTANCE = "https://emulator.example.com"


@pytest.fixture
def router() -> Router:
    return Router(Org.new())


def _call(
    router: Router, method: str, path: str, token: str | None = None, body: bytes | str = b"", **headers
):
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return router.handle(Request.from_url(method, INSTANCE + path, headers=headers, body=body))


def _token(router: Router, **form: str):
    body = "&".join(f"{k}={v}" for k, v in form.items())
    return _call(
        router,
        "POST",
        "/services/oauth2/token",
        body=body,
        **{"Content-Type": "application/x-www-form-urlencoded"},
    )


def test_the_token_answer_points_its_identity_url_at_the_emulator(router):
    answer = _token(
        router, grant_type="password", client_id="c", username=ADMIN_USERNAME, password="pw"
    ).json()
    user_id = router.org.user_id
    assert answer["id"] == f"{INSTANCE}/id/{ORGANIZATION_ID}/{user_id}"
    identity = _call(
        router, "GET", f"/id/{ORGANIZATION_ID}/{user_id}?format=json", answer["access_token"]
    ).json()
    assert identity["user_id"] == user_id and identity["organization_id"] == ORGANIZATION_ID
    assert identity["username"] == ADMIN_USERNAME and identity["display_name"] == "Admin User"
    assert identity["urls"]["rest"] == f"{INSTANCE}/services/data/v{{version}}/"
    by_parameter = _call(
        router, "GET", f"/id/{ORGANIZATION_ID}/{user_id}?oauth_token={answer['access_token']}"
    )
    assert by_parameter.status == 200


def test_the_version_resource_lists_identity_and_what_is_served(router):
    token = router.issue_session()
    resources = _call(router, "GET", "/services/data/v62.0", token).json()
    assert resources["identity"] == f"{INSTANCE}/id/{ORGANIZATION_ID}/{router.org.user_id}"
    assert {"sobjects", "query", "tooling", "parameterizedSearch", "recent", "limits", "jobs"} <= set(
        resources
    )


def test_userinfo_and_identity_refuse_what_they_should(router):
    token = router.issue_session()
    info = _call(router, "GET", "/services/oauth2/userinfo", token).json()
    assert info["preferred_username"] == ADMIN_USERNAME and info["organization_id"] == ORGANIZATION_ID
    assert info["sub"] == f"{INSTANCE}/id/{ORGANIZATION_ID}/{router.org.user_id}"
    refused = _call(router, "GET", "/services/oauth2/userinfo", "not-a-session")
    assert (refused.status, refused.body) == (403, b"Bad_OAuth_Token")
    other_org = _call(router, "GET", f"/id/00D000000000001AAA/{router.org.user_id}", token)
    assert (other_org.status, other_org.body) == (403, b"Bad_Id")


def test_refresh_token_grant_and_revocation(router):
    missing = _token(router, grant_type="refresh_token", client_id="PlatformCLI")
    assert missing.status == 400 and missing.json()["error"] == "invalid_grant"
    answer = _token(
        router, grant_type="refresh_token", client_id="PlatformCLI", refresh_token="5Aep-any"
    ).json()
    assert answer["scope"] and answer["instance_url"] == INSTANCE
    token = answer["access_token"]
    assert _call(router, "GET", "/services/data/v62.0/limits", token).status == 200
    revoked = _call(
        router,
        "POST",
        "/services/oauth2/revoke",
        body=f"token={token}",
        **{"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert revoked.status == 200
    assert _call(router, "GET", "/services/data/v62.0/limits", token).status == 401


def test_soap_logout_ends_the_session(router):
    token = router.issue_session()
    envelope = (
        '<se:Envelope xmlns:se="http://schemas.xmlsoap.org/soap/envelope/"><se:Header>'
        f'<SessionHeader xmlns="urn:partner.soap.sforce.com"><sessionId>{token}</sessionId></SessionHeader>'
        '</se:Header><se:Body><logout xmlns="urn:partner.soap.sforce.com"/></se:Body></se:Envelope>'
    )
    out = _call(router, "POST", "/services/Soap/u/62.0", body=envelope, **{"Content-Type": "text/xml"})
    assert out.status == 200 and b"<logoutResponse/>" in out.body
    assert _call(router, "GET", "/services/data/v62.0/limits", token).status == 401
    again = _call(router, "POST", "/services/Soap/u/62.0", body=envelope, **{"Content-Type": "text/xml"})
    assert again.status == 500 and b"INVALID_SESSION_ID" in again.body


def test_simple_salesforce_sees_its_user_through_the_identity_url():
    sf = connect("blank")
    resources = sf.restful("")
    me = sf.session.get(resources["identity"], headers=sf.headers).json()
    assert me["username"] == ADMIN_USERNAME
