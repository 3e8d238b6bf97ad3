"""Describe documents a user adds to an org's schema: ``connect(describes=DIR)``,
``mock_salesforce(describes=DIR)``, ``crmarena-sf serve --describes DIR``.

A directory holds ``<Object>.json`` files in the body format of ``GET
/services/data/vXX.X/sobjects/<Object>/describe`` (REST API Developer Guide, "sObject
Describe": https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_sobject_describe.htm),
as ``crmarena-sf metadata pull`` writes them, or written by hand. The documents only ever
*add* to the org (:func:`extend_documents`):

- an object the org lacks is added. A hand-written document may be short: ``name`` and
  ``fields`` (each with ``name``, ``type`` and, for a lookup, ``referenceTo``) are enough;
  every other describe key gets the value a real org reports for that type (the project's
  own :func:`crmarena_sf.metadata.spec.expand_field`), ``label``/``labelPlural`` follow from the name,
  a missing ``keyPrefix`` is the first free custom-object prefix (``a00``, ``a01`` ...), and a
  custom object (``__c``) gets the standard fields every custom object has (Id, OwnerId,
  IsDeleted, Name, the audit fields: Object Reference, "Custom Objects",
  https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_custom_objects.htm)
  unless it lists them;
- for an object the org has, fields it lacks are added, a picklist gains the values it
  lacks, and child relationships and record types it lacks are added; what the org already
  has keeps the org's definition;
- every lookup of an added field appears on its parent as a child relationship: with the
  name the parent's document gives it (a pulled describe of the parent lists it), else, for
  a custom field, the plural label of the child object plus ``__r``, the name Salesforce
  proposes when the lookup is created (SOQL and SOSL Reference, "Understanding Relationship
  Names, Custom Objects, and Custom Fields",
  https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_soql_relationships_and_custom_objects.htm).

Lookup targets the org does not have are dropped from ``referenceTo`` (a pulled standard
object points at many objects the emulator does not hold), and a standard field left
without a target is left out, as the project's own specs leave such fields out. A custom
field whose every target is missing is an error: it names the missing object, usually a
describe the directory should also hold.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import string
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from crmarena_sf.metadata.model import Schema, SObject
from crmarena_sf.metadata.spec import FIELD_KEYS, FIELD_TYPES, expand_field

_API_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_PREFIX_CHARACTERS = string.digits + string.ascii_uppercase + string.ascii_lowercase


class DescribesError(ValueError):
    """A describe directory or document that cannot extend the schema; the message names the file and why."""


def describe_dirs(value: str | Path | Iterable[str | Path] | None) -> tuple[str, ...]:
    """``describes=`` as absolute directory paths (one directory or several); DescribesError for a missing one."""
    if value is None:
        return ()
    items = [value] if isinstance(value, (str, Path)) else list(value)
    found = []
    for item in items:
        path = Path(item).expanduser()
        if not path.is_dir():
            raise DescribesError(
                f"describes: {item} is not a directory of describe documents (<Object>.json)"
            )
        found.append(str(path.resolve()))
    return tuple(dict.fromkeys(found))


def signature(dirs: Iterable[str]) -> tuple:
    """What the documents in ``dirs`` are now (names, sizes, times): a cache key that changes with them."""
    entries = []
    for directory in dirs:
        for path in sorted(Path(directory).glob("*.json")):
            stat = path.stat()
            entries.append((str(path), stat.st_size, stat.st_mtime_ns))
    return tuple(entries)


def read_user_describes(directory: str | Path) -> dict[str, dict]:
    """The documents of one directory, keyed by object name; DescribesError for an unreadable one."""
    docs: dict[str, dict] = {}
    paths = sorted(Path(directory).glob("*.json"))
    if not paths:
        raise DescribesError(f"describes: {directory} holds no describe documents (<Object>.json)")
    for path in paths:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise DescribesError(f"{path}: not a JSON describe document ({exc})") from None
        _check_document(doc, path)
        docs[doc["name"]] = doc
    return docs


def extend_documents(
    base: dict[str, dict], added: dict[str, dict], source: str = "describes"
) -> dict[str, dict]:
    """``base`` (describe documents by object name) extended by ``added`` as the module docstring says.

    Neither input is changed; documents of ``base`` that gain nothing are shared, not copied.
    """
    docs = dict(base)
    by_lower = {name.lower(): name for name in docs}
    new_fields: list[tuple[str, dict]] = []
    touched: set[str] = set()
    for name, doc in added.items():
        where = f"{source}: {name}"
        existing = by_lower.get(name.lower())
        if existing is None:
            completed = _new_object(doc, docs, where)
            docs[completed["name"]] = completed
            by_lower[name.lower()] = completed["name"]
            new_fields += [(completed["name"], f) for f in completed["fields"] if f["type"] == "reference"]
            touched.add(completed["name"])
        else:
            merged, fields = _merged_object(docs[existing], doc, where)
            if merged is not docs[existing]:
                touched.add(existing)
            docs[existing] = merged
            new_fields += [(existing, f) for f in fields if f["type"] == "reference"]
    _resolve_references(docs, by_lower, new_fields, source)
    for name in touched:
        _keep_known_children(docs, by_lower, name, base.get(name, {}))
    _add_child_relationships(docs, new_fields)
    return docs


# ---------------------------------------------------------------------------- checks
def _check_document(doc: Any, path: Path) -> None:
    if not isinstance(doc, dict) or not isinstance(doc.get("name"), str) or not _API_NAME.match(doc["name"]):
        raise DescribesError(
            f"{path}: a describe document is a JSON object whose 'name' is an object's API name"
        )
    fields = doc.get("fields", [])
    if not isinstance(fields, list) or not all(isinstance(f, dict) for f in fields):
        raise DescribesError(f"{path}: 'fields' must be a list of field objects")
    for f in fields:
        name, ftype = f.get("name"), f.get("type")
        if not isinstance(name, str) or not _API_NAME.match(name):
            raise DescribesError(f"{path}: a field needs a 'name' that is an API name, got {name!r}")
        if ftype not in FIELD_TYPES:
            raise DescribesError(f"{path}: {doc['name']}.{name} has unknown type {ftype!r}")
        targets = f.get("referenceTo")
        if ftype == "reference" and (
            not isinstance(targets, list) or not targets or not all(isinstance(t, str) for t in targets)
        ):
            raise DescribesError(f"{path}: {doc['name']}.{name} is a reference without 'referenceTo'")
    for key in ("childRelationships", "recordTypeInfos"):
        if not isinstance(doc.get(key, []), list):
            raise DescribesError(f"{path}: '{key}' must be a list")
    prefix = doc.get("keyPrefix")
    if prefix is not None and not (isinstance(prefix, str) and len(prefix) == 3 and prefix.isalnum()):
        raise DescribesError(f"{path}: keyPrefix must be three letters or digits, got {prefix!r}")


# ---------------------------------------------------------------------------- objects
def _new_object(doc: dict, docs: dict[str, dict], where: str) -> dict:
    """A complete describe document for an object the org lacks."""
    from crmarena_sf.metadata.build import build_describes
    from crmarena_sf.metadata.spec import sobject
    from crmarena_sf.metadata.specs._common import custom_object_scopes, custom_object_standard_fields

    name = doc["name"]
    label = doc.get("label") or _label_of(name)
    plural = doc.get("labelPlural") or f"{label}s"
    prefix = doc.get("keyPrefix") or _free_key_prefix(docs)
    owner = next((n for n, d in docs.items() if d.get("keyPrefix") == prefix), None)
    if owner is not None:
        raise DescribesError(f"{where}: keyPrefix {prefix} is already {owner}'s")
    custom = name.endswith("__c")
    extra = {"scopes": custom_object_scopes(plural)} if custom else {}
    skeleton = build_describes([sobject(name, label, plural, prefix, [], **extra)])[name]
    given = [_complete_field(f, f"{where}.{f['name']}") for f in doc.get("fields", [])]
    if custom:
        names = {f["name"].lower() for f in given}
        name_field = {
            "name": "Name",
            "type": "string",
            "label": f"{label} Name",
            "nameField": True,
            "length": 80,
        }
        standard = [expand_field(f) for f in custom_object_standard_fields(name_field)]
        given = [f for f in standard if f["name"].lower() not in names] + given
    completed = {**skeleton, **{k: v for k, v in doc.items() if k not in ("fields",)}}
    completed.update(
        {
            "label": label,
            "labelPlural": plural,
            "keyPrefix": prefix,
            "fields": given,
            "childRelationships": list(doc.get("childRelationships", [])),
        }
    )
    if not any(rt.get("master") for rt in completed.get("recordTypeInfos", [])):
        completed["recordTypeInfos"] = [*completed.get("recordTypeInfos", []), *skeleton["recordTypeInfos"]]
    return completed


def _merged_object(current: dict, doc: dict, where: str) -> tuple[dict, list[dict]]:
    """``current`` with what ``doc`` adds (fields, picklist values, child relationships, record types)."""
    merged = current
    added: list[dict] = []

    def writable() -> dict:
        nonlocal merged
        if merged is current:
            merged = copy.deepcopy(current)
        return merged

    fields = {f["name"].lower(): f for f in current["fields"]}
    for f in doc.get("fields", []):
        have = fields.get(f["name"].lower())
        if have is None:
            completed = _complete_field(f, f"{where}.{f['name']}")
            writable()["fields"].append(completed)
            added.append(completed)
        elif have["type"] in ("picklist", "multipicklist"):
            known = {v["value"] for v in have["picklistValues"]}
            extra = [v for v in _picklist_values(f.get("picklistValues", [])) if v["value"] not in known]
            if extra:
                target = next(g for g in writable()["fields"] if g["name"] == have["name"])
                target["picklistValues"] = [*target["picklistValues"], *extra]
    pairs = {(r["childSObject"].lower(), r["field"].lower()) for r in current.get("childRelationships", [])}
    for rel in doc.get("childRelationships", []):
        key = (str(rel.get("childSObject", "")).lower(), str(rel.get("field", "")).lower())
        if key not in pairs and all(key):
            writable()["childRelationships"].append(_child_relationship(rel))
            pairs.add(key)
    names = {rt["developerName"] for rt in current.get("recordTypeInfos", [])}
    extra_types = [
        rt
        for rt in doc.get("recordTypeInfos", [])
        if not rt.get("master") and rt.get("developerName") not in names
    ]
    if extra_types:
        target = writable()
        target["recordTypeInfos"] = [
            *[rt for rt in target["recordTypeInfos"] if not rt.get("master")],
            *extra_types,
            *[rt for rt in target["recordTypeInfos"] if rt.get("master")],
        ]
    return merged, added


def _label_of(api_name: str) -> str:
    """``Invoice_Line__c`` -> ``Invoice Line``."""
    base = re.sub(r"__(c|r)$", "", api_name)
    return base.replace("_", " ")


def _free_key_prefix(docs: dict[str, dict]) -> str:
    """The first custom-object key prefix no object uses (``a00``, ``a01`` ... as a new org hands them out)."""
    taken = {d.get("keyPrefix") for d in docs.values()}
    for second in _PREFIX_CHARACTERS:
        for third in _PREFIX_CHARACTERS:
            if f"a{second}{third}" not in taken:
                return f"a{second}{third}"
    raise DescribesError("describes: no free key prefix left")


# ---------------------------------------------------------------------------- fields
def _complete_field(f: dict, where: str) -> dict:
    """A field document with every describe key: the given ones, the rest as a real org reports the type."""
    spec = {k: v for k, v in f.items() if k in FIELD_KEYS and k not in ("referenceTo", "picklistValues")}
    spec["label"] = f.get("label") or _label_of(f["name"])
    if f["type"] == "reference":
        spec["to"] = list(f["referenceTo"])
    try:
        completed = expand_field(spec)
    except (ValueError, KeyError, TypeError) as exc:
        raise DescribesError(f"{where}: {exc}") from None
    completed["picklistValues"] = _picklist_values(f.get("picklistValues", []))
    return {**completed, **{k: v for k, v in f.items() if k not in completed}}


def _picklist_values(values: list) -> list[dict]:
    """Picklist entries with every key; a bare string is a value labelled by itself."""
    out = []
    for value in values:
        if isinstance(value, str):
            value = {"value": value}
        if not isinstance(value, dict) or not isinstance(value.get("value"), str):
            raise DescribesError(
                f"describes: a picklist value must be a string or have a 'value', got {value!r}"
            )
        out.append(
            {"active": True, "defaultValue": False, "label": value["value"], "validFor": None, **value}
        )
    return out


def _child_relationship(rel: dict) -> dict:
    return {
        "cascadeDelete": False,
        "childSObject": rel["childSObject"],
        "deprecatedAndHidden": False,
        "field": rel["field"],
        "junctionIdListNames": [],
        "junctionReferenceTo": [],
        "relationshipName": None,
        "restrictedDelete": False,
        **rel,
    }


# ---------------------------------------------------------------------------- relationships
def _resolve_references(
    docs: dict[str, dict], by_lower: dict[str, str], new_fields: list[tuple[str, dict]], source: str
) -> None:
    """Point every added lookup at the org's objects by their canonical names; drop what it cannot point at."""
    dropped: dict[str, set[str]] = {}
    for object_name, f in new_fields:
        targets = [by_lower[t.lower()] for t in f["referenceTo"] if t.lower() in by_lower]
        if targets:
            f["referenceTo"] = targets
            f["polymorphicForeignKey"] = len(targets) > 1 or f.get("polymorphicForeignKey", False)
            continue
        if f.get("custom") or f["name"].endswith("__c"):
            missing = ", ".join(f["referenceTo"])
            raise DescribesError(
                f"{source}: {object_name}.{f['name']} looks up {missing}, which the org does not have; "
                "add its describe document to the directory"
            )
        dropped.setdefault(object_name, set()).add(f["name"])
    for object_name, names in dropped.items():
        doc = docs[object_name]
        doc["fields"] = [f for f in doc["fields"] if f["name"] not in names]
    new_fields[:] = [(o, f) for o, f in new_fields if f["name"] not in dropped.get(o, ())]


def _keep_known_children(docs: dict[str, dict], by_lower: dict[str, str], name: str, before: dict) -> None:
    """Drop the child relationships an added document lists whose child object or field the org does not have."""
    kept = []
    had = {(r["childSObject"], r["field"]) for r in before.get("childRelationships", [])}
    for rel in docs[name].get("childRelationships", []):
        if (rel["childSObject"], rel["field"]) in had:
            kept.append(rel)
            continue
        child = docs.get(by_lower.get(str(rel["childSObject"]).lower(), ""))
        if child is None:
            continue
        field = next((f for f in child["fields"] if f["name"].lower() == str(rel["field"]).lower()), None)
        if field is not None and name in field.get("referenceTo", []):
            kept.append({**rel, "childSObject": child["name"], "field": field["name"]})
    docs[name]["childRelationships"] = sorted(kept, key=lambda r: (r["childSObject"], r["field"]))


def _add_child_relationships(docs: dict[str, dict], new_fields: list[tuple[str, dict]]) -> None:
    """List every added lookup on its parents, as :mod:`crmarena_sf.metadata.build` derives the project's own."""
    copied: set[str] = set()
    for child_name, f in new_fields:
        for parent_name in f["referenceTo"]:
            parent = docs[parent_name]
            rels = parent.get("childRelationships", [])
            if any(r["childSObject"] == child_name and r["field"] == f["name"] for r in rels):
                continue
            if parent_name not in copied:
                parent = docs[parent_name] = {**parent, "childRelationships": list(rels)}
                copied.add(parent_name)
            taken = {(r.get("relationshipName") or "").lower() for r in parent["childRelationships"]}
            parent["childRelationships"].append(
                _child_relationship(
                    {
                        "childSObject": child_name,
                        "field": f["name"],
                        "cascadeDelete": bool(f.get("cascadeDelete")),
                        "relationshipName": _default_relationship_name(docs[child_name], f, taken),
                    }
                )
            )
            parent["childRelationships"].sort(key=lambda r: (r["childSObject"], r["field"]))


def _default_relationship_name(child: dict, f: dict, taken: set[str]) -> str | None:
    """A custom lookup's proposed child relationship name: the child's plural label, ``__r`` (None if taken)."""
    if not f["name"].endswith("__c"):
        return None
    base = re.sub(r"[^A-Za-z0-9]+", "_", child.get("labelPlural") or child["name"]).strip("_")
    name = f"{base}__r"
    return None if not base or name.lower() in taken else name


def extend_schema(schema: Schema, dirs: tuple[str, ...]) -> tuple[Schema, frozenset[str]]:
    """``schema`` extended by the documents in ``dirs``, and the names of the objects that changed
    (added, or gaining fields or relationships). The same schema comes back when nothing is new."""
    return _extended(schema, dirs, signature(dirs))


@functools.lru_cache(maxsize=16)
def _extended(schema: Schema, dirs: tuple[str, ...], _signature: tuple) -> tuple[Schema, frozenset[str]]:
    before = {obj.name: obj.model_dump() for obj in schema}
    docs = before
    for directory in dirs:
        docs = extend_documents(docs, read_user_describes(directory), source=directory)
    changed = frozenset(name for name, doc in docs.items() if before.get(name) is not doc)
    if not changed:
        return schema, changed  # nothing new (the documents were added before): the org keeps its schema
    return Schema([SObject.model_validate(doc) for doc in docs.values()]), changed
