"""The org's schema as it will be once the push has added its part, and what that part is.

The dataset's metadata (CRMArena's schema, :func:`crmarena_sf.metadata.load_schema`) names the custom
objects and fields its rows use (``Issue__c``, ``CaseHistory__c``, ``Case.IssueId__c``,
``Knowledge__kav.FAQ_Answer__c`` ...). An org that lacks them gets them, and every object the
push loads gets the key field :data:`~crmarena_sf.loaders.push.keys.KEY_FIELD`. :class:`Target` answers
"which field will the org have, and is it writable?" before anything is created, so a dry run
plans exactly what a real run does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crmarena_sf.loaders.push.keys import KEY_FIELD, KEY_LENGTH
from crmarena_sf.loaders.push.rules import KEYLESS
from crmarena_sf.metadata.model import Field, Schema, SObject
from crmarena_sf.metadata.spec import expand_field


def key_field() -> Field:
    """``CRMArena_Key__c``: Text, External ID, unique, case-insensitive (an idLookup field)."""
    spec = {
        "name": KEY_FIELD,
        "type": "string",
        "label": "CRMArena Key",
        "length": KEY_LENGTH,
        "externalId": True,
        "idLookup": True,
        "unique": True,
    }
    return Field.model_validate(expand_field(spec))


@dataclass
class SchemaNeeds:
    """What the push creates: custom objects (with their Name field), then custom fields."""

    objects: list[SObject] = field(default_factory=list)
    fields: list[tuple[str, Field]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.objects or self.fields)


class Target:
    """The target org's objects and fields, including those the push will create."""

    def __init__(self, org: dict[str, SObject], source: Schema, loaded: list[str]) -> None:
        self.org = org
        """Describes of the dataset's objects the org has (by name)."""
        self.source = source
        self.loaded = list(loaded)
        self.needs = SchemaNeeds()
        self._added: dict[str, dict[str, Field]] = {}
        existing = {name.lower() for name in org}
        for name in self.loaded:
            if name.lower() not in existing and name.endswith("__c"):
                self.needs.objects.append(source.get(name))
        will_exist = existing | {o.name.lower() for o in self.needs.objects}
        for name in self.loaded:
            src = source.get(name)
            have = org.get(name)
            wanted = [f for f in src.fields if f.custom and f.name.endswith("__c")] if src else []
            if name not in KEYLESS:
                wanted.append(key_field())
            for f in wanted:
                if have is not None and have.field(f.name) is not None:
                    continue
                if f.is_reference and not all(t.lower() in will_exist for t in f.referenceTo):
                    continue  # its parent is neither in the org nor loaded: the field cannot exist
                self.needs.fields.append((name, f))
                self._added.setdefault(name.lower(), {})[f.name.lower()] = f

    def has_object(self, name: str) -> bool:
        return name in self.org or any(o.name == name for o in self.needs.objects)

    def sobject(self, name: str) -> SObject | None:
        """The org's describe of ``name``, or the dataset's for a custom object the push creates."""
        if name in self.org:
            return self.org[name]
        return next((o for o in self.needs.objects if o.name == name), None)

    def field(self, object_name: str, field_name: str) -> Field | None:
        """The field as the org will have it (None: the org lacks it and the push does not add it)."""
        added = self._added.get(object_name.lower(), {}).get(field_name.lower())
        if added is not None:
            return added
        obj = self.org.get(object_name)
        if obj is not None:
            return obj.field(field_name)
        created = self.sobject(object_name)
        f = created.field(field_name) if created is not None else None
        return None if f is not None and f.custom and f.name.endswith("__c") else f

    def child_relationship_name(self, child: str, field_name: str, parent: str) -> str | None:
        """The parent's name for the children of ``child.field_name`` (``Cases__r``), from the dataset's metadata."""
        src = self.source.get(parent)
        for rel in src.childRelationships if src else []:
            if rel.childSObject == child and rel.field == field_name:
                return rel.relationshipName
        return None
