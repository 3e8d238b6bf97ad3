"""Salesforce object metadata: describe documents and the typed schema built from them.

``load_schema()`` returns the CRMArena org's schema (standard objects with their full
standard fields, plus CRMArena's custom objects and fields). ``load_schema("standard")``
is a new org without any custom part: no custom object (``__c``) and no custom field. It keeps
``Knowledge__kav``, the article type Salesforce itself creates when Lightning Knowledge is
turned on (a setup step, not an API call: Salesforce Help, "Enable Lightning Knowledge"), with
its standard fields only, so that a push can add CRMArena's ``FAQ_Answer__c`` to it. Extra
directories of describe documents (for example from ``crmarena-sf metadata pull``) add
objects, fields and relationships (:mod:`crmarena_sf.metadata.user_describes`).
``load_schema("crmarena-pro")`` is the schema of CRMArena-Pro's two orgs: every object, with
the territory objects, ``VoiceCallTranscript__c`` and the five opportunity stages the other
two profiles lack (:mod:`crmarena_sf.metadata.crmarena_pro`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from crmarena_sf.metadata.model import ChildRelationship, Field, RecordTypeInfo, Schema, SObject

API_VERSION = "62.0"
"""The Salesforce API version (Winter '25) the describes were taken at: the newest version the
emulator serves, and the one both backends speak unless told otherwise."""

DESCRIBE_DIR = Path(__file__).parent / "describes"
PROFILES = ("crmarena", "standard", "crmarena-pro")

__all__ = [
    "API_VERSION",
    "ChildRelationship",
    "Field",
    "RecordTypeInfo",
    "SObject",
    "Schema",
    "load_schema",
    "read_describes",
]


def read_describes(directory: Path | str) -> dict[str, dict]:
    """The describe documents (``*.json``) in ``directory``, keyed by object name."""
    docs = {}
    for path in sorted(Path(directory).glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        docs[doc["name"]] = doc
    return docs


def load_schema(profile: str = "crmarena", extra_dirs: tuple[str, ...] = ()) -> Schema:
    """The schema of an org: ``crmarena`` (default), ``standard`` (no custom objects or fields) or
    ``crmarena-pro`` (CRMArena-Pro's orgs),
    extended by the describe documents of ``extra_dirs`` (:mod:`crmarena_sf.metadata.user_describes`)."""
    from crmarena_sf.metadata.user_describes import signature

    dirs = tuple(str(d) for d in extra_dirs)
    return _load_schema(profile, dirs, signature(dirs))


@lru_cache(maxsize=8)
def _load_schema(profile: str, extra_dirs: tuple[str, ...], _signature: tuple) -> Schema:
    from crmarena_sf.metadata.crmarena_pro import pro_documents, without_pro
    from crmarena_sf.metadata.user_describes import extend_documents, read_user_describes

    if profile not in PROFILES:
        raise ValueError(f"unknown schema profile {profile!r}; expected one of {', '.join(PROFILES)}")
    docs = read_describes(DESCRIBE_DIR)
    docs = pro_documents(docs) if profile == "crmarena-pro" else without_pro(docs)
    if profile == "standard":
        docs = _without_custom(docs)
    for directory in extra_dirs:  # after the profile: a user's own custom objects stay in a standard org
        docs = extend_documents(docs, read_user_describes(directory), source=directory)
    return Schema([SObject.model_validate(doc) for doc in docs.values()])


def _is_custom_name(name: str) -> bool:
    return "__" in name


def _is_custom_object(name: str) -> bool:
    """Custom objects end in ``__c``; ``Knowledge__kav`` is Salesforce's own article type."""
    return name.endswith("__c")


def _without_custom(docs: dict[str, dict]) -> dict[str, dict]:
    kept = {name: doc for name, doc in docs.items() if not _is_custom_object(name)}
    out = {}
    for name, doc in kept.items():
        doc = dict(doc)
        doc["fields"] = [
            {**f, "referenceTo": [t for t in f["referenceTo"] if t in kept]}
            for f in doc["fields"]
            if not _is_custom_name(f["name"])
        ]
        doc["childRelationships"] = [
            c
            for c in doc["childRelationships"]
            if c["childSObject"] in kept and not _is_custom_name(c["field"])
        ]
        out[name] = doc
    return out
