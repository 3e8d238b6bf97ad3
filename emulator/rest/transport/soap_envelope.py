"""Reading a SOAP envelope: the partner API's ``login`` and ``logout``, the Metadata API's calls.

The envelope is read by the one XML reader (:mod:`.xml_body`): as a stream, so a body nested
10,000 elements deep costs no stack; deeper than the call allows (:data:`MAX_DEPTH` levels for
a login), or carrying a document type declaration (which SOAP forbids: "A SOAP message MUST
NOT contain a Document Type Declaration", SOAP 1.1 §3, https://www.w3.org/TR/2000/NOTE-SOAP-20000508/),
or not being well-formed XML, it is :class:`UnreadableEnvelope` and the call answers a SOAP fault.
"""

from __future__ import annotations

from crmarena_sf.emulator.rest.transport.xml_body import DOCTYPE, UnreadableXml, XmlElement, read_xml

MAX_DEPTH = 64
"""Element nesting accepted; a partner ``login`` envelope is five levels deep."""


class UnreadableEnvelope(ValueError):
    """The body is not a SOAP envelope the call can read."""


def read_envelope(body: bytes, max_depth: int = MAX_DEPTH) -> XmlElement:
    """The body's root element, nesting at most ``max_depth`` deep; raises :class:`UnreadableEnvelope`."""
    try:
        return read_xml(body, max_depth)
    except UnreadableXml as exc:
        if exc.reason == DOCTYPE:
            raise UnreadableEnvelope("a SOAP message must not contain a Document Type Declaration") from None
        raise UnreadableEnvelope(str(exc)) from None


def element_texts(body: bytes, names: tuple[str, ...]) -> dict[str, str]:
    """The text directly inside the first element with each local name in ``names`` (any namespace)."""
    root = read_envelope(body or b"")
    found = {name: root.find(name) for name in names}
    return {name: element.text for name, element in found.items() if element is not None}
