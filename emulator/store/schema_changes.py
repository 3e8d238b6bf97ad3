"""Changing a live org's schema: custom objects and fields created, updated, renamed and deleted.

What a real org does when the Metadata API creates a component (Metadata API Developer Guide,
"CustomObject" and "CustomField"; Object Reference, "Custom Objects"): a custom object gets
the standard fields every custom object has (Id, OwnerId, IsDeleted, Name, the audit fields,
LastViewedDate, LastReferencedDate) and a key prefix of its own; a custom field appears in
the object's describe, in SOQL and in SOSL at once, empty on every existing record; a lookup
adds a child relationship (``<relationshipName>__r``) to the parent it points at.

Every transport calls these functions (the SOAP Metadata API in :mod:`crmarena_sf.emulator.rest.schema_api.metadata_api`
today), so the change lives in the store: the org gets a new :class:`~crmarena_sf.metadata.model.Schema`
(schemas are shared between orgs and never mutated), its tables gain the table or column (a
fork reading the table through its parent gets its own copy first), and the describe documents
of every changed object are kept in the org's settings table so that
:func:`~crmarena_sf.emulator.store.settings.saved_schema` gives them back when the org file is reopened.

The Metadata API's ``updateMetadata``, ``renameMetadata`` and ``deleteMetadata`` change or remove
what it created (Metadata API Developer Guide, "updateMetadata()", "renameMetadata()",
"deleteMetadata()"): an update keeps the field's name and rewrites its describe (a new type
converts the column's values, refused when they do not convert); a rename renames the column and
the describe's field (and a lookup's entry in its parent's child relationships); a delete drops the
column, or the object's table unless another object's lookup points at it. Only custom fields and
objects change; standard ones are refused.
"""

from __future__ import annotations

import copy
import string
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.ddl import column_type, create_table_sql, quote
from crmarena_sf.emulator.store.events import SCHEMA_GROWN
from crmarena_sf.emulator.store.settings import save_documents
from crmarena_sf.metadata.custom_objects import custom_object_describe
from crmarena_sf.metadata.model import Schema, SObject
from crmarena_sf.metadata.spec import expand_field

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

_PREFIX_CHARACTERS = string.digits + string.ascii_uppercase + string.ascii_lowercase
_CACHES_OF_THE_OLD_SCHEMA = ("rest.describe", "sosl.index")
"""Per-org caches built from the schema: the describe bodies, and which objects the search index holds."""


def duplicate_name(message: str) -> SalesforceError:
    return SalesforceError("DUPLICATE_DEVELOPER_NAME", message, [])


def add_custom_object(
    org: Org, name: str, label: str, plural_label: str, name_field: dict[str, Any]
) -> SObject:
    """Create custom object ``name`` (``X__c``) whose Name field is ``name_field`` (a field spec:
    ``{"type": "string", "label": ..., "length": 80}`` or an auto-number); returns its describe.

    DUPLICATE_DEVELOPER_NAME when the org has an object of that name.
    """
    if org.schema.get(name) is not None:
        raise duplicate_name(f"There is already a Custom Object named {name}.")
    if not name.endswith("__c") or len(name) <= 3:
        raise SalesforceError(
            "FIELD_INTEGRITY_EXCEPTION", f"Invalid custom object name: {name}", ["fullName"]
        )
    doc = custom_object_describe(name, label, plural_label, _free_key_prefix(org.schema), name_field)
    # Every custom object can be owned by users and queues and points at the User table.
    _replace(org, {name: doc}, new_tables=[name])
    return org.schema.get(name)


def add_custom_field(org: Org, object_name: str, spec: dict[str, Any]) -> SObject:
    """Add the field ``spec`` (a :func:`crmarena_sf.metadata.spec.field` dict; a reference names ``to`` and the
    parent's ``child`` relationship name) to ``object_name``; returns the object's new describe.

    DUPLICATE_DEVELOPER_NAME when the object has the field; INVALID_CROSS_REFERENCE_KEY when the
    object, or a lookup's target, does not exist.
    """
    obj = org.schema.get(object_name)
    if obj is None:
        raise SalesforceError(
            "INVALID_CROSS_REFERENCE_KEY",
            f"In field: fullName - no CustomObject named {object_name} found",
            [],
        )
    if obj.field(spec["name"]) is not None:
        raise duplicate_name(f"There is already a field named {spec['name']} on {obj.label}.")
    changed: dict[str, dict] = {}
    described = expand_field(spec)
    doc = _document(org, obj.name, changed)
    doc["fields"].append(described)
    for target_name in described["referenceTo"]:
        target = org.schema.get(target_name)
        if target is None:
            raise SalesforceError(
                "INVALID_CROSS_REFERENCE_KEY",
                f"In field: referenceTo - no CustomObject named {target_name} found",
                [],
            )
        parent = _document(org, target.name, changed)
        parent["childRelationships"].append(
            {
                "cascadeDelete": False,
                "childSObject": obj.name,
                "deprecatedAndHidden": False,
                "field": described["name"],
                "junctionIdListNames": [],
                "junctionReferenceTo": [],
                "relationshipName": spec.get("child"),
                "restrictedDelete": False,
            }
        )
        parent["childRelationships"].sort(key=lambda r: (r["childSObject"], r["field"]))
    _replace(org, changed, new_columns=[(obj.name, described["name"])])
    return org.schema.get(obj.name)


# ---------------------------------------------------------------------------- internals
def _document(org: Org, name: str, changed: dict[str, dict]) -> dict:
    """The describe document of ``name`` being changed (a deep copy of the current one)."""
    if name not in changed:
        changed[name] = copy.deepcopy(org.schema.get(name).model_dump())
    return changed[name]


def _free_key_prefix(schema: Schema) -> str:
    """The first unused custom-object key prefix (``a00``, ``a01`` ... as a new org hands them out)."""
    taken = {obj.keyPrefix for obj in schema}
    for second in _PREFIX_CHARACTERS:
        for third in _PREFIX_CHARACTERS:
            prefix = f"a{second}{third}"
            if prefix not in taken:
                return prefix
    raise SalesforceError("LIMIT_EXCEEDED", "maximum number of custom objects reached", [])


def _replace(
    org: Org,
    docs: dict[str, dict | None],
    *,
    new_tables: list[str] = (),
    new_columns: list[tuple[str, str]] = (),
    statements: list[tuple[str, str]] = (),
) -> None:
    """Install ``docs`` (complete describe documents; None removes an object) in the org: schema,
    tables, saved settings, caches. ``statements`` are ``(table, SQL)`` run first (a fork copies the
    table it reads through its parent before)."""
    objects = {name: SObject.model_validate(doc) for name, doc in docs.items() if doc is not None}
    schema = Schema([obj for obj in org.schema if obj.name not in docs] + list(objects.values()))
    with org.lock, org.transaction():
        for table, statement in statements:
            org.before_write(table)
            org.con.execute(statement)
        for name in new_tables:
            org.con.execute(create_table_sql(objects[name]))
        for table, column in new_columns:
            org.before_write(table)
            f = objects[table].field(column)
            org.con.execute(f"ALTER TABLE {quote(table)} ADD COLUMN {quote(f.name)} {column_type(f)}")
        save_documents(org, docs)
        org.schema = schema
        for key in _CACHES_OF_THE_OLD_SCHEMA:
            org.cache.pop(key, None)
        touched = [*new_tables, *(table for table, _ in new_columns), *(table for table, _ in statements)]
        for name in dict.fromkeys(touched):
            if name in objects:
                org.notify(
                    name, [], SCHEMA_GROWN
                )  # SOSL: the object joins (or is rebuilt in) an existing index


# ---------------------------------------------------------------------------- updates, renames, deletes
def _custom_field(org: Org, object_name: str, field_name: str):
    obj = org.schema.get(object_name)
    found = obj.field(field_name) if obj is not None else None
    if found is None or not found.custom:
        raise SalesforceError(
            "INVALID_CROSS_REFERENCE_KEY",
            f"In field: fullName - no CustomField named {object_name}.{field_name} found",
            [],
        )
    return obj, found


def update_custom_field(org: Org, object_name: str, spec: dict[str, Any]) -> SObject:
    """Rewrite custom field ``spec["name"]`` of ``object_name`` as ``spec`` describes it (same name)."""
    obj, old = _custom_field(org, object_name, spec["name"])
    described = expand_field(spec)
    if described["referenceTo"] != list(old.referenceTo):
        raise SalesforceError(
            "FIELD_INTEGRITY_EXCEPTION", "Cannot change the object a lookup points at", ["referenceTo"]
        )
    changed: dict[str, dict] = {}
    doc = _document(org, obj.name, changed)
    doc["fields"] = [described if f["name"] == old.name else f for f in doc["fields"]]
    new = SObject.model_validate(doc).field(old.name)
    statements = []
    if column_type(new) != column_type(old):
        statements.append(
            (
                obj.name,
                f"ALTER TABLE {quote(obj.name)} ALTER COLUMN {quote(old.name)} TYPE {column_type(new)}",
            )
        )
    try:
        _replace(org, changed, statements=statements)
    except SalesforceError:
        raise
    except Exception:  # DuckDB could not convert a stored value to the new type
        raise SalesforceError(
            "FIELD_INTEGRITY_EXCEPTION",
            f"Cannot change the type of {obj.name}.{old.name}: its values do not convert",
            ["type"],
        ) from None
    return org.schema.get(obj.name)


def update_custom_object(
    org: Org, name: str, label: str | None, plural_label: str | None, name_label: str | None
) -> SObject:
    """Relabel custom object ``name`` (and its name field)."""
    obj = org.schema.get(name)
    if obj is None or not obj.custom:
        raise SalesforceError(
            "INVALID_CROSS_REFERENCE_KEY", f"In field: fullName - no CustomObject named {name} found", []
        )
    changed: dict[str, dict] = {}
    doc = _document(org, obj.name, changed)
    doc["label"] = label or doc["label"]
    doc["labelPlural"] = plural_label or doc["labelPlural"]
    if name_label:
        for f in doc["fields"]:
            if f.get("nameField"):
                f["label"] = name_label
    _replace(org, changed)
    return org.schema.get(obj.name)


def rename_custom_field(org: Org, object_name: str, old_name: str, new_name: str) -> SObject:
    """Rename custom field ``old_name`` of ``object_name`` to ``new_name`` (``__c``), data kept."""
    obj, old = _custom_field(org, object_name, old_name)
    if (
        not new_name.endswith("__c")
        or not new_name[:-3].replace("_", "a").isalnum()
        or not new_name.isascii()
    ):
        raise SalesforceError(
            "FIELD_INTEGRITY_EXCEPTION", f"Invalid custom field name: {new_name}", ["fullName"]
        )
    if obj.field(new_name) is not None:
        raise duplicate_name(f"There is already a field named {new_name} on {obj.label}.")
    changed: dict[str, dict] = {}
    doc = _document(org, obj.name, changed)
    for f in doc["fields"]:
        if f["name"] == old.name:
            f["name"] = new_name
    for target in old.referenceTo:
        parent = _document(org, target, changed)
        for rel in parent["childRelationships"]:
            if rel["childSObject"] == obj.name and rel["field"] == old.name:
                rel["field"] = new_name
    statement = f"ALTER TABLE {quote(obj.name)} RENAME COLUMN {quote(old.name)} TO {quote(new_name)}"
    _replace(org, changed, statements=[(obj.name, statement)])
    return org.schema.get(obj.name)


def delete_custom_field(org: Org, object_name: str, field_name: str) -> SObject:
    """Remove custom field ``field_name`` from ``object_name``, its values with it."""
    obj, old = _custom_field(org, object_name, field_name)
    changed: dict[str, dict] = {}
    doc = _document(org, obj.name, changed)
    doc["fields"] = [f for f in doc["fields"] if f["name"] != old.name]
    for target in old.referenceTo:
        parent = _document(org, target, changed)
        parent["childRelationships"] = [
            r
            for r in parent["childRelationships"]
            if not (r["childSObject"] == obj.name and r["field"] == old.name)
        ]
    _replace(
        org, changed, statements=[(obj.name, f"ALTER TABLE {quote(obj.name)} DROP COLUMN {quote(old.name)}")]
    )
    return org.schema.get(obj.name)


def delete_custom_object(org: Org, name: str) -> None:
    """Remove custom object ``name`` and its records; refused while another object's lookup points at it."""
    obj = org.schema.get(name)
    if obj is None or not obj.custom:
        raise SalesforceError(
            "INVALID_CROSS_REFERENCE_KEY", f"In field: fullName - no CustomObject named {name} found", []
        )
    referrers = sorted(
        f"{other.name}.{f.name}"
        for other in org.schema
        if other.name != obj.name
        for f in other.fields
        if obj.name in f.referenceTo
    )
    if referrers:
        raise SalesforceError(
            "FIELD_INTEGRITY_EXCEPTION", f"{obj.name} is referenced by {', '.join(referrers)}", ["fullName"]
        )
    changed: dict[str, dict | None] = {}
    for f in obj.fields:
        for target in f.referenceTo:
            if target == obj.name or org.schema.get(target) is None:
                continue
            parent = _document(org, target, changed)  # type: ignore[arg-type]
            parent["childRelationships"] = [
                r for r in parent["childRelationships"] if r["childSObject"] != obj.name
            ]
    changed[obj.name] = None
    _replace(org, changed, statements=[(obj.name, f"DROP TABLE {quote(obj.name)}")])
