"""The partner SOAP endpoint, ``POST /services/Soap/u/XX.X[/<org id>]``: one operation per envelope.

SOAP API Developer Guide (https://developer.salesforce.com/docs/atlas.en-us.api.meta/api/): the
body's one element names the call. ``login`` and ``logout`` are :mod:`crmarena_sf.emulator.rest.auth.login`'s;
every other call needs the ``SessionHeader``'s ``sessionId`` of a session the org issued (else
the fault ``INVALID_SESSION_ID``, which jsforce reads as an expired session and logs in again)
and counts as an API request. The calls served are :data:`CALLS` (``undelete``, ``merge``,
``convertLead``: :mod:`.record_calls`; ``getUserInfo``, ``getServerTimestamp``, ``describeTabs``:
:mod:`.session_calls`). Any other operation is the fault a real org's Axis engine sends for an
operation it does not know, ``No operation available for request
{urn:partner.soap.sforce.com}<operation>``, whatever the session; a refused call is the fault
``sf:<statusCode>`` Salesforce sends (an ``UnexpectedErrorFault``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crmarena_sf.emulator.errors import SalesforceError, not_found
from crmarena_sf.emulator.rest.auth import login
from crmarena_sf.emulator.rest.partner import record_calls, session_calls
from crmarena_sf.emulator.rest.partner.soap_xml import PARTNER_NS, PartnerCall, soap_response
from crmarena_sf.emulator.rest.transport.messages import Request, Response, error_response
from crmarena_sf.emulator.rest.transport.soap_envelope import UnreadableEnvelope, read_envelope
from crmarena_sf.emulator.store.seed import ORGANIZATION_ID

if TYPE_CHECKING:
    from crmarena_sf.emulator.rest.transport.router import Router

CALLS = {
    "undelete": record_calls.undelete,
    "merge": record_calls.merge,
    "convertLead": record_calls.convert_lead,
    "getUserInfo": session_calls.get_user_info,
    "getServerTimestamp": session_calls.get_server_timestamp,
    "describeTabs": session_calls.describe_tabs,
}
"""Operation -> the function answering it with the children of ``<operationResponse>``."""

INVALID_SESSION = "Invalid Session ID found in SessionHeader: Illegal Session"


def handle(router: Router, request: Request, rest: str | None = None) -> Response:
    """Answer one partner API call (see the module docstring) at ``/services/Soap/u/XX.X`` or at the
    ``serverUrl`` a login gives (the version, then the org's 15-character Id); any other path is 404."""
    if rest and rest.strip("/").lower() not in (ORGANIZATION_ID[:15].lower(), ORGANIZATION_ID.lower()):
        return error_response(not_found())
    if request.method != "POST":
        return login.handle(router, request)  # 405, as the token endpoint answers it
    try:
        envelope = read_envelope(request.body or b"")
    except UnreadableEnvelope:
        return login.soap_login(router, request)  # the login's own fault for an unreadable envelope
    body = envelope.child("Body")
    operation = body.children[0] if body is not None and body.children else None
    name = operation.name if operation is not None else ""
    if name in ("login", ""):
        return login.soap_login(router, request)
    if name == "logout":
        return login.soap_logout(router, request)
    answer = CALLS.get(name)
    if answer is None:
        return login.soap_fault(
            "soapenv:Client", "", f"No operation available for request {{{PARTNER_NS}}}{name}"
        )
    header = envelope.child("Header")
    session = header.find("sessionId") if header is not None else None
    session_id = session.text.strip() if session is not None else ""
    if not router.accepts(session_id):
        return login.soap_fault(
            "sf:INVALID_SESSION_ID", "INVALID_SESSION_ID", INVALID_SESSION, fault_type="UnexpectedErrorFault"
        )
    router.count_api_request()
    call = PartnerCall(router, request, operation, router.user_of_session(session_id))
    try:
        content = answer(call)
    except SalesforceError as exc:
        return login.soap_fault(
            f"sf:{exc.error_code}", exc.error_code, exc.message, fault_type="UnexpectedErrorFault"
        )
    return soap_response(f"{name}Response", content)
