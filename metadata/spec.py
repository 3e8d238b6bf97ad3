"""A compact way to write an sObject's metadata, expanded into the real describe format.

A describe field carries 57 keys; most follow from the field's type (a ``string`` of
length 80 has ``byteLength`` 240, ``soapType`` ``xsd:string``, is groupable ...). The
per-object specs in :mod:`crmarena_sf.metadata.specs` therefore state only a field's name, type, label
and what differs from the type's usual values; :func:`expand_field` fills in the rest the
way a real org reports it (defaults measured on real Account, Contact and Case describes,
API v48). ``python -m crmarena_sf.metadata.build`` turns the specs into ``metadata/describes/*.json``.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.metadata import API_VERSION  # noqa: F401 -- the describes' version, also read from here

FIELD_KEYS = (
    "aggregatable aiPredictionField autoNumber byteLength calculated calculatedFormula cascadeDelete "
    "caseSensitive compoundFieldName controllerName createable custom defaultValue defaultValueFormula "
    "defaultedOnCreate dependentPicklist deprecatedAndHidden digits displayLocationInDecimal encrypted "
    "externalId extraTypeInfo filterable filteredLookupInfo formulaTreatNullNumberAsZero groupable "
    "highScaleNumber htmlFormatted idLookup inlineHelpText label length mask maskType name nameField "
    "namePointing nillable permissionable picklistValues polymorphicForeignKey precision queryByDistance "
    "referenceTargetField referenceTo relationshipName relationshipOrder restrictedDelete "
    "restrictedPicklist scale searchPrefilterable soapType sortable type unique updateable "
    "writeRequiresMasterRead"
).split()

SOAP_TYPES = {
    "id": "tns:ID",
    "reference": "tns:ID",
    "boolean": "xsd:boolean",
    "int": "xsd:int",
    "long": "xsd:long",
    "double": "xsd:double",
    "currency": "xsd:double",
    "percent": "xsd:double",
    "date": "xsd:date",
    "datetime": "xsd:dateTime",
    "time": "xsd:time",
    "base64": "xsd:base64Binary",
    "address": "urn:address",
    "location": "urn:location",
    "anyType": "xsd:anyType",
    "junctionidlist": "tns:ID",
}
"""soapType by field type; every other type (string, textarea, picklist, email ...) is xsd:string."""

TEXT_TYPES = {
    "string",
    "datacategorygroupreference",
    "textarea",
    "picklist",
    "multipicklist",
    "combobox",
    "email",
    "phone",
    "url",
    "encryptedstring",
}
NUMBER_TYPES = {"int", "long", "double", "currency", "percent"}
FIELD_TYPES = TEXT_TYPES | NUMBER_TYPES | set(SOAP_TYPES)

_DEFAULT_LENGTH = {
    "picklist": 40,
    "multipicklist": 4099,
    "combobox": 255,
    "email": 80,
    "phone": 40,
    "url": 255,
}

OBJECT_DEFAULTS: dict[str, Any] = {
    "actionOverrides": [],
    "activateable": False,
    "associateEntityType": None,
    "associateParentEntity": None,
    "compactLayoutable": True,
    "createable": True,
    "customSetting": False,
    "deepCloneable": False,
    "defaultImplementation": None,
    "deletable": True,
    "deprecatedAndHidden": False,
    "extendedBy": None,
    "extendsInterfaces": None,
    "feedEnabled": False,
    "hasSubtypes": False,
    "implementedBy": None,
    "implementsInterfaces": None,
    "isInterface": False,
    "isSubtype": False,
    "layoutable": True,
    "listviewable": None,
    "lookupLayoutable": None,
    "mergeable": False,
    "mruEnabled": True,
    "namedLayoutInfos": [],
    "networkScopeFieldName": None,
    "queryable": True,
    "replicateable": True,
    "retrieveable": True,
    "searchLayoutable": True,
    "searchable": True,
    "sobjectDescribeOption": "FULL",
    "triggerable": True,
    "undeletable": True,
    "updateable": True,
}


def field(name: str, type: str, label: str, **overrides: Any) -> dict[str, Any]:
    """One field of a spec: name, describe type, label and the keys that differ from the type's defaults.

    Besides any describe key, ``overrides`` takes these spec-only keys:

    - ``values``: picklist values, each ``"Value"`` or ``("Value", "Label")``; ``default`` marks one default;
    - ``to``: reference target object name(s), becomes ``referenceTo``;
    - ``child``: the child relationship name the *parent* lists for this reference (``Contacts``);
      ``cascade`` / ``restrict`` set the child relationship's cascadeDelete / restrictedDelete;
    - ``required``: shorthand for ``nillable=False`` (required on create unless defaulted).
    """
    if type not in FIELD_TYPES:
        raise ValueError(f"{name}: unknown field type {type!r}")
    return {"name": name, "type": type, "label": label, **overrides}


def sobject(
    name: str, label: str, plural: str, key_prefix: str | None, fields: list[dict], **overrides: Any
) -> dict:
    """One sObject spec. ``overrides`` sets object-level describe keys (``searchable``, ``feedEnabled`` ...).

    Spec-only keys: ``record_types`` (list of ``{"developerName", "name", "recordTypeId", ...}``
    besides Master), ``scopes`` (``supportedScopes`` as ``(name, label)`` pairs).
    """
    return {
        "name": name,
        "label": label,
        "labelPlural": plural,
        "keyPrefix": key_prefix,
        "fields": fields,
        **overrides,
    }


def expand_field(spec: dict[str, Any]) -> dict[str, Any]:
    """The full describe form of one field spec."""
    spec = dict(spec)
    ftype = spec["type"]
    name = spec["name"]
    custom = name.endswith("__c")
    values = spec.pop("values", None)
    default_value = spec.pop("default", None)
    to = spec.pop("to", None)
    for spec_only in ("child", "cascade", "restrict"):
        spec.pop(spec_only, None)
    if spec.pop("required", False):
        spec.setdefault("nillable", False)

    long_text = ftype == "textarea" and spec.get("length", 255) > 4000
    length = spec.get("length", _DEFAULT_LENGTH.get(ftype, 255 if ftype in TEXT_TYPES else 0))
    if ftype in ("id", "reference", "junctionidlist"):
        length = 18
    out: dict[str, Any] = {
        "aggregatable": ftype not in ("boolean", "address", "location", "base64") and not long_text,
        "aiPredictionField": False,
        "autoNumber": False,
        "byteLength": 18
        if ftype in ("id", "reference", "junctionidlist")
        else (length * 3 if ftype in TEXT_TYPES else 0),
        "calculated": False,
        "calculatedFormula": None,
        "cascadeDelete": False,
        "caseSensitive": False,
        "compoundFieldName": None,
        "controllerName": None,
        "createable": ftype != "id",
        "custom": custom,
        "defaultValue": False if ftype == "boolean" else None,
        "defaultValueFormula": None,
        "defaultedOnCreate": ftype in ("id", "boolean"),
        "dependentPicklist": False,
        "deprecatedAndHidden": False,
        "digits": 9 if ftype == "int" else (18 if ftype == "long" else 0),
        "displayLocationInDecimal": False,
        "encrypted": False,
        "externalId": False,
        "extraTypeInfo": "plaintextarea" if ftype == "textarea" else None,
        "filterable": ftype not in ("base64",) and not (ftype == "textarea" and length > 255),
        "filteredLookupInfo": None,
        "formulaTreatNullNumberAsZero": False,
        "groupable": ftype
        not in ("double", "currency", "percent", "datetime", "address", "location", "base64")
        and not long_text
        and not (ftype == "textarea" and length > 255),
        "highScaleNumber": False,
        "htmlFormatted": False,
        "idLookup": ftype == "id",
        "inlineHelpText": None,
        "label": spec["label"],
        "length": length,
        "mask": None,
        "maskType": None,
        "name": name,
        "nameField": False,
        "namePointing": False,
        "nillable": ftype not in ("id", "boolean"),
        "permissionable": None,
        "picklistValues": [],
        "polymorphicForeignKey": False,
        "precision": 18 if ftype in ("double", "currency", "percent") else 0,
        "queryByDistance": False,
        "referenceTargetField": None,
        "referenceTo": [],
        "relationshipName": None,
        "relationshipOrder": None,
        "restrictedDelete": False,
        "restrictedPicklist": False,
        "scale": 2 if ftype == "currency" else 0,
        "searchPrefilterable": False,
        "soapType": SOAP_TYPES.get(ftype, "xsd:string"),
        "sortable": ftype not in ("address", "location", "multipicklist", "base64") and not long_text,
        "type": ftype,
        "unique": False,
        "updateable": ftype != "id",
        "writeRequiresMasterRead": False,
    }
    if ftype == "reference":
        targets = [to] if isinstance(to, str) else list(to or [])
        if not targets:
            raise ValueError(f"{name}: a reference needs `to`")
        out["referenceTo"] = targets
        out["polymorphicForeignKey"] = len(targets) > 1
        if custom:
            out["relationshipName"] = name[:-3] + "__r"
        elif name.endswith("Id"):
            out["relationshipName"] = name[:-2]
    if values is not None:
        out["picklistValues"] = [_picklist_value(v, default_value) for v in values]
        if default_value is not None:
            out["defaultValue"] = default_value
            out["defaultedOnCreate"] = True
    out.update(spec)
    if out["permissionable"] is None:
        out["permissionable"] = bool(out["createable"] and out["nillable"] and ftype != "id")
    if ftype == "reference" and "searchPrefilterable" not in spec:
        out["searchPrefilterable"] = bool(out["createable"] and out["nillable"])
    unknown = set(out) - set(FIELD_KEYS)
    if unknown:
        raise ValueError(f"{name}: unknown describe keys {sorted(unknown)}")
    return {key: out[key] for key in FIELD_KEYS}


def _picklist_value(value: str | tuple[str, str] | dict, default: str | None) -> dict[str, Any]:
    if isinstance(value, dict):
        return {"active": True, "defaultValue": False, "validFor": None, **value}
    api, label = (value, value) if isinstance(value, str) else value
    return {"active": True, "defaultValue": api == default, "label": label, "validFor": None, "value": api}
