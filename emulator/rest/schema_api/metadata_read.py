"""The Metadata API calls that read an org's setup: ``describeMetadata``, ``listMetadata``, ``readMetadata``.

Metadata API Developer Guide, "describeMetadata()" (``DescribeMetadataResult``: each type's
``directoryName``, ``inFolder``, ``metaFile``, ``suffix``, ``xmlName``, ``childXmlNames``, then
``organizationNamespace``, ``partialSaveAllowed``, ``testRequired``), "listMetadata()" (one
``FileProperties`` per component of the queried types: ``createdById``, ``createdByName``,
``createdDate``, ``fileName``, ``fullName``, ``id``, ``lastModified*``, ``manageableState``,
``type``) and "readMetadata()" (``ReadResult``: one record per full name asked for, of the type
asked for; a name the org does not have comes back as an empty record, its ``fullName`` null).

CustomObject and CustomField components are the org's objects and fields
(:mod:`crmarena_sf.emulator.rest.schema_api.metadata_components`); components of other types are
those deployed (:mod:`crmarena_sf.emulator.store.deployed_metadata`), read back as sent.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.schema_api.metadata_components import custom_field_xml, custom_object_xml
from crmarena_sf.emulator.rest.transport.xml_body import XmlElement
from crmarena_sf.emulator.store import deployed_metadata

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

MAX_READ = 10
"""readMetadata takes at most ten full names ("readMetadata()": Limit: 10)."""

METADATA_TYPES = (
    # xmlName, directoryName, suffix, inFolder, metaFile, childXmlNames
    ("ApexClass", "classes", "cls", False, True, ()),
    ("ApexComponent", "components", "component", False, True, ()),
    ("ApexPage", "pages", "page", False, True, ()),
    ("ApexTrigger", "triggers", "trigger", False, True, ()),
    ("ApprovalProcess", "approvalProcesses", "approvalProcess", False, False, ()),
    ("AuraDefinitionBundle", "aura", None, False, False, ()),
    ("CustomApplication", "applications", "app", False, False, ()),
    ("CustomLabels", "labels", "labels", False, False, ("CustomLabel",)),
    ("CustomObject", "objects", "object", False, False,
     ("CustomField", "Index", "BusinessProcess", "CompactLayout", "RecordType", "WebLink", "ValidationRule",
      "SharingReason", "ListView", "FieldSet")),
    ("CustomTab", "tabs", "tab", False, False, ()),
    ("Dashboard", "dashboards", "dashboard", True, False, ()),
    ("FlexiPage", "flexipages", "flexipage", False, False, ()),
    ("Flow", "flows", "flow", False, False, ()),
    ("Layout", "layouts", "layout", False, False, ()),
    ("LightningComponentBundle", "lwc", None, False, False, ()),
    ("PermissionSet", "permissionsets", "permissionset", False, False, ()),
    ("Profile", "profiles", "profile", False, False, ()),
    ("QuickAction", "quickActions", "quickAction", False, False, ()),
    ("Report", "reports", "report", True, False, ()),
    ("ReportType", "reportTypes", "reportType", False, False, ()),
    ("Settings", "settings", "settings", False, False, ()),
    ("StaticResource", "staticresources", "resource", False, True, ()),
    ("Workflow", "workflows", "workflow", False, False,
     ("WorkflowFieldUpdate", "WorkflowKnowledgePublish", "WorkflowTask", "WorkflowAlert", "WorkflowSend",
      "WorkflowOutboundMessage", "WorkflowRule")),
)  # fmt: skip
"""The types this org deploys, lists and retrieves (a subset of a real org's describeMetadata)."""

TYPE_NAMES = {entry[0] for entry in METADATA_TYPES} | {"CustomField"}
DIRECTORIES = {entry[1]: entry for entry in METADATA_TYPES}


def _bool(value: bool) -> str:
    return "true" if value else "false"


def describe_metadata() -> str:
    """``describeMetadataResponse``'s result."""
    objects = []
    for name, directory, suffix, in_folder, meta_file, children in METADATA_TYPES:
        child_tags = "".join(f"<childXmlNames>{c}</childXmlNames>" for c in children)
        suffix_tag = f"<suffix>{suffix}</suffix>" if suffix else ""
        objects.append(
            f"<metadataObjects>{child_tags}<directoryName>{directory}</directoryName>"
            f"<inFolder>{_bool(in_folder)}</inFolder><metaFile>{_bool(meta_file)}</metaFile>"
            f"{suffix_tag}<xmlName>{name}</xmlName></metadataObjects>"
        )
    return (
        f"<result>{''.join(objects)}<organizationNamespace></organizationNamespace>"
        "<partialSaveAllowed>true</partialSaveAllowed><testRequired>false</testRequired></result>"
    )


# ---------------------------------------------------------------------------- listMetadata
def _stamp(when: dt.datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _file_properties(
    org: Org, kind: str, full_name: str, file_name: str, record_id: str, when: dt.datetime
) -> str:
    user, stamp = escape(org.user_id), _stamp(when)
    return (
        f"<result><createdById>{user}</createdById><createdByName>Admin User</createdByName>"
        f"<createdDate>{stamp}</createdDate><fileName>{escape(file_name)}</fileName>"
        f"<fullName>{escape(full_name)}</fullName><id>{escape(record_id)}</id>"
        f"<lastModifiedById>{user}</lastModifiedById><lastModifiedByName>Admin User</lastModifiedByName>"
        f"<lastModifiedDate>{stamp}</lastModifiedDate><manageableState>unmanaged</manageableState>"
        f"<type>{kind}</type></result>"
    )


def schema_component_ids(org: Org) -> dict[str, str]:
    """A stable Id for each object (``01I``) and custom field (``00N``) of the org's schema."""
    out = {}
    for number, obj in enumerate(sorted(org.schema, key=lambda o: o.name), start=1):
        out[obj.name] = ids.make_id("01I", number)
        for index, field in enumerate(f for f in obj.fields if f.custom):
            out[f"{obj.name}.{field.name}"] = ids.make_id("00N", number * 1000 + index + 1)
    return out


def list_metadata(org: Org, queries: list[tuple[str, str | None]]) -> str:
    """``listMetadataResponse``'s results for ``(type, folder)`` queries."""
    from crmarena_sf.emulator.store.seed import ORG_CREATED

    found = []
    component_ids = schema_component_ids(org)
    for kind, folder in queries:
        if kind == "CustomObject":
            for obj in sorted(org.schema, key=lambda o: o.name):
                record_id = component_ids[obj.name] if obj.custom else ""
                found.append(
                    _file_properties(
                        org, kind, obj.name, f"objects/{obj.name}.object", record_id, ORG_CREATED
                    )
                )
        elif kind == "CustomField":
            for obj in sorted(org.schema, key=lambda o: o.name):
                for field in obj.fields:
                    if field.custom:
                        name = f"{obj.name}.{field.name}"
                        found.append(
                            _file_properties(
                                org,
                                kind,
                                name,
                                f"objects/{obj.name}.object",
                                component_ids[name],
                                ORG_CREATED,
                            )
                        )
        for component in deployed_metadata.components(org, kind):
            if folder and not component.full_name.startswith(f"{folder}/"):
                continue
            found.append(
                _file_properties(
                    org, kind, component.full_name, component.file_name, component.id, component.modified
                )
            )
    return "".join(found)


# ---------------------------------------------------------------------------- readMetadata
def read_metadata(org: Org, kind: str, full_names: list[str]) -> str:
    """``readMetadataResponse``'s result: one record per full name."""
    if len(full_names) > MAX_READ:
        raise SalesforceError("EXCEEDED_ID_LIMIT", f"Cannot read more than {MAX_READ} components in one call")
    records = []
    for full_name in full_names:
        body = _read_one(org, kind, full_name)
        records.append(f'<records xsi:type="{kind}">{body}</records>')
    return f"<result>{''.join(records)}</result>"


def _converted_statuses(org: Org) -> dict[str, bool]:
    if org.schema.get("LeadStatus") is None:
        return {}
    with org.lock:
        rows = org.con.execute('SELECT "ApiName", "MasterLabel", "IsConverted" FROM "LeadStatus"').fetchall()
    return {(api or label): bool(converted) for api, label, converted in rows}


def _read_one(org: Org, kind: str, full_name: str) -> str:
    if kind == "CustomObject":
        obj = org.schema.get(full_name)
        return custom_object_xml(obj) if obj is not None and obj.name == full_name.strip() else ""
    if kind == "CustomField":
        object_name, _, field_name = full_name.partition(".")
        obj = org.schema.get(object_name)
        field = obj.field(field_name) if obj is not None else None
        if field is None:
            return ""
        converted = _converted_statuses(org) if (obj.name, field.name) == ("Lead", "Status") else None
        return custom_field_xml(obj, field, converted)
    component = deployed_metadata.find(org, kind, full_name)
    if component is None:
        return ""
    return f"<fullName>{escape(component.full_name)}</fullName>{_inner_xml(component.content, kind)}"


def _inner_xml(content: bytes, kind: str) -> str:
    """The children of a deployed component's root element, as sent (its own fullName dropped)."""
    from crmarena_sf.emulator.rest.schema_api.metadata_api import MAX_METADATA_DEPTH
    from crmarena_sf.emulator.rest.transport.xml_body import UnreadableXml, read_xml

    try:
        root = read_xml(content, MAX_METADATA_DEPTH)
    except (UnreadableXml, ValueError):
        return ""
    return "".join(element_xml(child) for child in root.children if child.name != "fullName")


def element_xml(element: XmlElement) -> str:
    """An element and its children as XML (namespaces dropped, as read)."""
    inner = "".join(element_xml(c) for c in element.children) if element.children else escape(element.text)
    return f"<{element.name}>{inner}</{element.name}>"


def read_queries(call: XmlElement) -> list[tuple[str, str | None]]:
    """The ``(type, folder)`` pairs of a listMetadata call."""
    out = []
    for query in (c for c in call.children if c.name == "queries"):
        kind = query.child("type")
        folder = query.child("folder")
        if kind is not None and kind.text.strip():
            out.append(
                (
                    kind.text.strip(),
                    folder.text.strip() if folder is not None and folder.text.strip() else None,
                )
            )
    return out
