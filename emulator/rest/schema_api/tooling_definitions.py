"""The Tooling API's view of an org's schema: ``EntityDefinition``, ``FieldDefinition``, ``CustomObject``, ``CustomField``.

Tooling API Developer Guide, "EntityDefinition", "FieldDefinition", "CustomObject" and
"CustomField" (https://developer.salesforce.com/docs/atlas.en-us.api_tooling.meta/api_tooling/tooling_api_objects_entitydefinition.htm
and neighbours): one EntityDefinition per object (``QualifiedApiName``, ``DurableId``, ``Label``,
``KeyPrefix``, ``IsCustomizable`` ...), one FieldDefinition per field (``QualifiedApiName``,
``DataType`` such as ``Text(80)`` or ``Lookup(Account)``, ``EntityDefinitionId`` and the
``EntityDefinition`` relationship, so ``WHERE EntityDefinition.QualifiedApiName = 'Account'``
works), one CustomObject per custom object and one CustomField per custom field (``DeveloperName``
without ``__c``, ``TableEnumOrId``). Their rows are built from the org's describes, so a field made
through the Metadata API appears at once. They live in a small DuckDB of their own, one per
schema (rebuilt when the schema changes), and the SOQL engine queries it: filters, relationships,
ordering and paging behave as in any query. An EntityDefinition's Id is its ``DurableId`` (the
object's name, or its ``01I`` Id when custom) as the guide shows; a filter on
``EntityDefinitionId`` must therefore name a custom object's Id (the engine checks Id literals).
"""

from __future__ import annotations

import threading
import weakref

import duckdb
from crmarena_sf.emulator import soql
from crmarena_sf.emulator.rest.schema_api.metadata_read import schema_component_ids
from crmarena_sf.emulator.store.ddl import create_table_sql
from crmarena_sf.emulator.store.dml import write_rows
from crmarena_sf.metadata.build import build_describes
from crmarena_sf.metadata.model import Field, Schema, SObject
from crmarena_sf.metadata.spec import field, sobject

DEFINITION_OBJECTS = ("EntityDefinition", "FieldDefinition", "CustomObject", "CustomField")
_READ = {"createable": False, "updateable": False}


def _ro(name: str, kind: str, label: str, **extra) -> dict:
    return field(name, kind, label, **_READ, **extra)


def _specs() -> list[dict]:
    flags = {"createable": False, "updateable": False, "deletable": False, "searchable": False, "scopes": []}
    return [
        sobject(
            "EntityDefinition",
            "Entity Definition",
            "Entity Definitions",
            None,
            **flags,
            fields=[
                field("Id", "id", "Entity Definition ID"),
                _ro("DurableId", "string", "Durable ID", length=70),
                _ro("QualifiedApiName", "string", "Qualified API Name", length=250, nameField=True),
                _ro("DeveloperName", "string", "Developer Name", length=40),
                _ro("NamespacePrefix", "string", "Namespace Prefix", length=15),
                _ro("MasterLabel", "string", "Master Label", length=40),
                _ro("Label", "string", "Label", length=40),
                _ro("PluralLabel", "string", "Plural Label", length=40),
                _ro("KeyPrefix", "string", "Key Prefix", length=3),
                _ro("IsCustomizable", "boolean", "Customizable"),
                _ro("IsQueryable", "boolean", "Queryable"),
                _ro("IsSearchable", "boolean", "Searchable"),
                _ro("IsTriggerable", "boolean", "Triggerable"),
                _ro("IsLayoutable", "boolean", "Layoutable"),
                _ro("IsEverCreatable", "boolean", "Ever Creatable"),
                _ro("IsEverUpdatable", "boolean", "Ever Updatable"),
                _ro("IsEverDeletable", "boolean", "Ever Deletable"),
                _ro("IsCustomSetting", "boolean", "Custom Setting"),
                _ro("IsDeprecatedAndHidden", "boolean", "Deprecated and Hidden"),
            ],
        ),  # fmt: skip
        sobject(
            "FieldDefinition",
            "Field Definition",
            "Field Definitions",
            None,
            **flags,
            fields=[
                field("Id", "id", "Field Definition ID"),
                _ro("DurableId", "string", "Durable ID", length=200),
                _ro("QualifiedApiName", "string", "Qualified API Name", length=250, nameField=True),
                _ro("DeveloperName", "string", "Developer Name", length=40),
                _ro("NamespacePrefix", "string", "Namespace Prefix", length=15),
                _ro("MasterLabel", "string", "Master Label", length=40),
                _ro("Label", "string", "Label", length=40),
                _ro("DataType", "string", "Data Type", length=255),
                _ro("ValueTypeId", "string", "Value Type ID", length=70),
                _ro(
                    "EntityDefinitionId",
                    "reference",
                    "Entity Definition ID",
                    to="EntityDefinition",
                    child="Fields",
                ),
                _ro("Length", "int", "Length", digits=9),
                _ro("Precision", "int", "Precision", digits=9),
                _ro("Scale", "int", "Scale", digits=9),
                _ro("Digits", "int", "Digits", digits=9),
                _ro("IsNillable", "boolean", "Nillable"),
                _ro("IsIndexed", "boolean", "Indexed"),
                _ro("IsCalculated", "boolean", "Calculated"),
                _ro("IsNameField", "boolean", "Name Field"),
                _ro("IsApiFilterable", "boolean", "API Filterable"),
                _ro("IsApiSortable", "boolean", "API Sortable"),
                _ro("IsApiGroupable", "boolean", "API Groupable"),
                _ro("IsCompound", "boolean", "Compound"),
                _ro("IsPolymorphicForeignKey", "boolean", "Polymorphic Foreign Key"),
                _ro("RelationshipName", "string", "Relationship Name", length=80),
                _ro("ExtraTypeInfo", "string", "Extra Type Info", length=40),
            ],
        ),  # fmt: skip
        sobject(
            "CustomObject",
            "Custom Object",
            "Custom Objects",
            "01I",
            **flags,
            fields=[
                field("Id", "id", "Custom Object ID"),
                _ro("DeveloperName", "string", "Object Name", length=40, nameField=True),
                _ro("NamespacePrefix", "string", "Namespace Prefix", length=15),
                _ro("ManageableState", "string", "Manageable State", length=40),
                _ro("SharingModel", "string", "Sharing Model", length=40),
                _ro("ExternalSharingModel", "string", "External Sharing Model", length=40),
                _ro("Description", "string", "Description", length=1000),
            ],
        ),  # fmt: skip
        sobject(
            "CustomField",
            "Custom Field",
            "Custom Fields",
            "00N",
            **flags,
            fields=[
                field("Id", "id", "Custom Field Definition ID"),
                _ro("TableEnumOrId", "string", "Table Enum or ID", length=40),
                _ro("DeveloperName", "string", "Field Name", length=40, nameField=True),
                _ro("NamespacePrefix", "string", "Namespace Prefix", length=15),
                _ro("ManageableState", "string", "Manageable State", length=40),
                _ro("InlineHelpText", "string", "Help Text", length=510),
                _ro("Length", "int", "Length", digits=9),
                _ro("Description", "string", "Description", length=1000),
                _ro("FullName", "string", "Full Name", length=255),
                _ro("EntityDefinitionId", "string", "Entity Definition ID", length=70),
            ],
        ),  # fmt: skip
    ]


_SCHEMA: Schema | None = None
_SCHEMA_LOCK = threading.Lock()


def definitions_schema() -> Schema:
    """The four objects' describes (built once)."""
    global _SCHEMA
    with _SCHEMA_LOCK:
        if _SCHEMA is None:
            documents = build_describes(_specs())
            _SCHEMA = Schema([SObject.model_validate(doc) for doc in documents.values()])
        return _SCHEMA


def data_type(f: Field) -> str:
    """FieldDefinition.DataType as Setup shows it (``Text(80)``, ``Lookup(Account)``, ``Number(18, 0)`` ...)."""
    if f.autoNumber:
        return "Auto Number"
    kind = f.type
    if kind == "reference":
        targets = ",".join(f.referenceTo)
        return f"Lookup({targets})" if f.custom or kind == "reference" else targets
    if kind == "string":
        return f"Text({f.length})"
    if kind == "textarea":
        return f"Long Text Area({f.length})" if f.length > 255 else f"Text Area({f.length})"
    if kind in ("double", "int"):
        return f"Number({f.precision or f.digits}, {f.scale})"
    if kind == "currency":
        return f"Currency({f.precision}, {f.scale})"
    if kind == "percent":
        return f"Percent({f.precision}, {f.scale})"
    names = {
        "id": "Lookup()", "boolean": "Checkbox", "date": "Date", "datetime": "Date/Time", "time": "Time",
        "email": "Email", "phone": "Phone", "url": "URL", "picklist": "Picklist",
        "multipicklist": "Picklist (Multi-Select)", "combobox": "Picklist", "address": "Address",
        "location": "Geolocation", "base64": "Binary",
    }  # fmt: skip
    return names.get(kind, kind)


def _developer_name(name: str) -> str:
    return name.removesuffix("__c")


def _rows(schema: Schema, component_ids: dict[str, str]) -> dict[str, list[dict]]:
    entities, fields, custom_objects, custom_fields = [], [], [], []
    for obj in sorted(schema, key=lambda o: o.name):
        durable = component_ids[obj.name] if obj.custom else obj.name
        entities.append(
            {
                "Id": durable, "DurableId": durable, "QualifiedApiName": obj.name,
                "DeveloperName": _developer_name(obj.name), "MasterLabel": obj.label, "Label": obj.label,
                "PluralLabel": obj.labelPlural, "KeyPrefix": obj.keyPrefix, "IsCustomizable": obj.custom or obj.layoutable,
                "IsQueryable": obj.queryable, "IsSearchable": obj.searchable, "IsTriggerable": bool(obj.model_extra.get("triggerable")),
                "IsLayoutable": bool(obj.model_extra.get("layoutable")), "IsEverCreatable": obj.createable,
                "IsEverUpdatable": obj.updateable, "IsEverDeletable": obj.deletable,
                "IsCustomSetting": bool(obj.model_extra.get("customSetting")), "IsDeprecatedAndHidden": False,
            }
        )  # fmt: skip
        if obj.custom:
            custom_objects.append(
                {"Id": component_ids[obj.name], "DeveloperName": _developer_name(obj.name), "ManageableState": "unmanaged",
                 "SharingModel": "ReadWrite", "ExternalSharingModel": "Private"}
            )  # fmt: skip
        for f in obj.fields:
            durable_field = f"{durable}.{component_ids.get(f'{obj.name}.{f.name}', f.name)}"
            fields.append(
                {
                    "Id": durable_field, "DurableId": durable_field, "QualifiedApiName": f.name,
                    "DeveloperName": _developer_name(f.name), "MasterLabel": f.label, "Label": f.label,
                    "DataType": data_type(f), "ValueTypeId": f.soapType.removeprefix("tns:").removeprefix("xsd:"),
                    "EntityDefinitionId": durable, "Length": f.length, "Precision": f.precision, "Scale": f.scale,
                    "Digits": f.digits, "IsNillable": f.nillable, "IsIndexed": f.type in ("id", "reference") or f.externalId,
                    "IsCalculated": f.calculated, "IsNameField": f.nameField, "IsApiFilterable": f.filterable,
                    "IsApiSortable": f.sortable, "IsApiGroupable": f.groupable, "IsCompound": f.is_compound,
                    "IsPolymorphicForeignKey": f.polymorphicForeignKey, "RelationshipName": f.relationshipName,
                    "ExtraTypeInfo": f.extraTypeInfo,
                }
            )  # fmt: skip
            if f.custom:
                custom_fields.append(
                    {
                        "Id": component_ids[f"{obj.name}.{f.name}"], "TableEnumOrId": durable,
                        "DeveloperName": _developer_name(f.name), "ManageableState": "unmanaged",
                        "InlineHelpText": f.model_extra.get("inlineHelpText"), "Length": f.length,
                        "FullName": f"{obj.name}.{f.name}", "EntityDefinitionId": durable,
                    }
                )  # fmt: skip
    return {
        "EntityDefinition": entities,
        "FieldDefinition": fields,
        "CustomObject": custom_objects,
        "CustomField": custom_fields,
    }


_ORGS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_ORGS_LOCK = threading.Lock()


def definitions_org(org):
    """An org holding the definitions of ``org``'s schema (built once per schema; the schema object
    changes whenever an object or field is added)."""
    from crmarena_sf.emulator.store.org import Org

    with _ORGS_LOCK:
        built = _ORGS.get(org.schema)
        if built is not None:
            return built
        schema = definitions_schema()
        connection = duckdb.connect(":memory:")
        catalog = connection.execute("SELECT current_database()").fetchone()[0]
        definitions = Org(connection, catalog, schema, "tooling")
        component_ids = schema_component_ids(org)
        with definitions.lock:
            for obj in schema:
                definitions.con.execute(create_table_sql(obj))
            for name, rows in _rows(org.schema, component_ids).items():
                write_rows(definitions, schema.get(name), rows)
        _ORGS[org.schema] = definitions
        return definitions


def query_definitions(org, text: str, batch_size: int, api_version: str) -> dict:
    """The data-API body of a SOQL query over the definitions of ``org``."""
    return soql.query(definitions_org(org), text, batch_size=batch_size, api_version=api_version)
