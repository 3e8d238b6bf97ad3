"""How a push marks what it creates: one external-id field, one permission set, one dataset fingerprint.

Every record a push loads carries ``CRMArena_Key__c`` (Text(40), External ID, unique, case-insensitive),
set to the record's Id in the dataset. It makes every write an upsert (running twice creates
nothing new; REST API Developer Guide, "Insert or Update (Upsert) a Record Using an External ID"),
lets Bulk API 2.0 rows name their parents by key (``Account.CRMArena_Key__c``; Bulk API 2.0
Developer Guide, "Relationship Fields in a Header Row"), and is how a push finds what it loaded
before, and what ``--teardown`` may delete: records without a key were not made by a push.

The permission set ``CRMArena_Push`` grants the push's fields to the running user; its
description names the dataset pushed (:func:`dataset_fingerprint`), so a second, different
dataset is refused instead of being mixed into the first.
"""

from __future__ import annotations

import hashlib

from crmarena_sf.loaders.dataset import MANIFEST, Dataset

KEY_FIELD = "CRMArena_Key__c"
KEY_LENGTH = 40
PERMISSION_SET = "CRMArena_Push"
PERMISSION_SET_LABEL = "CRMArena push"
DESCRIPTION_PREFIX = "crmarena-sf push of dataset "
TORN_DOWN = "crmarena-sf push (torn down)"


def dataset_fingerprint(dataset: Dataset) -> str:
    """A short hash of the dataset's manifest (same seed, profile and code: same fingerprint)."""
    return hashlib.sha256((dataset.path / MANIFEST).read_bytes()).hexdigest()[:16]


def pushed_fingerprint(description: str | None) -> str | None:
    """The dataset fingerprint a permission set's description names, or None."""
    if description and description.startswith(DESCRIPTION_PREFIX):
        return description[len(DESCRIPTION_PREFIX) :].strip() or None
    return None
