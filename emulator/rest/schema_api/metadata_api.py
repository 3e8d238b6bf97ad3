"""The Metadata API over SOAP (``/services/Soap/m/XX.X``): the envelope, the session, and ``createMetadata``.

The other calls are answered by their own modules through :data:`OPERATIONS`: ``describeMetadata``,
``listMetadata`` and ``readMetadata`` (:mod:`.metadata_read`), ``updateMetadata``,
``upsertMetadata``, ``renameMetadata`` and ``deleteMetadata`` (:mod:`.metadata_crud`), ``deploy``,
``checkDeployStatus``, ``retrieve`` and ``checkRetrieveStatus`` (:mod:`.metadata_deploy`).

Why the Metadata API and not the Tooling API: the Tooling API's ``CustomObject`` supports only
query and GET over REST (Tooling API Developer Guide, "CustomObject": "Supported REST HTTP
Methods: Query, GET"), so a new object such as ``Issue__c`` cannot be made there; the Metadata
API creates objects and fields alike, is what simple-salesforce exposes as ``sf.mdapi``
(``sf.mdapi.CustomObject.create([...])``), and is what a real org accepts from any edition
with API access. The request is the WSDL's ``createMetadata`` (Metadata API Developer Guide,
"createMetadata()"): a ``SessionHeader`` with the session id, then up to ten components of one
type, each ``<metadata xsi:type="CustomObject">`` or ``CustomField``; the answer is one
``SaveResult`` per component, in order (``fullName``, ``success``, ``errors`` with
``statusCode``, ``message``, ``fields``), components being saved independently unless an
``AllOrNoneHeader`` asks otherwise. A session the org did not issue is the fault
``INVALID_SESSION_ID``; an operation this emulator does not serve is Axis's
``No operation available for request``, as an unknown operation is on a real org.

The schema change itself is the store's (:mod:`crmarena_sf.emulator.store.schema_changes`); this module
reads the envelope and turns ``CustomField`` metadata into describe fields
(:mod:`crmarena_sf.emulator.rest.schema_api.metadata_types`). The XML is read as a stream with the login's limits
(no DTD, bounded depth; :mod:`crmarena_sf.emulator.rest.transport.soap_envelope`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.schema_api.metadata_types import field_spec, is_true, name_field_spec
from crmarena_sf.emulator.rest.transport.messages import Headers, Request, Response
from crmarena_sf.emulator.rest.transport.soap_envelope import MAX_DEPTH, UnreadableEnvelope, read_envelope
from crmarena_sf.emulator.rest.transport.xml_body import XmlElement
from crmarena_sf.emulator.store.schema_changes import add_custom_field, add_custom_object

if TYPE_CHECKING:
    from crmarena_sf.emulator.rest.transport.router import Router

NAMESPACE = "http://soap.sforce.com/2006/04/metadata"
PATH = re.compile(r"^/services/Soap/m/(?P<version>[^/]+)(?:/.*)?$", re.IGNORECASE)
INVALID_SESSION = "Invalid Session ID found in SessionHeader: Illegal Session"
MAX_METADATA_DEPTH = MAX_DEPTH * 2
"""A custom field with a picklist value set is nine elements below the envelope; allow more."""


def handle(router: Router, request: Request) -> Response:
    """Answer one Metadata API SOAP call."""
    if request.method != "POST":
        return _fault("soapenv:Client", "INVALID_OPERATION", f"HTTP method {request.method} is not allowed")
    try:
        envelope = read_metadata_envelope(request.body or b"")
    except UnreadableEnvelope as exc:
        return _fault("soapenv:Client", "UNKNOWN_EXCEPTION", f"Unable to parse the request: {exc}")
    header, body = envelope.child("Header"), envelope.child("Body")
    session = header.child("SessionHeader") if header else None
    session_id = session.child("sessionId").text.strip() if session and session.child("sessionId") else ""
    if not router.accepts(session_id):
        return _fault("sf:INVALID_SESSION_ID", "INVALID_SESSION_ID", INVALID_SESSION)
    router.count_api_request()
    call = body.children[0] if body and body.children else None
    name = call.name if call is not None else ""
    if name == "createMetadata":
        return _create_metadata(router, header, call)
    answer = OPERATIONS.get(name)
    if answer is None:
        return _fault("soapenv:Client", None, f"No operation available for request {{{NAMESPACE}}}{name}")
    try:
        with router.org.lock:
            return _envelope(f"{name}Response", answer(router.org, call))
    except SalesforceError as exc:
        return _fault("sf:" + exc.error_code, exc.error_code, exc.message)


def _create_metadata(router: Router, header: XmlElement | None, call: XmlElement) -> Response:
    if header and header.child("AllOrNoneHeader") and is_true(_text(header, "AllOrNoneHeader")):
        # Components are saved one by one here and a schema change is not undone: refuse
        # all-or-none before anything is saved rather than pretend to honour it.
        return _fault("soapenv:Client", "INVALID_OPERATION", "AllOrNoneHeader is not supported by this org")
    components = [c for c in call.children if c.name == "metadata"]
    with router.org.lock:
        results = [create_component(router.org, c) for c in components]
    return _envelope("createMetadataResponse", "".join(save_result(name, error) for name, error in results))


def create_component(org, component: XmlElement) -> tuple[str, SalesforceError | None]:
    """Create one component: a custom object or field in the schema, any other type the org lists
    kept as sent; ``(fullName, error or None)``."""
    from crmarena_sf.emulator.rest.schema_api.metadata_crud import store_element
    from crmarena_sf.emulator.rest.schema_api.metadata_read import TYPE_NAMES

    data = element_dict(component)
    full_name = str(data.get("fullName") or "")
    try:
        if xsi_type(component) == "CustomObject":
            _create_object(org, full_name, data)
        elif xsi_type(component) == "CustomField":
            object_name, _, field_name = full_name.partition(".")
            if not field_name.endswith("__c"):
                raise SalesforceError(
                    "FIELD_INTEGRITY_EXCEPTION",
                    f"Custom field names must end with __c: {full_name}",
                    ["fullName"],
                )
            add_custom_field(org, object_name, field_spec(field_name, data))
        elif xsi_type(component) in TYPE_NAMES:
            if not store_element(org, xsi_type(component), component):
                raise SalesforceError(
                    "DUPLICATE_DEVELOPER_NAME", f"There is already a component named {full_name}"
                )
        else:
            raise SalesforceError(
                "INVALID_TYPE", "This type of metadata is not available for this organization"
            )
    except SalesforceError as exc:
        return full_name, exc
    return full_name, None


def _create_object(org, full_name: str, data: dict[str, Any]) -> None:
    for required in ("label", "pluralLabel", "deploymentStatus", "sharingModel"):
        if not data.get(required):
            raise SalesforceError(
                "REQUIRED_FIELD_MISSING", f"Required field is missing: {required}", [required]
            )
    add_custom_object(
        org, full_name, data["label"], data["pluralLabel"], name_field_spec(data.get("nameField"))
    )
    fields = data.get("fields") or []
    for field in fields if isinstance(fields, list) else [fields]:
        add_custom_field(org, full_name, field_spec(str(field.get("fullName") or ""), field))


# ---------------------------------------------------------------------------- XML in
def read_metadata_envelope(body: bytes) -> XmlElement:
    """The SOAP envelope of a Metadata API call (namespaces dropped); refuses DTDs and deep nesting."""
    envelope = read_envelope(body, MAX_METADATA_DEPTH)
    if envelope.name != "Envelope":
        raise UnreadableEnvelope("not a SOAP envelope")
    return envelope


def xsi_type(element: XmlElement) -> str | None:
    """An element's ``xsi:type``, without its prefix (``CustomField``)."""
    written = next((v for k, v in element.attributes.items() if k.rsplit(" ", 1)[-1] == "type"), None)
    return written.rsplit(":", 1)[-1] if written else None


def element_dict(element: XmlElement) -> dict[str, Any]:
    """An element's children as a dict: text for leaves, dicts for nested elements, lists when repeated."""
    out: dict[str, Any] = {}
    for child in element.children:
        value: Any = element_dict(child) if child.children else child.text.strip()
        if child.name in out:
            previous = out[child.name]
            out[child.name] = [*previous, value] if isinstance(previous, list) else [previous, value]
        else:
            out[child.name] = value
    return out


def _text(element: XmlElement, name: str) -> str:
    found = element.child(name)
    return "".join(c.text for c in found.children) if found else ""


# ---------------------------------------------------------------------------- XML out
def save_result(full_name: str, error: SalesforceError | None, created: bool | None = None) -> str:
    """One ``SaveResult`` (``UpsertResult`` with ``created``, ``DeleteResult`` alike) as a ``result`` element."""
    created_tag = "" if created is None else f"<created>{'true' if created else 'false'}</created>"
    if error is None:
        return (
            f"<result>{created_tag}<fullName>{escape(full_name)}</fullName><success>true</success></result>"
        )
    fields = "".join(f"<fields>{escape(f)}</fields>" for f in error.fields)
    return (
        f"<result>{created_tag}<errors>{fields}<message>{escape(error.message)}</message>"
        f"<statusCode>{error.error_code}</statusCode></errors>"
        f"<fullName>{escape(full_name)}</fullName><success>false</success></result>"
    )


def _envelope(response: str, content: str) -> Response:
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope '
        'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        f'xmlns="{NAMESPACE}"><soapenv:Body><{response}>{content}</{response}></soapenv:Body></soapenv:Envelope>'
    )
    return Response(200, Headers({"Content-Type": "text/xml;charset=UTF-8"}), body.encode("utf-8"))


def _fault(fault_code: str, exception_code: str | None, message: str) -> Response:
    text = f"{exception_code}: {message}" if exception_code else message
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope '
        'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" '
        f'xmlns:sf="{NAMESPACE}"><soapenv:Body><soapenv:Fault>'
        f"<faultcode>{fault_code}</faultcode><faultstring>{escape(text)}</faultstring>"
        "</soapenv:Fault></soapenv:Body></soapenv:Envelope>"
    )
    return Response(500, Headers({"Content-Type": "text/xml;charset=UTF-8"}), body.encode("utf-8"))


# ---------------------------------------------------------------------------- the other calls
def _child_text(call: XmlElement, name: str) -> str:
    found = call.child(name)
    return found.text.strip() if found is not None else ""


def _describe_metadata(org, call: XmlElement) -> str:
    from crmarena_sf.emulator.rest.schema_api.metadata_read import describe_metadata

    return describe_metadata()


def _list_metadata(org, call: XmlElement) -> str:
    from crmarena_sf.emulator.rest.schema_api.metadata_read import list_metadata, read_queries

    return list_metadata(org, read_queries(call))


def _read_metadata(org, call: XmlElement) -> str:
    from crmarena_sf.emulator.rest.schema_api.metadata_read import read_metadata

    names = [c.text.strip() for c in call.children if c.name == "fullNames"]
    return read_metadata(org, _child_text(call, "type"), names)


def _deploy(org, call: XmlElement) -> str:
    import base64
    import binascii

    from crmarena_sf.emulator.rest.schema_api.metadata_deploy import deploy

    options = call.child("DeployOptions") or call.child("deployOptions")
    settings = {c.name: c.text.strip() for c in options.children} if options is not None else {}
    if options is not None:
        tests = [c.text.strip() for c in options.children if c.name == "runTests"]
        settings["runTests"] = ",".join(tests)
    try:
        data = base64.b64decode(_child_text(call, "ZipFile") or _child_text(call, "zipFile"), validate=False)
    except (binascii.Error, ValueError):
        data = b""
    job = deploy(org, data, settings)
    return f"<result><done>false</done><id>{job.id}</id><state>Queued</state></result>"


def _check_deploy_status(org, call: XmlElement) -> str:
    from crmarena_sf.emulator.rest.schema_api.metadata_deploy import DeployJob, deploy_result_xml, find_job

    job = find_job(org, _child_text(call, "asyncProcessId") or _child_text(call, "id"))
    if not isinstance(job, DeployJob):
        raise SalesforceError("INVALID_ID_FIELD", "invalid AsyncProcessId")
    return deploy_result_xml(org, job, is_true(_child_text(call, "includeDetails")))


def _retrieve(org, call: XmlElement) -> str:
    from crmarena_sf.emulator.rest.schema_api.metadata_deploy import retrieve

    # the WSDL's part is "retrieveRequest"; jsforce (the sf CLI's library) names it "request"
    request = call.child("retrieveRequest") or call.child("RetrieveRequest") or call.child("request")
    job = retrieve(org, request)
    return f"<result><done>false</done><id>{job.id}</id><state>Queued</state></result>"


def _check_retrieve_status(org, call: XmlElement) -> str:
    from crmarena_sf.emulator.rest.schema_api.metadata_deploy import (
        RetrieveJob,
        find_job,
        retrieve_result_xml,
    )

    job = find_job(org, _child_text(call, "asyncProcessId") or _child_text(call, "id"))
    if not isinstance(job, RetrieveJob):
        raise SalesforceError("INVALID_ID_FIELD", "invalid AsyncProcessId")
    return retrieve_result_xml(job, is_true(_child_text(call, "includeZip") or "true"), org)


def _crud(name: str):
    def answer(org, call: XmlElement) -> str:
        from crmarena_sf.emulator.rest.schema_api import metadata_crud

        return getattr(metadata_crud, name)(org, call)

    return answer


OPERATIONS = {
    "updateMetadata": _crud("update_metadata"),
    "upsertMetadata": _crud("upsert_metadata"),
    "deleteMetadata": _crud("delete_metadata"),
    "renameMetadata": _crud("rename_metadata"),
    "describeMetadata": _describe_metadata,
    "listMetadata": _list_metadata,
    "readMetadata": _read_metadata,
    "deploy": _deploy,
    "checkDeployStatus": _check_deploy_status,
    "retrieve": _retrieve,
    "checkRetrieveStatus": _check_retrieve_status,
}
"""The Metadata API calls served besides createMetadata: name -> answer(org, call) giving the result XML."""
