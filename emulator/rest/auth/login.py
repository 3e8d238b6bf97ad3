"""Logins and logouts: the SOAP partner ``login`` and ``logout`` calls, the OAuth 2.0 token and revoke endpoints.

``POST /services/Soap/u/XX.X`` with ``<login><username/><password/></login>`` answers a
``loginResponse`` whose ``serverUrl`` and ``sessionId`` elements are unprefixed (simple-salesforce
reads them with ``getElementsByTagName``); a refused login is HTTP 500 with the fault
``INVALID_LOGIN`` ``Invalid username, password, security token; or user locked out.``
``POST /services/oauth2/token`` (password, client_credentials, JWT bearer or refresh_token grant)
answers ``{"access_token", "instance_url", "id", "token_type", "issued_at", "signature"}``, ``id``
being the user's identity URL on the emulator; errors are
``{"error", "error_description"}`` (OAuth 2.0 token endpoint, Salesforce Help
"OAuth 2.0 Username-Password Flow"). A username names the org's user with that name; in
process (and in the ``responses`` mock) any non-empty username and password log in, as that
user or else the admin user, while ``crmarena-sf serve``'s strict grant policy takes only its
users and the password it printed, with or without the security token appended
(:mod:`crmarena_sf.emulator.rest.auth.grants`). The SOAP calls arrive through the partner
API's entry point (:mod:`crmarena_sf.emulator.rest.partner.soap_api`).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import time
from typing import TYPE_CHECKING
from urllib.parse import parse_qs
from xml.sax.saxutils import escape

from crmarena_sf.emulator.rest.auth.grants import GrantRefused
from crmarena_sf.emulator.rest.transport.messages import Headers, Request, Response
from crmarena_sf.emulator.rest.transport.soap_envelope import UnreadableEnvelope, element_texts
from crmarena_sf.emulator.store.seed import ORGANIZATION_ID, SYSTEM_ADMINISTRATOR_PROFILE_ID
from crmarena_sf.emulator.store.users import OrgUser, login_user, user_by_id
from crmarena_sf.metadata import API_VERSION

if TYPE_CHECKING:
    from crmarena_sf.emulator.rest.transport.router import Router

_SOAP_VERSION = re.compile(r"/services/Soap/u/([^/]+)", re.IGNORECASE)
INVALID_LOGIN = "Invalid username, password, security token; or user locked out."


def handle(router: Router, request: Request) -> Response:
    """Answer an OAuth token request or a token revocation (SOAP logins come through the partner API,
    :mod:`crmarena_sf.emulator.rest.partner.soap_api`)."""
    if request.method != "POST":
        return _json(405, {"error": "invalid_request", "error_description": "must use HTTP POST"})
    if request.path.lower().rstrip("/").endswith("/oauth2/revoke"):
        return revoke(router, request)
    return oauth_token(router, request)


# ---------------------------------------------------------------------------- users
def _user(router: Router, username: str) -> OrgUser | None:
    """The org's active user with ``username``, else the admin user (None when only known users may log in,
    as a served org's strict grant policy asks)."""
    known_only = router.known_users_only or router.grants.strict
    return login_user(router.org, username, known_users_only=known_only)


def _password_login(router: Router, username: str, password: str) -> OrgUser | None:
    """The user a username-password login logs in, or None when it is refused."""
    if not username or not password or not router.grants.password_accepted(password):
        return None
    return _user(router, username)


# ---------------------------------------------------------------------------- SOAP
def soap_login(router: Router, request: Request) -> Response:
    """The partner WSDL ``login`` call."""
    version = (
        (_SOAP_VERSION.search(request.path).group(1)) if _SOAP_VERSION.search(request.path) else API_VERSION
    )
    try:
        fields = element_texts(request.body or b"<empty/>", ("username", "password"))
    except UnreadableEnvelope:
        return soap_fault("soapenv:Client", "INVALID_LOGIN", INVALID_LOGIN)
    user = _password_login(router, fields.get("username", "").strip(), fields.get("password", ""))
    if user is None:
        return soap_fault("sf:INVALID_LOGIN", "INVALID_LOGIN", INVALID_LOGIN)
    session_id = router.issue_session(user_id=user.id)
    instance = request.instance_url.rstrip("/")
    org_id = ORGANIZATION_ID
    result = (
        f"<metadataServerUrl>{instance}/services/Soap/m/{version}/{org_id[:15]}</metadataServerUrl>"
        "<passwordExpired>false</passwordExpired><sandbox>false</sandbox>"
        f"<serverUrl>{instance}/services/Soap/u/{version}/{org_id[:15]}</serverUrl>"
        f"<sessionId>{escape(session_id)}</sessionId><userId>{user.id}</userId>"
        f"<userInfo>{user_info_xml(user)}</userInfo>"
    )
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope '
        'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns="urn:partner.soap.sforce.com" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body><loginResponse><result>'
        f"{result}</result></loginResponse></soapenv:Body></soapenv:Envelope>"
    )
    return Response(200, Headers({"Content-Type": "text/xml;charset=UTF-8"}), body.encode("utf-8"))


def user_info_xml(user: OrgUser) -> str:
    """The children of a ``GetUserInfoResult`` (a login's ``userInfo``, ``getUserInfo()``'s result) for ``user``."""
    org_id = ORGANIZATION_ID
    return (
        "<accessibilityMode>false</accessibilityMode><currencySymbol>$</currencySymbol>"
        "<orgAttachmentFileSizeLimit>5242880</orgAttachmentFileSizeLimit><orgDefaultCurrencyIsoCode>USD"
        "</orgDefaultCurrencyIsoCode><orgDisallowHtmlAttachments>false</orgDisallowHtmlAttachments>"
        "<orgHasPersonAccounts>true</orgHasPersonAccounts>"
        f"<organizationId>{org_id}</organizationId><organizationMultiCurrency>false</organizationMultiCurrency>"
        "<organizationName>CRMArena Shoes &amp; Clothings</organizationName>"
        f'<profileId>{SYSTEM_ADMINISTRATOR_PROFILE_ID[:15]}</profileId><roleId xsi:nil="true"/><sessionSecondsValid>7200</sessionSecondsValid>'
        f'<userDefaultCurrencyIsoCode xsi:nil="true"/><userEmail>{escape(user.email)}</userEmail>'
        f"<userFullName>{escape(user.name)}</userFullName><userId>{user.id}</userId>"
        f"<userLanguage>en_US</userLanguage><userLocale>en_US</userLocale><userName>{escape(user.username)}</userName>"
        "<userTimeZone>GMT</userTimeZone><userType>Standard</userType><userUiSkin>Theme3</userUiSkin>"
    )


def soap_fault(
    fault_code: str, exception_code: str, message: str, fault_type: str = "LoginFault"
) -> Response:
    """A partner API fault (HTTP 500); without ``exception_code`` the bare fault of the SOAP engine
    (an operation it does not know), with no ``detail``."""
    if exception_code:
        text = f"{exception_code}: {escape(message)}"
        detail = (
            f'<detail><sf:{fault_type} xsi:type="sf:{fault_type}">'
            f"<sf:exceptionCode>{exception_code}</sf:exceptionCode><sf:exceptionMessage>{escape(message)}"
            f"</sf:exceptionMessage></sf:{fault_type}></detail>"
        )
    else:
        text, detail = escape(message), ""
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope '
        'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:sf="urn:fault.partner.soap.sforce.com" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body><soapenv:Fault>'
        f"<faultcode>{fault_code}</faultcode><faultstring>{text}</faultstring>"
        f"{detail}</soapenv:Fault></soapenv:Body></soapenv:Envelope>"
    )
    return Response(500, Headers({"Content-Type": "text/xml;charset=UTF-8"}), body.encode("utf-8"))


# ---------------------------------------------------------------------------- OAuth
def oauth_token(router: Router, request: Request) -> Response:
    """The token endpoint: password, client_credentials and JWT bearer grants."""
    form = {
        k: v[0] for k, v in parse_qs(request.body.decode("utf-8", "replace"), keep_blank_values=True).items()
    }
    for key, values in request.query.items():
        form.setdefault(key, values[0])
    grant = form.get("grant_type", "")
    if grant == "password":
        if not form.get("client_id"):
            return _json(
                400, {"error": "invalid_client_id", "error_description": "client identifier invalid"}
            )
        if _password_login(router, form.get("username") or "", form.get("password") or "") is None:
            return _json(400, {"error": "invalid_grant", "error_description": "authentication failure"})
        username = form["username"]
    elif grant == "client_credentials":
        if not (request.headers.get("Authorization") or form.get("client_id")):
            return _json(
                400, {"error": "invalid_client_id", "error_description": "client identifier invalid"}
            )
        username = ""
    elif grant == "urn:ietf:params:oauth:grant-type:jwt-bearer":
        try:
            username = router.grants.jwt_subject(form.get("assertion") or "", request.instance_url)
        except GrantRefused as exc:
            return _json(400, {"error": exc.error, "error_description": exc.description})
        if router.grants.strict and login_user(router.org, username, known_users_only=True) is None:
            return _json(
                400, {"error": "invalid_grant", "error_description": "user hasn't approved this consumer"}
            )
    elif grant == "refresh_token":
        # A refresh token the router's grant policy knows (emulator.rest.auth.grants): with serve, the
        # one it printed (as `sf org login sfdx-url` reads it); in-process, any.
        if not form.get("client_id") and not request.headers.get("Authorization"):
            return _json(
                400, {"error": "invalid_client_id", "error_description": "client identifier invalid"}
            )
        try:
            refreshed_user = router.grants.refresh(form.get("refresh_token") or "")
        except GrantRefused as exc:
            return _json(400, {"error": exc.error, "error_description": exc.description})
        username = ""
    else:
        return _json(
            400, {"error": "unsupported_grant_type", "error_description": "grant type not supported"}
        )
    user = _user(router, username) if grant == "password" or username else _user(router, "")
    if user is None and grant == "password":
        return _json(400, {"error": "invalid_grant", "error_description": "authentication failure"})
    if grant == "refresh_token" and refreshed_user is not None:
        user = user_by_id(router.org, refreshed_user)
    user = user or user_by_id(router.org, router.org.user_id)
    token = router.issue_session(user_id=user.id)
    issued = str(int(time.time() * 1000))
    instance = request.instance_url.rstrip("/")
    # The identity URL points at the emulator (a real org's points at its login host), so clients
    # that follow it (jsforce identity(), the sf CLI) reach the /id resource served here.
    identity = f"{instance}/id/{ORGANIZATION_ID}/{user.id}"
    signature = base64.b64encode(hashlib.sha256(f"{identity}{issued}".encode()).digest()).decode("ascii")
    body = {
        "access_token": token,
        "instance_url": instance,
        "id": identity,
        "token_type": "Bearer",
        "issued_at": issued,
        "signature": signature,
    }
    if grant == "refresh_token":
        body["scope"] = "refresh_token api full"
    return _json(200, body)


def revoke(router: Router, request: Request) -> Response:
    """``POST /services/oauth2/revoke`` with ``token=``: the session ends (Salesforce Help, "Revoke OAuth Tokens")."""
    form = {k: v[0] for k, v in parse_qs(request.body.decode("utf-8", "replace")).items()}
    token = form.get("token") or request.param("token")
    if not token or not (
        router.end_session(token) or router.grants.revoke(token) or router.accept_any_session
    ):
        return _json(
            400, {"error": "unsupported_token_type", "error_description": "this token type is not supported"}
        )
    return Response(200, Headers({"Content-Type": "application/json;charset=UTF-8"}), b"")


# ---------------------------------------------------------------------------- SOAP logout
def soap_logout(router: Router, request: Request) -> Response:
    """The partner WSDL ``logout`` call: the SessionHeader's session ends (SOAP API Developer Guide, logout())."""
    try:
        session_id = element_texts(request.body, ("sessionId",)).get("sessionId", "").strip()
    except UnreadableEnvelope:
        session_id = ""
    if not (router.end_session(session_id) or (router.accept_any_session and session_id)):
        return soap_fault(
            "sf:INVALID_SESSION_ID",
            "INVALID_SESSION_ID",
            "Invalid Session ID found in SessionHeader: Illegal Session",
            fault_type="UnexpectedErrorFault",
        )
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope '
        'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns="urn:partner.soap.sforce.com">'
        "<soapenv:Body><logoutResponse/></soapenv:Body></soapenv:Envelope>"
    )
    return Response(200, Headers({"Content-Type": "text/xml;charset=UTF-8"}), body.encode("utf-8"))


def _json(status: int, payload: dict) -> Response:
    return Response(
        status, Headers({"Content-Type": "application/json;charset=UTF-8"}), json.dumps(payload).encode()
    )
