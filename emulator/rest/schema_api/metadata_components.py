"""An org's objects and fields as Metadata API components: ``CustomObject`` and ``CustomField`` XML.

Metadata API Developer Guide, "CustomObject" and "CustomField"
(https://developer.salesforce.com/docs/atlas.en-us.api_meta.meta/api_meta/customobject.htm,
customfield.htm): a field's ``fullName`` is ``Object.Field``, its ``type`` a FieldType (``Text``,
``Picklist``, ``Lookup`` ...) with ``length``, ``precision``, ``scale``, ``required``,
``externalId``, ``unique``, ``referenceTo``/``relationshipName`` as the type needs; a picklist's
values are a ``valueSet`` whose ``valueSetDefinition`` lists each ``value`` (``fullName``,
``default``, ``label``). A standard picklist's values are standard values ("StandardValueSet":
``StandardValue`` adds ``converted``, ``closed``, ``won`` ...): ``Lead.Status`` answers each value's
``converted`` from the org's LeadStatus rows, which is how clients find the converted status.
A custom object answers ``label``, ``pluralLabel``, ``nameField``, ``deploymentStatus``,
``sharingModel``, its custom fields and its record types. Everything is built from the describes,
the same documents REST answers, so the two APIs never disagree.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from crmarena_sf.metadata.model import Field, SObject

METADATA_TYPES = {
    "string": "Text",
    "textarea": "TextArea",
    "email": "Email",
    "phone": "Phone",
    "url": "Url",
    "boolean": "Checkbox",
    "double": "Number",
    "int": "Number",
    "currency": "Currency",
    "percent": "Percent",
    "date": "Date",
    "datetime": "DateTime",
    "time": "Time",
    "picklist": "Picklist",
    "multipicklist": "MultiselectPicklist",
    "reference": "Lookup",
    "combobox": "Picklist",
    "address": "Address",
    "location": "Location",
    "id": "Id",
    "base64": "Base64",
}
"""describe type -> Metadata API FieldType (the inverse of metadata_types.SIMPLE_TYPES)."""


def _tag(name: str, value: object) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        value = "true" if value else "false"
    return f"<{name}>{escape(str(value))}</{name}>"


def field_type(field: Field) -> str:
    """The field's Metadata API FieldType."""
    if field.autoNumber:
        return "AutoNumber"
    if field.type == "textarea":
        extra = field.extraTypeInfo or ""
        if extra == "richtextarea" or field.htmlFormatted:
            return "Html"
        return "LongTextArea" if (field.length or 0) > 255 else "TextArea"
    return METADATA_TYPES.get(field.type, "Text")


def custom_field_xml(
    obj: SObject, field: Field, converted: dict[str, bool] | None = None, *, in_object: bool = False
) -> str:
    """The ``CustomField`` element body of ``field`` (without the enclosing element); ``fullName`` is
    ``Object.Field``, or the field's own name ``in_object`` (a CustomObject's ``fields``).

    ``converted`` maps a picklist value to its IsConverted flag (``Lead.Status``): its values are
    then standard values carrying ``converted``.
    """
    kind = field_type(field)
    parts = [
        _tag("fullName", field.name if in_object else f"{obj.name}.{field.name}"),
        _tag("externalId", bool(field.externalId)),
        _tag("inlineHelpText", field.inlineHelpText),
        _tag("label", field.label),
    ]
    if kind in ("Text", "TextArea", "LongTextArea", "Html"):
        parts.append(_tag("length", field.length))
    if kind in ("Number", "Currency", "Percent"):
        parts.append(_tag("precision", field.precision or field.digits or 18))
        parts.append(_tag("scale", field.scale or 0))
    if kind == "Lookup" and field.referenceTo:
        parts.append(_tag("referenceTo", field.referenceTo[0]))
        parts.append(_tag("relationshipName", (field.relationshipName or "").removesuffix("__r")))
    parts.append(_tag("required", not field.nillable and field.createable and field.type != "boolean"))
    if kind == "Checkbox":
        parts.append(_tag("defaultValue", bool(field.defaultValue)))
    parts.append(_tag("type", kind))
    parts.append(_tag("unique", bool(field.unique)))
    if field.picklistValues:
        parts.append(_value_set(field, converted))
    return "".join(parts)


def _value_set(field: Field, converted: dict[str, bool] | None) -> str:
    values = []
    for value in field.picklistValues:
        if not value.active:
            continue
        typed = ' xsi:type="StandardValue"' if converted is not None else ""
        flag = _tag("converted", converted.get(value.value, False)) if converted is not None else ""
        values.append(
            f"<value{typed}>{_tag('fullName', value.value)}{_tag('default', bool(value.defaultValue))}"
            f"{_tag('label', value.label or value.value)}{flag}</value>"
        )
    restricted = _tag("restricted", bool(field.restrictedPicklist))
    return f"<valueSet>{restricted}<valueSetDefinition><sorted>false</sorted>{''.join(values)}</valueSetDefinition></valueSet>"


def custom_object_xml(obj: SObject) -> str:
    """The ``CustomObject`` element body of ``obj``: a custom object's definition and custom fields."""
    parts = [_tag("fullName", obj.name)]
    if obj.custom:
        parts.append(_tag("deploymentStatus", "Deployed"))
    for field in obj.fields:
        if field.custom:
            parts.append(f"<fields>{custom_field_xml(obj, field, in_object=True)}</fields>")
    parts.append(_tag("label", obj.label))
    name = obj.name_field
    if obj.custom and name is not None:
        name_type = "AutoNumber" if name.autoNumber else "Text"
        parts.append(f"<nameField>{_tag('label', name.label)}{_tag('type', name_type)}</nameField>")
    if obj.custom:
        parts.append(_tag("pluralLabel", obj.labelPlural))
    for rt in obj.recordTypeInfos:
        if not rt.master:
            parts.append(
                f"<recordTypes>{_tag('fullName', rt.developerName)}{_tag('active', bool(rt.active))}"
                f"{_tag('label', rt.name)}</recordTypes>"
            )
    if obj.custom:
        parts.append(_tag("sharingModel", "ReadWrite"))
    return "".join(parts)
