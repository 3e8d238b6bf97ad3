"""Creating what the org lacks, and granting it: Metadata API components, then a permission set.

Objects and fields are created with the Metadata API's ``createMetadata`` through
simple-salesforce's ``sf.mdapi`` (Metadata API Developer Guide, "CustomObject", "CustomField";
at most ten components of one type per call): objects first, with their Name field (text or
auto-number), then every field, lookups last so their parents exist. A describe ``Field`` of
the dataset's metadata is turned back into the ``CustomField`` that makes it (the inverse of
what an org reports: ``textarea`` with ``richtextarea`` is ``Html``, a long one
``LongTextArea``, a ``reference`` a ``Lookup`` whose ``relationshipName`` is the parent's
child relationship without ``__r``).

A field made through the Metadata API is visible to no one until a profile or permission set
grants it (field-level security; Salesforce Help, "Field-Level Security"). The push therefore
keeps one permission set, ``CRMArena_Push``, inserts its object and field grants as
ObjectPermissions and FieldPermissions records, and assigns it to the running user
(PermissionSetAssignment) — all through the data API, each only when missing.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.loaders.push.client import PushClient, soql_string
from crmarena_sf.loaders.push.errors import OrgError
from crmarena_sf.loaders.push.keys import DESCRIPTION_PREFIX, PERMISSION_SET, PERMISSION_SET_LABEL
from crmarena_sf.loaders.push.plan import COLLECTION_SIZE, PushPlan
from crmarena_sf.loaders.push.target import Target
from crmarena_sf.metadata.model import Field, SObject

METADATA_BATCH = 10
NO_OBJECT_PERMISSIONS = {"User"}
"""Objects a permission set cannot grant (users are governed by 'Manage Users')."""


def deploy_schema(client: PushClient, plan: PushPlan) -> list[str]:
    """Create the custom objects and fields the plan needs; returns the full names created."""
    needs = plan.target.needs
    created: list[str] = []
    for start in range(0, len(needs.objects), METADATA_BATCH):
        batch = needs.objects[start : start + METADATA_BATCH]
        client.metadata(
            lambda md, batch=batch: md.CustomObject.create([_custom_object(md, o) for o in batch])
        )
        created.extend(o.name for o in batch)
    fields = sorted(needs.fields, key=lambda pair: pair[1].is_reference)
    for start in range(0, len(fields), METADATA_BATCH):
        batch = fields[start : start + METADATA_BATCH]
        client.metadata(
            lambda md, batch=batch: md.CustomField.create(
                [_custom_field(md, name, f, plan.target) for name, f in batch]
            )
        )
        created.extend(f"{name}.{f.name}" for name, f in batch)
    return created


def grant_access(client: PushClient, plan: PushPlan, user_id: str, permission_set: dict | None) -> list[str]:
    """Make sure ``CRMArena_Push`` exists, names this dataset, grants the push's objects and fields,
    and is assigned to the running user. Returns the grants the org refused (as warnings)."""
    description = DESCRIPTION_PREFIX + plan.fingerprint
    if permission_set is None:
        result = client.rest(
            "sobjects/PermissionSet",
            method="POST",
            json={"Name": PERMISSION_SET, "Label": PERMISSION_SET_LABEL, "Description": description},
        )
        set_id = result["id"]
    else:
        set_id = permission_set["Id"]
        if permission_set.get("Description") != description:
            client.rest(f"sobjects/PermissionSet/{set_id}", method="PATCH", json={"Description": description})
    warnings = []
    have_objects = {
        r["SobjectType"]
        for r in client.query_all(
            f"SELECT SobjectType FROM ObjectPermissions WHERE ParentId = {soql_string(set_id)}"
        )
    }
    objects = [
        {
            "attributes": {"type": "ObjectPermissions"},
            "ParentId": set_id,
            "SobjectType": name,
            "PermissionsCreate": True,
            "PermissionsRead": True,
            "PermissionsEdit": True,
            "PermissionsDelete": True,
        }
        for name in plan.loaded_objects
        if name not in have_objects and name not in NO_OBJECT_PERMISSIONS
    ]
    warnings += _insert(client, objects, "SobjectType")
    have_fields = {
        r["Field"]
        for r in client.query_all(
            f"SELECT Field FROM FieldPermissions WHERE ParentId = {soql_string(set_id)}"
        )
    }
    grants = [
        {
            "attributes": {"type": "FieldPermissions"},
            "ParentId": set_id,
            "SobjectType": name,
            "Field": f"{name}.{f.name}",
            "PermissionsRead": True,
            "PermissionsEdit": f.updateable or f.createable,
        }
        for name, f in _granted_fields(plan.target)
        if f"{name}.{f.name}" not in have_fields
    ]
    warnings += _insert(client, grants, "Field")
    assigned = client.query_all(
        "SELECT Id FROM PermissionSetAssignment WHERE PermissionSetId = "
        f"{soql_string(set_id)} AND AssigneeId = {soql_string(user_id)}"
    )
    if not assigned:
        client.rest(
            "sobjects/PermissionSetAssignment",
            method="POST",
            json={"PermissionSetId": set_id, "AssigneeId": user_id},
        )
    return warnings


def _granted_fields(target: Target) -> list[tuple[str, Field]]:
    """Custom fields of the loaded objects a permission set can grant (not required, not auto-numbered)."""
    out = []
    for name in target.loaded:
        obj = target.sobject(name)
        names = {f.name for f in obj.fields} if obj else set()
        names |= {f.name for n, f in target.needs.fields if n == name}
        for field_name in sorted(names):
            f = target.field(name, field_name)
            if f is None or not f.custom or not f.name.endswith("__c") or f.autoNumber or not f.nillable:
                continue
            out.append((name, f))
    return out


def _insert(client: PushClient, records: list[dict[str, Any]], label: str) -> list[str]:
    refused = []
    for start in range(0, len(records), COLLECTION_SIZE):
        batch = records[start : start + COLLECTION_SIZE]
        results = client.rest(
            "composite/sobjects", method="POST", json={"allOrNone": False, "records": batch}
        )
        for record, result in zip(batch, results, strict=False):
            if not result.get("success"):
                error = (result.get("errors") or [{}])[0]
                refused.append(f"{record[label]}: {error.get('statusCode')}: {error.get('message')}")
    return refused


# ---------------------------------------------------------------------------- describe -> metadata
def _custom_object(md: Any, obj: SObject) -> Any:
    name = obj.field("Name")
    if name is not None and name.autoNumber:
        name_field = md.CustomField(
            label=name.label, type=md.FieldType("AutoNumber"), displayFormat="{" + "0" * 8 + "}"
        )
    else:
        name_field = md.CustomField(label=name.label if name else "Name", type=md.FieldType("Text"))
    return md.CustomObject(
        fullName=obj.name,
        label=obj.label,
        pluralLabel=obj.labelPlural,
        nameField=name_field,
        deploymentStatus=md.DeploymentStatus("Deployed"),
        sharingModel=md.SharingModel("ReadWrite"),
    )


def _custom_field(md: Any, object_name: str, f: Field, target: Target) -> Any:
    kw: dict[str, Any] = {"fullName": f"{object_name}.{f.name}", "label": f.label}
    kind = f.type
    if kind == "string":
        kw.update(type=md.FieldType("Text"), length=f.length or 255)
    elif kind == "textarea" and (f.extraTypeInfo == "richtextarea" or f.htmlFormatted):
        kw.update(type=md.FieldType("Html"), length=f.length, visibleLines=25)
    elif kind == "textarea" and f.length > 255:
        kw.update(type=md.FieldType("LongTextArea"), length=f.length, visibleLines=3)
    elif kind == "textarea":
        kw.update(type=md.FieldType("TextArea"))
    elif kind == "reference":
        parent = f.referenceTo[0]
        child = target.child_relationship_name(object_name, f.name, parent) or f"{object_name}s__r"
        kw.update(
            type=md.FieldType("Lookup"),
            referenceTo=parent,
            relationshipName=child.removesuffix("__r"),
            relationshipLabel=object_name,
            deleteConstraint=md.DeleteConstraint("SetNull"),
        )
    elif kind in ("picklist", "multipicklist"):
        values = [
            md.CustomValue(fullName=v.value, default=v.defaultValue, label=v.label or v.value)
            for v in f.picklistValues
        ]
        kw.update(
            type=md.FieldType("Picklist" if kind == "picklist" else "MultiselectPicklist"),
            valueSet=md.ValueSet(
                restricted=f.restrictedPicklist,
                valueSetDefinition=md.ValueSetValuesDefinition(sorted=False, value=values),
            ),
        )
        if kind == "multipicklist":
            kw["visibleLines"] = 4
    elif kind == "boolean":
        kw.update(type=md.FieldType("Checkbox"), defaultValue="true" if f.defaultValue else "false")
    elif kind in ("double", "currency", "percent", "int"):
        names = {"double": "Number", "int": "Number", "currency": "Currency", "percent": "Percent"}
        kw.update(type=md.FieldType(names[kind]), precision=f.precision or 18, scale=f.scale or 0)
    elif kind in ("date", "datetime", "email", "phone", "url"):
        names = {"date": "Date", "datetime": "DateTime", "email": "Email", "phone": "Phone", "url": "Url"}
        kw.update(type=md.FieldType(names[kind]))
    else:
        raise OrgError("UNSUPPORTED_FIELD", f"cannot create {object_name}.{f.name} of type {kind}")
    if f.externalId:
        kw["externalId"] = True
    if f.unique:
        kw["unique"] = True
    if f.caseSensitive:
        kw["caseSensitive"] = True
    return md.CustomField(**kw)
