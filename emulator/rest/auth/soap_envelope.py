"""Reading the few elements a SOAP ``login`` envelope carries, whatever else the body holds.

The envelope is read as a stream (no document tree, no recursion), so a body nested 10,000
elements deep costs no stack; deeper than :data:`MAX_DEPTH` levels, or carrying a document
type declaration (which SOAP forbids: "A SOAP message MUST NOT contain a Document Type
Declaration", SOAP 1.1 §3, https://www.w3.org/TR/2000/NOTE-SOAP-20000508/), or not being
well-formed XML, it is :class:`UnreadableEnvelope` and the login answers a SOAP fault.
"""

from __future__ import annotations

from xml.parsers import expat

MAX_DEPTH = 64
"""Element nesting accepted; a partner ``login`` envelope is five levels deep."""


class UnreadableEnvelope(ValueError):
    """The body is not a SOAP envelope the login call can read."""


def element_texts(body: bytes, names: tuple[str, ...]) -> dict[str, str]:
    """The text directly inside the first element with each local name in ``names`` (any namespace)."""
    found: dict[str, str] = {}
    open_names: list[str] = []
    collecting: list[str | None] = [None]

    def start(name: str, _attributes: dict) -> None:
        local = name.rsplit(" ", 1)[-1]
        open_names.append(local)
        if len(open_names) > MAX_DEPTH:
            raise UnreadableEnvelope(f"XML nested deeper than {MAX_DEPTH} elements")
        collecting[0] = local if local in names and local not in found else None
        if collecting[0] is not None:
            found[local] = ""

    def end(_name: str) -> None:
        open_names.pop()
        collecting[0] = None

    def text(data: str) -> None:
        if collecting[0] is not None:
            found[collecting[0]] += data

    def doctype(*_args: object) -> None:
        raise UnreadableEnvelope("a SOAP message must not contain a Document Type Declaration")

    parser = expat.ParserCreate(namespace_separator=" ")
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.StartDoctypeDeclHandler = doctype
    try:
        parser.Parse(body or b"", True)
    except expat.ExpatError as exc:
        raise UnreadableEnvelope(str(exc)) from None
    return found
