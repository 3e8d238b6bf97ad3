"""The typed schema: describe documents as pydantic models with case-insensitive lookups.

Salesforce resolves object, field and relationship names case-insensitively and answers
with the canonical API casing; every lookup here does the same. Describe keys the model
does not name are kept (``extra="allow"``), so ``model_dump()`` gives back the document.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from pydantic import BaseModel, ConfigDict

CLOSED_CASE_STATUSES = frozenset({"Closed"})
"""Case statuses whose CaseStatus row has IsClosed = true in a new org."""

NAME_PARTS = ("FirstName", "MiddleName", "LastName", "Suffix")
"""Components of a person's Name, in order (Object Reference: Contact.Name, User.Name)."""


class PicklistValue(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)
    active: bool = True
    defaultValue: bool = False
    label: str | None = None
    validFor: str | None = None
    value: str


class Field(BaseModel):
    """One entry of a describe's ``fields``."""

    model_config = ConfigDict(extra="allow")
    name: str
    label: str
    type: str
    soapType: str
    length: int = 0
    byteLength: int = 0
    precision: int = 0
    scale: int = 0
    digits: int = 0
    nillable: bool = True
    createable: bool = True
    updateable: bool = True
    defaultedOnCreate: bool = False
    defaultValue: Any = None
    unique: bool = False
    externalId: bool = False
    idLookup: bool = False
    calculated: bool = False
    autoNumber: bool = False
    caseSensitive: bool = False
    custom: bool = False
    nameField: bool = False
    filterable: bool = True
    groupable: bool = True
    sortable: bool = True
    aggregatable: bool = True
    htmlFormatted: bool = False
    restrictedPicklist: bool = False
    polymorphicForeignKey: bool = False
    compoundFieldName: str | None = None
    extraTypeInfo: str | None = None
    relationshipName: str | None = None
    referenceTo: list[str] = []
    picklistValues: list[PicklistValue] = []

    @property
    def required_on_create(self) -> bool:
        """True when an insert must name this field (CumulusCI's rule, matching Salesforce's REQUIRED_FIELD_MISSING)."""
        return (
            self.createable and not self.nillable and not self.defaultedOnCreate and self.defaultValue is None
        )

    @property
    def is_reference(self) -> bool:
        return self.type == "reference"

    @property
    def is_compound(self) -> bool:
        """Address and location fields: queryable as a whole, stored as their components."""
        return self.type in ("address", "location")

    @cached_property
    def picklist_values(self) -> tuple[str, ...]:
        """Active picklist values, in describe order."""
        return tuple(v.value for v in self.picklistValues if v.active)

    @cached_property
    def _picklist_lookup(self) -> dict[str, str]:
        return {v.value.lower(): v.value for v in self.picklistValues if v.active}

    def canonical_picklist_value(self, value: str) -> str | None:
        """The picklist value ``value`` names, ignoring case, or None."""
        return self._picklist_lookup.get(value.lower())


class ChildRelationship(BaseModel):
    model_config = ConfigDict(extra="allow")
    childSObject: str
    field: str
    relationshipName: str | None = None
    cascadeDelete: bool = False
    restrictedDelete: bool = False


class RecordTypeInfo(BaseModel):
    model_config = ConfigDict(extra="allow")
    developerName: str
    name: str
    recordTypeId: str
    master: bool = False


class SObject(BaseModel):
    """One describe document."""

    model_config = ConfigDict(extra="allow")
    name: str
    label: str
    labelPlural: str
    keyPrefix: str | None = None
    custom: bool = False
    createable: bool = True
    updateable: bool = True
    deletable: bool = True
    queryable: bool = True
    searchable: bool = True
    fields: list[Field]
    childRelationships: list[ChildRelationship] = []
    recordTypeInfos: list[RecordTypeInfo] = []

    @cached_property
    def _fields(self) -> dict[str, Field]:
        return {f.name.lower(): f for f in self.fields}

    @cached_property
    def _parents(self) -> dict[str, Field]:
        return {f.relationshipName.lower(): f for f in self.fields if f.is_reference and f.relationshipName}

    @cached_property
    def _children(self) -> dict[str, ChildRelationship]:
        return {c.relationshipName.lower(): c for c in self.childRelationships if c.relationshipName}

    def field(self, name: str) -> Field | None:
        """The field called ``name`` (any casing), or None."""
        return self._fields.get(name.lower())

    def parent_relationship(self, name: str) -> Field | None:
        """The reference field whose relationshipName is ``name`` (``Account``, ``Owner``, ``IssueId__r``), or None."""
        return self._parents.get(name.lower())

    def child_relationship(self, name: str) -> ChildRelationship | None:
        """The child relationship called ``name`` (``Contacts``, ``Cases__r``), or None."""
        return self._children.get(name.lower())

    @cached_property
    def stored_fields(self) -> list[Field]:
        """Fields kept as columns: every field but compound address/location fields."""
        return [f for f in self.fields if not f.is_compound]

    def compound_components(self, name: str) -> dict[str, str]:
        """The parts of an address/location field: REST key -> component field, in REST order.

        ``BillingAddress`` -> ``{"city": "BillingCity", "country": "BillingCountry", ...}``;
        the keys are the component names without the compound's prefix, lower camel case.
        """
        cached = self._compounds.get(name)
        if cached is None:
            prefix = name[: -len("Address")] if name.endswith("Address") else name
            found = {}
            for component in self.fields:
                if component.compoundFieldName == name:
                    suffix = (
                        component.name[len(prefix) :] if component.name.startswith(prefix) else component.name
                    )
                    found[suffix[:1].lower() + suffix[1:]] = component.name
            cached = self._compounds[name] = dict(sorted(found.items()))
        return cached

    @cached_property
    def _compounds(self) -> dict[str, dict[str, str]]:
        return {}

    @cached_property
    def required_fields(self) -> list[Field]:
        """Fields an insert must name."""
        return [f for f in self.fields if f.required_on_create]

    @cached_property
    def name_field(self) -> Field | None:
        """The field that names a record (``Name``, ``CaseNumber``, ``Title`` ...)."""
        return next((f for f in self.fields if f.nameField), None)

    @cached_property
    def person_name_parts(self) -> tuple[str, ...]:
        """The stored fields a derived person ``Name`` is built from, if this object has one."""
        name = self.field("Name")
        if name is None or name.extraTypeInfo not in ("personname", "switchablepersonname"):
            return ()
        return tuple(p for p in NAME_PARTS if self.field(p) is not None)

    def record_type(self, name_or_id: str) -> RecordTypeInfo | None:
        """A record type by developer name, label or Id."""
        key = name_or_id.lower()
        for rt in self.recordTypeInfos:
            if key in (
                rt.developerName.lower(),
                rt.name.lower(),
                rt.recordTypeId.lower(),
                rt.recordTypeId[:15].lower(),
            ):
                return rt
        return None


class Schema:
    """Every sObject of an org, looked up case-insensitively by name or key prefix."""

    def __init__(self, objects: list[SObject]) -> None:
        self.objects: dict[str, SObject] = {o.name.lower(): o for o in objects}
        self._by_prefix = {o.keyPrefix: o for o in objects if o.keyPrefix}

    def __iter__(self):
        return iter(self.objects.values())

    def __len__(self) -> int:
        return len(self.objects)

    def __contains__(self, name: str) -> bool:
        return name.lower() in self.objects

    def get(self, name: str) -> SObject | None:
        """The sObject called ``name`` (any casing), or None."""
        return self.objects.get(name.lower())

    def by_key_prefix(self, prefix: str) -> SObject | None:
        """The sObject whose Ids start with ``prefix``."""
        return self._by_prefix.get(prefix)

    def object_of_id(self, record_id: str) -> SObject | None:
        """The sObject an Id belongs to, from its key prefix."""
        return self._by_prefix.get(record_id[:3]) if record_id else None

    @property
    def names(self) -> list[str]:
        return [o.name for o in self.objects.values()]

    def unresolved_references(self) -> list[str]:
        """``Object.Field -> Target`` for every referenceTo target missing from the schema."""
        missing = []
        for obj in self:
            for f in obj.fields:
                for target in f.referenceTo:
                    if target not in self:
                        missing.append(f"{obj.name}.{f.name} -> {target}")
        return missing
