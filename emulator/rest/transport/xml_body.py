"""Reading an XML request body: SOAP envelopes (logins, the Metadata API) and Bulk API 1.0's XML.

One reader for the three: the body is read as a stream (no recursion, so a body nested
10,000 elements deep costs no stack) into a small tree of elements by local name
(namespaces dropped; attributes kept as the parser reports them, ``<namespace> <name>``).
Refused, as :class:`UnreadableXml` saying why, so each API can answer in its own words: a
document type declaration (SOAP forbids one: "A SOAP message MUST NOT contain a Document Type
Declaration", SOAP 1.1 §3, https://www.w3.org/TR/2000/NOTE-SOAP-20000508/; and it is how
entity-expansion bombs start), elements nested deeper than the caller accepts, and anything
that is not well-formed XML.
"""

from __future__ import annotations

from xml.parsers import expat

MALFORMED = "malformed"
DOCTYPE = "doctype"
TOO_DEEP = "too deep"


class UnreadableXml(ValueError):
    """A body the reader refuses; ``reason`` is :data:`MALFORMED`, :data:`DOCTYPE` or :data:`TOO_DEEP`,
    the message the parser's (or the limit's) own words."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class XmlElement:
    """One element: its local name, its attributes as the parser reports them, its text and children."""

    __slots__ = ("name", "attributes", "text", "children")

    def __init__(self, name: str, attributes: dict[str, str]) -> None:
        self.name = name
        self.attributes = attributes
        self.text = ""
        """The character data directly inside the element (between its children too)."""
        self.children: list[XmlElement] = []

    def child(self, name: str) -> XmlElement | None:
        """The first child with local name ``name``."""
        return next((c for c in self.children if c.name == name), None)

    def child_texts(self) -> dict[str, str]:
        """Each child's name and stripped text."""
        return {c.name: c.text.strip() for c in self.children}

    def find(self, name: str) -> XmlElement | None:
        """The first element with local name ``name`` at or below this one, in document order."""
        pending = [self]
        while pending:
            element = pending.pop()
            if element.name == name:
                return element
            pending.extend(reversed(element.children))
        return None


def read_xml(body: bytes, max_depth: int) -> XmlElement:
    """The document's root element; elements may nest ``max_depth`` deep. Raises :class:`UnreadableXml`."""
    top = XmlElement("", {})
    stack = [top]

    def start(name: str, attributes: dict[str, str]) -> None:
        if len(stack) > max_depth:
            raise UnreadableXml(TOO_DEEP, f"XML nested deeper than {max_depth} elements")
        element = XmlElement(name.rsplit(" ", 1)[-1], attributes)
        stack[-1].children.append(element)
        stack.append(element)

    def end(_name: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        stack[-1].text += data

    def doctype(*_args: object) -> None:
        raise UnreadableXml(DOCTYPE, "a document type declaration is not allowed")

    parser = expat.ParserCreate(namespace_separator=" ")
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.StartDoctypeDeclHandler = doctype
    try:
        parser.Parse(body, True)
    except expat.ExpatError as exc:
        raise UnreadableXml(MALFORMED, str(exc)) from None
    return top.children[0]  # expat refuses a document without one ("no element found")
