"""The Metadata API's CRUD calls besides createMetadata: ``updateMetadata``, ``upsertMetadata``, ``renameMetadata``, ``deleteMetadata``.

Metadata API Developer Guide, "updateMetadata()" (``SaveResult`` per component), "upsertMetadata()"
(``UpsertResult``: ``created`` says whether it was new), "renameMetadata()" (one ``SaveResult``)
and "deleteMetadata()" (``DeleteResult`` per full name); at most ten components a call. Custom
objects and fields change the schema (:mod:`crmarena_sf.emulator.store.schema_changes`); a standard
object or field cannot be changed here and says so. Components of any other type are kept as sent
(:mod:`crmarena_sf.emulator.store.deployed_metadata`), as a deploy keeps them, so a later read,
list or retrieve gives them back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator.error_boundary import as_salesforce_error
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.schema_api.metadata_read import METADATA_TYPES, element_xml
from crmarena_sf.emulator.rest.schema_api.metadata_types import field_spec
from crmarena_sf.emulator.rest.transport.xml_body import XmlElement
from crmarena_sf.emulator.store import deployed_metadata
from crmarena_sf.emulator.store.schema_changes import (
    delete_custom_field,
    delete_custom_object,
    rename_custom_field,
    update_custom_field,
    update_custom_object,
)

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

MAX_COMPONENTS = 10
NAMESPACE = "http://soap.sforce.com/2006/04/metadata"


def _dict(element: XmlElement) -> dict[str, Any]:
    from crmarena_sf.emulator.rest.schema_api.metadata_api import element_dict

    return element_dict(element)


def _type_of(element: XmlElement) -> str | None:
    from crmarena_sf.emulator.rest.schema_api.metadata_api import xsi_type

    return xsi_type(element)


def stored_file(kind: str, full_name: str) -> str:
    """The file a component of ``kind`` is kept as (``layouts/Account-Account Layout.layout``)."""
    entry = next((e for e in METADATA_TYPES if e[0] == kind), None)
    directory, suffix = (entry[1], entry[2]) if entry else (kind[0].lower() + kind[1:], None)
    return f"{directory}/{full_name}.{suffix}" if suffix else f"{directory}/{full_name}"


def store_element(org: Org, kind: str, element: XmlElement) -> bool:
    """Keep a component of a type the emulator does not model, as its XML file; True when new."""
    data = _dict(element)
    full_name = str(data.get("fullName") or "")
    if not full_name:
        raise SalesforceError("REQUIRED_FIELD_MISSING", "Required field is missing: fullName", ["fullName"])
    inner = "".join(element_xml(c) for c in element.children if c.name != "fullName")
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<{kind} xmlns="{NAMESPACE}">{inner}</{kind}>\n'.encode()
    )
    created = deployed_metadata.find(org, kind, full_name) is None
    deployed_metadata.store(org, kind, full_name, stored_file(kind, full_name), content, None)
    return created


def _exists(org: Org, kind: str, full_name: str) -> bool:
    if kind == "CustomObject":
        return org.schema.get(full_name) is not None
    if kind == "CustomField":
        object_name, _, field_name = full_name.partition(".")
        obj = org.schema.get(object_name)
        return obj is not None and obj.field(field_name) is not None
    return deployed_metadata.find(org, kind, full_name) is not None


def _update(org: Org, element: XmlElement) -> None:
    kind = _type_of(element) or ""
    data = _dict(element)
    full_name = str(data.get("fullName") or "")
    if kind == "CustomField":
        object_name, _, field_name = full_name.partition(".")
        update_custom_field(org, object_name, field_spec(field_name, data))
    elif kind == "CustomObject":
        name_field = data.get("nameField") if isinstance(data.get("nameField"), dict) else {}
        update_custom_object(
            org, full_name, data.get("label"), data.get("pluralLabel"), name_field.get("label")
        )
    elif not _exists(org, kind, full_name):
        raise SalesforceError(
            "INVALID_CROSS_REFERENCE_KEY", f"In field: fullName - no {kind} named {full_name} found", []
        )
    else:
        store_element(org, kind, element)


def _components(call: XmlElement) -> list[XmlElement]:
    found = [c for c in call.children if c.name == "metadata"]
    if len(found) > MAX_COMPONENTS:
        raise SalesforceError(
            "EXCEEDED_ID_LIMIT", f"Cannot process more than {MAX_COMPONENTS} components in one call"
        )
    return found


def _full_name(element: XmlElement) -> str:
    found = element.child("fullName")
    return found.text.strip() if found is not None else ""


def _result(full_name: str, error: SalesforceError | None, created: bool | None = None) -> str:
    from crmarena_sf.emulator.rest.schema_api.metadata_api import save_result

    return save_result(full_name, error, created)


def _each(org: Org, items: list, act) -> list[tuple[Any, SalesforceError | None]]:
    out = []
    for item in items:
        try:
            out.append((act(item), None))
        except Exception as exc:
            out.append((None, as_salesforce_error(exc, context="changing metadata")))
    return out


def update_metadata(org: Org, call: XmlElement) -> str:
    elements = _components(call)
    outcomes = _each(org, elements, lambda e: _update(org, e))
    return "".join(_result(_full_name(e), error) for e, (_, error) in zip(elements, outcomes, strict=True))


def upsert_metadata(org: Org, call: XmlElement) -> str:
    from crmarena_sf.emulator.rest.schema_api.metadata_api import create_component

    elements = _components(call)

    def upsert(element: XmlElement) -> bool:
        if _exists(org, _type_of(element) or "", _full_name(element)):
            _update(org, element)
            return False
        name, error = create_component(org, element)
        if error is not None:
            raise error
        return True

    outcomes = _each(org, elements, upsert)
    return "".join(
        _result(_full_name(e), error, bool(created))
        for e, (created, error) in zip(elements, outcomes, strict=True)
    )


def delete_metadata(org: Org, call: XmlElement) -> str:
    kind = (call.child("type").text.strip() if call.child("type") is not None else "") or (
        call.child("metadataType").text.strip() if call.child("metadataType") is not None else ""
    )
    names = [c.text.strip() for c in call.children if c.name == "fullNames"]
    if len(names) > MAX_COMPONENTS:
        raise SalesforceError(
            "EXCEEDED_ID_LIMIT", f"Cannot process more than {MAX_COMPONENTS} components in one call"
        )

    def delete(full_name: str) -> None:
        if kind == "CustomField":
            object_name, _, field_name = full_name.partition(".")
            delete_custom_field(org, object_name, field_name)
        elif kind == "CustomObject":
            delete_custom_object(org, full_name)
        elif not deployed_metadata.remove(org, kind, full_name):
            raise SalesforceError(
                "INVALID_CROSS_REFERENCE_KEY", f"In field: fullName - no {kind} named {full_name} found", []
            )

    outcomes = _each(org, names, delete)
    return "".join(_result(name, error) for name, (_, error) in zip(names, outcomes, strict=True))


def rename_metadata(org: Org, call: XmlElement) -> str:
    def text(name: str) -> str:
        found = call.child(name)
        return found.text.strip() if found is not None else ""

    kind, old, new = text("type") or text("metadataType"), text("oldFullName"), text("newFullName")

    def rename(_item: None) -> None:
        if kind == "CustomField":
            old_object, _, old_field = old.partition(".")
            new_object, _, new_field = new.partition(".")
            if new_object != old_object:
                raise SalesforceError(
                    "FIELD_INTEGRITY_EXCEPTION", "A field cannot move to another object", ["newFullName"]
                )
            rename_custom_field(org, old_object, old_field, new_field)
            return
        if kind == "CustomObject":
            raise SalesforceError(
                "INVALID_OPERATION", "Renaming a custom object is not supported by this org", []
            )
        component = deployed_metadata.find(org, kind, old)
        if component is None:
            raise SalesforceError(
                "INVALID_CROSS_REFERENCE_KEY", f"In field: fullName - no {kind} named {old} found", []
            )
        if deployed_metadata.find(org, kind, new) is not None:
            raise SalesforceError("DUPLICATE_DEVELOPER_NAME", f"There is already a {kind} named {new}", [])
        deployed_metadata.remove(org, kind, old)
        deployed_metadata.store(org, kind, new, stored_file(kind, new), component.content, component.meta)

    [(_, error)] = _each(org, [None], rename)
    return _result(new, error)
