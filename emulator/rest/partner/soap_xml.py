"""What the partner API's calls read and write: the call's element, results and errors as XML.

SOAP API Developer Guide, "Core Data Types Used in API Calls": a result's ``errors`` hold
``fields``, ``message`` and ``statusCode``; an sObject is its ``type``, ``Id``, ``fieldsToNull``
and one element per field (``sObject`` in the partner WSDL); ids lists repeat their element.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.transport.messages import Headers, Request, Response
from crmarena_sf.emulator.rest.transport.xml_body import XmlElement

if TYPE_CHECKING:
    from crmarena_sf.emulator.rest.transport.router import Router

PARTNER_NS = "urn:partner.soap.sforce.com"


@dataclass
class PartnerCall:
    """One partner API call being answered: the router, the request, the operation's element, the session's user."""

    router: Router
    request: Request
    operation: XmlElement
    user_id: str


def texts(element: XmlElement, name: str) -> list[str]:
    """The stripped text of every child named ``name`` (a repeated element such as ``ids``)."""
    return [c.text.strip() for c in element.children if c.name == name]


def text(element: XmlElement, name: str) -> str | None:
    """The stripped text of the first child named ``name``, or None (an empty element is None too)."""
    found = element.child(name)
    value = found.text.strip() if found is not None else ""
    return value or None


def flag(element: XmlElement, name: str) -> bool:
    return (text(element, name) or "").lower() == "true"


def sobject_values(element: XmlElement) -> tuple[str, dict[str, Any]]:
    """An sObject element as ``(type, {field: value})``; ``fieldsToNull`` become None values, ``Id`` stays in."""
    kind = text(element, "type") or ""
    values: dict[str, Any] = {}
    for child in element.children:
        if child.name == "type":
            continue
        if child.name == "fieldsToNull":
            values[child.text.strip()] = None
        elif not child.children:
            values[child.name] = child.text.strip()
    return kind, values


def value_xml(name: str, value: Any) -> str:
    if value is None:
        return f'<{name} xsi:nil="true"/>'
    if isinstance(value, bool):
        value = "true" if value else "false"
    elif isinstance(value, dt.datetime):
        value = value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"
    return f"<{name}>{escape(str(value))}</{name}>"


def errors_xml(error: SalesforceError | None) -> str:
    if error is None:
        return ""
    fields = "".join(f"<fields>{escape(f)}</fields>" for f in error.fields)
    return (
        f"<errors>{fields}<message>{escape(error.message)}</message>"
        f"<statusCode>{error.error_code}</statusCode></errors>"
    )


def soap_response(response: str, content: str) -> Response:
    """``<response>content</response>`` in a partner API envelope, HTTP 200."""
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope '
        'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" '
        f'xmlns="{PARTNER_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        f"<soapenv:Body><{response}>{content}</{response}></soapenv:Body></soapenv:Envelope>"
    )
    return Response(200, Headers({"Content-Type": "text/xml;charset=UTF-8"}), body.encode("utf-8"))
