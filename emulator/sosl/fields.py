"""Which objects and fields search reads, from the org's describe metadata.

SOQL and SOSL Reference, "IN SearchGroup" (sforce_api_calls_sosl_in.htm):

- ALL FIELDS: "all searchable fields"; numeric fields are not searchable. The field types
  search indexes are text (string, including auto-numbers and name fields), text area (long
  and rich included), email, phone and URL; picklists, Ids, references, numbers, dates and
  booleans are not (Salesforce Help, "Searchable Fields by Object"), nor are formulas.
- NAME FIELDS: the fields whose describe says ``nameField``, plus, on some standard
  objects, the extra fields that page lists (Account Website/Site/NameLocal, Case
  SuppliedName/SuppliedCompany/Subject, Contact AssistantName/..., User CommunityNickname ...).
- EMAIL FIELDS: fields of type email. PHONE FIELDS: fields of type phone.
- SIDEBAR FIELDS: "valid records as listed in the Sidebar drop-down list"; Classic's sidebar
  search reads the same fields as ALL FIELDS here (the page does not list them).
- The IN clause "doesn't apply to articles, documents, feed comments, feed items, files,
  products, and solutions": for those every searchable field is searched.

Objects: those whose describe says ``searchable``. Without RETURNING a search covers them
all except the same article/document/feed/file/product/solution family, which "must be
specified explicitly in a RETURNING clause" (sforce_api_calls_sosl_returning.htm).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crmarena_sf.metadata.model import Field, Schema, SObject

TEXT_TYPES = frozenset({"string", "textarea", "email", "phone", "url", "encryptedstring"})

NAME_GROUP_EXTRAS = {
    "Account": ("Website", "Site", "NameLocal"),
    "Asset": ("SerialNumber",),
    "Case": ("SuppliedName", "SuppliedCompany", "Subject"),
    "Contact": ("AssistantName", "FirstNameLocal", "LastNameLocal", "AccountName"),
    "Event": ("Subject",),
    "Lead": ("Company", "CompanyLocal", "FirstNameLocal", "LastNameLocal"),
    "Note": ("Title",),
    "PermissionSet": ("Label",),
    "Report": ("Description",),
    "TagDefinition": ("NormName",),
    "Task": ("Subject",),
    "User": ("CommunityNickname",),
}
"""Standard fields IN NAME FIELDS searches besides the name field (sforce_api_calls_sosl_in.htm)."""

_WHOLE_RECORD_OBJECTS = frozenset(
    {
        "KnowledgeArticleVersion",
        "Document",
        "FeedComment",
        "FeedItem",
        "ContentVersion",
        "Product2",
        "Solution",
    }
)


def is_article(obj: SObject) -> bool:
    """Knowledge article versions: ``KnowledgeArticleVersion`` and article types ``*__kav``."""
    return obj.name == "KnowledgeArticleVersion" or obj.name.endswith("__kav")


def ignores_search_group(obj: SObject) -> bool:
    """Objects the IN clause does not narrow (articles, documents, feeds, files, products, solutions)."""
    return obj.name in _WHOLE_RECORD_OBJECTS or is_article(obj)


def is_searchable_field(f: Field) -> bool:
    """A field whose text the search index holds."""
    return f.type in TEXT_TYPES and not f.calculated and not f.is_compound


_PER_OBJECT: dict[tuple[int, str, str], tuple[SObject, Any]] = {}


def _cached(obj: SObject, key: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` once per describe object (which lives as long as its cached schema)."""
    entry = _PER_OBJECT.get((id(obj), obj.name, key))
    if entry is None:
        entry = _PER_OBJECT[(id(obj), obj.name, key)] = (obj, compute())  # holding obj keeps its id unique
    return entry[1]


def indexed_fields(obj: SObject) -> list[Field]:
    """Every field of ``obj`` the index holds (the ALL FIELDS set), in describe order."""
    return _cached(obj, "indexed", lambda: [f for f in obj.fields if is_searchable_field(f)])


def group_fields(obj: SObject, group: str) -> tuple[str, ...] | None:
    """The fields ``IN <group> FIELDS`` searches on ``obj``; None means all indexed fields."""
    if group in ("ALL", "SIDEBAR") or ignores_search_group(obj):
        return None
    return _cached(obj, group, lambda: _group_fields(obj, group))


def _group_fields(obj: SObject, group: str) -> tuple[str, ...]:
    fields = indexed_fields(obj)
    if group == "NAME":
        extras = set(NAME_GROUP_EXTRAS.get(obj.name, ()))
        return tuple(f.name for f in fields if f.nameField or f.name in extras)
    wanted = "email" if group == "EMAIL" else "phone"
    return tuple(f.name for f in fields if f.type == wanted)


def name_fields(obj: SObject) -> frozenset[str]:
    """The fields naming a record; matches there weigh more in the ranking."""
    return _cached(obj, "names", lambda: frozenset(f.name for f in indexed_fields(obj) if f.nameField))


def indexed_objects(schema: Schema) -> list[SObject]:
    """Objects the search index covers: searchable, with at least one searchable field."""
    return [o for o in schema if o.searchable and o.keyPrefix and indexed_fields(o)]


def default_scope(schema: Schema) -> list[SObject]:
    """Objects a search without RETURNING returns, in name order."""
    return sorted(
        (o for o in indexed_objects(schema) if not ignores_search_group(o)), key=lambda o: o.name.lower()
    )
