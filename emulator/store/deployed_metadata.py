"""Metadata components the emulator does not model, kept as deployed: Apex, layouts, workflows, reports ...

Metadata API Developer Guide, "deploy()" and "retrieve()": a deploy sends a zip of components,
each a file (``classes/Hello.cls`` with its ``classes/Hello.cls-meta.xml``) of a type
(``ApexClass``); a later retrieve of the same members gives the same files back. Types the
emulator models (CustomObject, CustomField) change the schema instead
(:mod:`crmarena_sf.emulator.store.schema_changes`); every other type is stored here as sent, with no
behaviour, and listed by ``listMetadata``. A type that is also an object (Object Reference:
ApexClass, ApexTrigger, ApexPage, ApexComponent, StaticResource, Report, Dashboard) gets its row,
so the data and Tooling APIs query it; the row's fields are read from the component (its body,
name and API version). Components live with the org in memory (a saved org file does not keep them).
"""

from __future__ import annotations

import datetime as dt
import re
import threading
import weakref
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.emulator.store.derive import apply_defaults
from crmarena_sf.emulator.store.dml import write_rows

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

OBJECT_TYPES = {
    "ApexClass": "Name",
    "ApexTrigger": "Name",
    "ApexPage": "Name",
    "ApexComponent": "Name",
    "StaticResource": "Name",
    "Report": "DeveloperName",
    "Dashboard": "DeveloperName",
}
"""Metadata types whose components are also rows of the object of the same name, keyed by this field."""

BODY_FIELDS = {"ApexClass": "Body", "ApexTrigger": "Body", "ApexPage": "Markup", "ApexComponent": "Markup"}


@dataclass
class Component:
    """One deployed component: its type, full name, file and content as sent."""

    type: str
    full_name: str
    file_name: str
    content: bytes
    meta: bytes | None
    id: str
    created: dt.datetime
    modified: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))


_STORE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_LOCK = threading.RLock()


def components(org: Org, type_name: str | None = None) -> list[Component]:
    """The components deployed to ``org`` (of ``type_name`` only, when given), in deploy order."""
    with _LOCK:
        found = list(_STORE.get(org, {}).values())
    return [c for c in found if type_name is None or c.type == type_name]


def find(org: Org, type_name: str, full_name: str) -> Component | None:
    with _LOCK:
        return _STORE.get(org, {}).get((type_name, full_name))


def store(
    org: Org, type_name: str, full_name: str, file_name: str, content: bytes, meta: bytes | None
) -> Component:
    """Keep one component as sent (replacing an earlier deploy of it) and write its row where it has one."""
    now = org.clock.now()
    with _LOCK:
        held = _STORE.setdefault(org, {})
        previous = held.get((type_name, full_name))
        component = Component(
            type_name,
            full_name,
            file_name,
            content,
            meta,
            previous.id if previous else _new_id(org, type_name),
            previous.created if previous else now,
            now,
        )
        held[(type_name, full_name)] = component
    if type_name in OBJECT_TYPES and org.schema.get(type_name) is not None:
        _write_row(org, component)
    return component


def remove(org: Org, type_name: str, full_name: str) -> bool:
    """Forget a component (a destructive change); False when none was deployed."""
    with _LOCK:
        gone = _STORE.get(org, {}).pop((type_name, full_name), None)
    if gone is not None and type_name in OBJECT_TYPES and org.schema.get(type_name) is not None:
        with org.lock, org.transaction():
            org.before_write(type_name)
            org.con.execute(f'DELETE FROM {quote(type_name)} WHERE "Id" = ?', [gone.id])
    return gone is not None


_PREFIXES = {"ApexClass": "01p", "ApexTrigger": "01q", "ApexPage": "066", "ApexComponent": "099",
             "StaticResource": "081", "Report": "00O", "Dashboard": "01Z"}  # fmt: skip


def _new_id(org: Org, type_name: str) -> str:
    obj = org.schema.get(type_name)
    if obj is not None and obj.keyPrefix:
        return org.new_id(obj)
    with _LOCK:
        count = sum(len(held) for held in _STORE.values()) + 1
    return ids.make_id(_PREFIXES.get(type_name, "0Af"), count)


_API_VERSION = re.compile(rb"<apiVersion>\s*([0-9.]+)\s*</apiVersion>")
_TAG = "<{0}>(.*?)</{0}>"


def _meta_value(component: Component, tag: str) -> str | None:
    source = (
        (component.meta or b"")
        + b"\n"
        + (component.content if component.type in ("Report", "Dashboard") else b"")
    )
    match = re.search(_TAG.format(tag).encode(), source, re.DOTALL)
    return match.group(1).decode("utf-8", "replace").strip() if match else None


def _version(text: str) -> Decimal | None:
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def _row(org: Org, component: Component) -> dict[str, Any]:
    version = _API_VERSION.search(component.meta or b"")
    name = component.full_name.rsplit("/", 1)[-1]
    row: dict[str, Any] = {"Id": component.id, OBJECT_TYPES[component.type]: name}
    text = component.content.decode("utf-8", "replace")
    if component.type in BODY_FIELDS:
        row[BODY_FIELDS[component.type]] = text
        row["ApiVersion"] = _version(version.group(1).decode()) if version else None
    if component.type in ("ApexClass", "ApexTrigger"):
        row.update(Status="Active", IsValid=True, LengthWithoutComments=len(text))
    if component.type == "ApexTrigger":
        target = re.search(r"trigger\s+\w+\s+on\s+(\w+)", text, re.IGNORECASE)
        row["TableEnumOrId"] = target.group(1) if target else None
    if component.type in ("ApexPage", "ApexComponent"):
        row["MasterLabel"] = _meta_value(component, "label") or name
    if component.type == "StaticResource":
        row.update(Body=component.content, BodyLength=len(component.content))
        row["ContentType"] = _meta_value(component, "contentType")
        row["CacheControl"] = _meta_value(component, "cacheControl") or "Private"
    if component.type == "Report":
        row["Name"] = _meta_value(component, "name") or name
        row["Format"] = _meta_value(component, "format")
        row["FolderName"] = component.full_name.rsplit("/", 1)[0] if "/" in component.full_name else None
    if component.type == "Dashboard":
        row["Title"] = _meta_value(component, "title") or name
        row["FolderName"] = component.full_name.rsplit("/", 1)[0] if "/" in component.full_name else None
    return row


def _write_row(org: Org, component: Component) -> None:
    obj = org.schema.get(component.type)
    row = {k: v for k, v in _row(org, component).items() if obj.field(k) is not None}
    apply_defaults(obj, row)
    for name in ("CreatedDate", "LastModifiedDate", "SystemModstamp"):
        if obj.field(name) is not None:
            row[name] = component.created if name == "CreatedDate" else component.modified
    for name in ("CreatedById", "LastModifiedById"):
        row[name] = org.user_id
    if obj.field("IsDeleted") is not None:
        row["IsDeleted"] = False
    with org.lock, org.transaction():
        org.before_write(obj.name)
        org.con.execute(f'DELETE FROM {quote(obj.name)} WHERE "Id" = ?', [component.id])
        write_rows(org, obj, [row])
