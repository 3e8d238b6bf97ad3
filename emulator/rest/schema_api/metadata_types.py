"""What a Metadata API ``CustomField`` becomes in an object's describe.

Metadata API Developer Guide, "CustomField" (field types ``Text``, ``LongTextArea``, ``Html``,
``Lookup``, ``AutoNumber`` ...) and the REST API's describe of the field an org then reports
(Object Reference, "Field Types"): a ``Text(80)`` is a ``string`` of length 80; a ``LongTextArea``
and an ``Html`` (rich text area) are ``textarea`` fields, the latter ``htmlFormatted``; a
``Lookup`` is a ``reference`` whose relationship is the field name with ``__r`` and whose
parent lists the child relationship ``<relationshipName>__r``; an ``externalId`` field is an
``idLookup`` field, usable in upserts and relationship columns; ``Number`` is ``double``.

Components arrive as plain dicts read from the SOAP body (:func:`element_dict`): element
names as keys, text as values, repeated elements as lists.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.emulator.errors import SalesforceError

SIMPLE_TYPES = {
    "Text": "string",
    "TextArea": "textarea",
    "LongTextArea": "textarea",
    "Html": "textarea",
    "Email": "email",
    "Phone": "phone",
    "Url": "url",
    "Checkbox": "boolean",
    "Number": "double",
    "Currency": "currency",
    "Percent": "percent",
    "Date": "date",
    "DateTime": "datetime",
    "Time": "time",
    "Picklist": "picklist",
    "MultiselectPicklist": "multipicklist",
    "Lookup": "reference",
    "AutoNumber": "string",
}
"""Metadata API FieldType -> describe type, for the field types this emulator creates."""

DEFAULT_LENGTHS = {"TextArea": 255, "LongTextArea": 32768, "Html": 32768, "AutoNumber": 30}


def is_true(value: Any) -> bool:
    return isinstance(value, str) and value.strip().lower() == "true"


def as_list(value: Any) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def field_integrity(message: str, field: str) -> SalesforceError:
    return SalesforceError("FIELD_INTEGRITY_EXCEPTION", message, [field])


def field_spec(name: str, metadata: dict[str, Any]) -> dict[str, Any]:
    """The :func:`crmarena_sf.metadata.spec.field` spec of custom field ``name`` described by ``metadata``."""
    kind = metadata.get("type")
    if kind not in SIMPLE_TYPES:
        raise field_integrity(f"Unsupported field type for this organization: {kind}", "type")
    label = metadata.get("label")
    if not label:
        raise SalesforceError("REQUIRED_FIELD_MISSING", "Required field is missing: label", ["label"])
    spec: dict[str, Any] = {"name": name, "type": SIMPLE_TYPES[kind], "label": label}
    if kind in ("Text", "TextArea", "LongTextArea", "Html", "AutoNumber"):
        spec["length"] = _number(metadata.get("length"), DEFAULT_LENGTHS.get(kind, 255), "length")
    if kind == "LongTextArea":
        spec["extraTypeInfo"] = "plaintextarea"
    if kind == "Html":
        spec["extraTypeInfo"] = "richtextarea"
        spec["htmlFormatted"] = True
    if kind in ("Number", "Currency", "Percent"):
        spec["precision"] = _number(metadata.get("precision"), 18, "precision")
        spec["scale"] = _number(metadata.get("scale"), 0, "scale")
    if kind == "Checkbox":
        spec["defaultValue"] = is_true(metadata.get("defaultValue"))
        spec["nillable"] = False
        spec["defaultedOnCreate"] = True
    if kind in ("Picklist", "MultiselectPicklist"):
        values, default = _picklist(metadata)
        spec["values"] = values
        if default is not None:
            spec["default"] = default
        spec["restrictedPicklist"] = is_true((metadata.get("valueSet") or {}).get("restricted"))
    if kind == "Lookup":
        target = metadata.get("referenceTo")
        relationship = metadata.get("relationshipName")
        if not target:
            raise SalesforceError(
                "REQUIRED_FIELD_MISSING", "Required field is missing: referenceTo", ["referenceTo"]
            )
        if not relationship:
            raise SalesforceError(
                "REQUIRED_FIELD_MISSING", "Required field is missing: relationshipName", ["relationshipName"]
            )
        spec["to"] = target
        spec["child"] = f"{relationship}__r"
    if kind == "AutoNumber":
        spec.update(
            autoNumber=True, createable=False, updateable=False, defaultedOnCreate=True, nillable=False
        )
    if is_true(metadata.get("externalId")):
        spec["externalId"] = True
        spec["idLookup"] = True
    if is_true(metadata.get("unique")):
        spec["unique"] = True
    if is_true(metadata.get("caseSensitive")):
        spec["caseSensitive"] = True
    if is_true(metadata.get("required")) and kind != "Checkbox":
        spec["nillable"] = False
    if metadata.get("inlineHelpText"):
        spec["inlineHelpText"] = metadata["inlineHelpText"]
    return spec


def name_field_spec(metadata: dict[str, Any] | None) -> dict[str, Any]:
    """The Name field spec of a new custom object from its ``nameField`` (Text or AutoNumber)."""
    metadata = metadata or {}
    kind = metadata.get("type")
    label = metadata.get("label")
    if kind not in ("Text", "AutoNumber") or not label:
        raise field_integrity(
            "Must specify a name field of type Text or AutoNumber with a label", "nameField"
        )
    spec: dict[str, Any] = {"type": "string", "label": label, "length": 80}
    if kind == "AutoNumber":
        spec.update(
            autoNumber=True, createable=False, updateable=False, defaultedOnCreate=True, nillable=False
        )
    return spec


def _number(value: Any, default: int, name: str) -> int:
    if value in (None, ""):
        return default
    text = str(value).strip()
    if not text.isascii() or not text.isdigit():
        raise field_integrity(f"Invalid value for {name}: {value}", name)
    return int(text)


def _picklist(metadata: dict[str, Any]) -> tuple[list, str | None]:
    definition = (metadata.get("valueSet") or {}).get("valueSetDefinition") or {}
    values, default = [], None
    for value in as_list(definition.get("value")):
        api = (value or {}).get("fullName")
        if not api:
            continue
        values.append((api, value.get("label") or api))
        if is_true(value.get("default")):
            default = api
    return values, default
