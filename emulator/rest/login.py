"""Logins: the SOAP partner ``login`` call and the OAuth 2.0 token endpoint.

``POST /services/Soap/u/XX.X`` with ``<login><username/><password/></login>`` answers a
``loginResponse`` whose ``serverUrl`` and ``sessionId`` elements are unprefixed (simple-salesforce
reads them with ``getElementsByTagName``); a refused login is HTTP 500 with the fault
``INVALID_LOGIN`` ``Invalid username, password, security token; or user locked out.``
``POST /services/oauth2/token`` (password, client_credentials or JWT bearer grant) answers
``{"access_token", "instance_url", "id", "token_type", "issued_at", "signature"}``; errors are
``{"error", "error_description"}`` (OAuth 2.0 token endpoint, Salesforce Help
"OAuth 2.0 Username-Password Flow"). The emulator keeps no passwords: any non-empty
username logs in as that user when the org has one, else as the admin user.
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

from emulator.errors import SalesforceError
from emulator.rest.json_body import parse_json_body
from emulator.rest.messages import Headers, Request, Response
from emulator.rest.soap_envelope import UnreadableEnvelope, element_texts
from emulator.store.seed import ORGANIZATION_ID, SYSTEM_ADMINISTRATOR_PROFILE_ID

if TYPE_CHECKING:
    from emulator.rest.router import Router

_SOAP_VERSION = re.compile(r"/services/Soap/u/([^/]+)", re.IGNORECASE)
INVALID_LOGIN = "Invalid username, password, security token; or user locked out."


def handle(router: Router, request: Request) -> Response:
    """Answer a SOAP login or an OAuth token request."""
    if request.method != "POST":
        return _json(405, {"error": "invalid_request", "error_description": "must use HTTP POST"})
    if "/oauth2/" in request.path.lower():
        return oauth_token(router, request)
    return soap_login(router, request)


# ---------------------------------------------------------------------------- users
def _user(router: Router, username: str) -> dict[str, str] | None:
    """The org's active user with ``username`` (any casing), else the admin user (None when only known users may log in)."""
    org = router.org
    row = None
    user = org.schema.get("User")
    if user is not None:
        with org.lock:
            row = org.con.execute(
                'SELECT "Id", "Username", "Name", "Email" FROM "User" WHERE lower("Username") = lower(?) '
                'AND coalesce("IsActive", true) LIMIT 1',
                [username],
            ).fetchone()
            if row is None and router.known_users_only:
                return None
            if row is None:
                row = org.con.execute(
                    'SELECT "Id", "Username", "Name", "Email" FROM "User" WHERE "Id" = ?', [org.user_id]
                ).fetchone()
    if row is None:
        return {"id": org.user_id, "username": username, "name": username, "email": username}
    return {"id": row[0], "username": row[1] or username, "name": row[2] or "", "email": row[3] or ""}


def _admin(router: Router) -> dict[str, str]:
    org = router.org
    return {"id": org.user_id, "username": "", "name": "", "email": ""}


# ---------------------------------------------------------------------------- SOAP
def soap_login(router: Router, request: Request) -> Response:
    """The partner WSDL ``login`` call."""
    version = (_SOAP_VERSION.search(request.path).group(1)) if _SOAP_VERSION.search(request.path) else "62.0"
    try:
        fields = element_texts(request.body or b"<empty/>", ("username", "password"))
    except UnreadableEnvelope:
        return _soap_fault("soapenv:Client", "INVALID_LOGIN", INVALID_LOGIN)
    username = fields.get("username", "").strip()
    password = fields.get("password", "")
    if not username or not password:
        return _soap_fault("sf:INVALID_LOGIN", "INVALID_LOGIN", INVALID_LOGIN)
    user = _user(router, username)
    if user is None:
        return _soap_fault("sf:INVALID_LOGIN", "INVALID_LOGIN", INVALID_LOGIN)
    session_id = router.issue_session()
    instance = request.instance_url.rstrip("/")
    org_id = ORGANIZATION_ID
    result = (
        f"<metadataServerUrl>{instance}/services/Soap/m/{version}/{org_id[:15]}</metadataServerUrl>"
        "<passwordExpired>false</passwordExpired><sandbox>false</sandbox>"
        f"<serverUrl>{instance}/services/Soap/u/{version}/{org_id[:15]}</serverUrl>"
        f"<sessionId>{escape(session_id)}</sessionId><userId>{user['id']}</userId>"
        "<userInfo><accessibilityMode>false</accessibilityMode><currencySymbol>$</currencySymbol>"
        "<orgAttachmentFileSizeLimit>5242880</orgAttachmentFileSizeLimit><orgDefaultCurrencyIsoCode>USD"
        "</orgDefaultCurrencyIsoCode><orgDisallowHtmlAttachments>false</orgDisallowHtmlAttachments>"
        "<orgHasPersonAccounts>true</orgHasPersonAccounts>"
        f"<organizationId>{org_id}</organizationId><organizationMultiCurrency>false</organizationMultiCurrency>"
        "<organizationName>CRMArena Shoes &amp; Clothings</organizationName>"
        f'<profileId>{SYSTEM_ADMINISTRATOR_PROFILE_ID[:15]}</profileId><roleId xsi:nil="true"/><sessionSecondsValid>7200</sessionSecondsValid>'
        f'<userDefaultCurrencyIsoCode xsi:nil="true"/><userEmail>{escape(user["email"])}</userEmail>'
        f"<userFullName>{escape(user['name'])}</userFullName><userId>{user['id']}</userId>"
        f"<userLanguage>en_US</userLanguage><userLocale>en_US</userLocale><userName>{escape(user['username'])}</userName>"
        "<userTimeZone>GMT</userTimeZone><userType>Standard</userType><userUiSkin>Theme3</userUiSkin></userInfo>"
    )
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope '
        'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns="urn:partner.soap.sforce.com" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body><loginResponse><result>'
        f"{result}</result></loginResponse></soapenv:Body></soapenv:Envelope>"
    )
    return Response(200, Headers({"Content-Type": "text/xml;charset=UTF-8"}), body.encode("utf-8"))


def _soap_fault(fault_code: str, exception_code: str, message: str) -> Response:
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope '
        'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:sf="urn:fault.partner.soap.sforce.com" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body><soapenv:Fault>'
        f"<faultcode>{fault_code}</faultcode><faultstring>{exception_code}: {escape(message)}</faultstring>"
        '<detail><sf:LoginFault xsi:type="sf:LoginFault">'
        f"<sf:exceptionCode>{exception_code}</sf:exceptionCode><sf:exceptionMessage>{escape(message)}"
        "</sf:exceptionMessage></sf:LoginFault></detail></soapenv:Fault></soapenv:Body></soapenv:Envelope>"
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
        if not form.get("username") or not form.get("password"):
            return _json(400, {"error": "invalid_grant", "error_description": "authentication failure"})
        username = form["username"]
    elif grant == "client_credentials":
        if not (request.headers.get("Authorization") or form.get("client_id")):
            return _json(
                400, {"error": "invalid_client_id", "error_description": "client identifier invalid"}
            )
        username = ""
    elif grant == "urn:ietf:params:oauth:grant-type:jwt-bearer":
        subject = _jwt_subject(form.get("assertion") or "")
        if subject is None:
            return _json(400, {"error": "invalid_grant", "error_description": "invalid assertion"})
        username = subject
    else:
        return _json(
            400, {"error": "unsupported_grant_type", "error_description": "grant type not supported"}
        )
    user = _user(router, username) if grant == "password" or username else _user(router, "")
    if user is None and grant == "password":
        return _json(400, {"error": "invalid_grant", "error_description": "authentication failure"})
    user = user or _admin(router)
    token = router.issue_session()
    issued = str(int(time.time() * 1000))
    identity = f"https://login.salesforce.com/id/{ORGANIZATION_ID}/{user['id']}"
    signature = base64.b64encode(hashlib.sha256(f"{identity}{issued}".encode()).digest()).decode("ascii")
    return _json(
        200,
        {
            "access_token": token,
            "instance_url": request.instance_url.rstrip("/"),
            "id": identity,
            "token_type": "Bearer",
            "issued_at": issued,
            "signature": signature,
        },
    )


def _jwt_subject(assertion: str) -> str | None:
    """The ``sub`` claim of a JWT ("" without one), or None when the assertion is not a JWT whose
    payload is a JSON object with a string ``sub`` (the signature is not verified: the emulator
    trusts its callers). OAuth 2.0 JWT Bearer Flow, Salesforce Help: the claims set is a JSON object."""
    parts = assertion.split(".")
    if len(parts) != 3:
        return None
    payload = parts[1] + "=" * (-len(parts[1]) % 4)
    try:
        claims = parse_json_body(base64.urlsafe_b64decode(payload.encode("ascii")))
    except (ValueError, SalesforceError):  # binascii.Error and UnicodeEncodeError are ValueErrors
        return None
    if not isinstance(claims, dict):
        return None
    subject = claims.get("sub")
    if subject is None:
        return ""
    return subject if isinstance(subject, str) else None


def _json(status: int, payload: dict) -> Response:
    return Response(
        status, Headers({"Content-Type": "application/json;charset=UTF-8"}), json.dumps(payload).encode()
    )
