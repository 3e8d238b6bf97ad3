"""Which org a task set was built on: a fingerprint of the org's data, read through the front door.

A task's gold answer is a fact about one org. Built on the ``tiny`` org and run on the default
one, every answer is scored against the wrong data, silently. So each record a build makes
carries ``org_fingerprint``, the fingerprint of the org it was built on, and ``crmarena-sf run
--tasks`` compares it with the org it runs on (``--allow-org-mismatch`` runs it anyway).

The fingerprint is a digest of the answers to a few aggregate queries (one per object):
for each object the tasks read, its record count and its first and last ``CreatedDate``, plus
the organization's Id. Counts tell profiles and scales apart, the dates tell seeds apart (the
generator draws every record's timestamp), and the organization Id tells a real org from the
emulator and from another real org (a pushed copy of the same dataset keeps the dates and
counts but gets new record Ids, which gold answers contain). Being SOQL through
simple-salesforce, it costs the same small number of API requests on a real org (13) as it
costs milliseconds on the emulator, and means the same on either. An object the org lacks
counts as absent. Writes change it: a real org whose records an agent created or deleted no
longer matches the task file built before them, which is the point (its answers may have
changed), and the override is there for a user who knows they did not.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

FINGERPRINT_OBJECTS = (
    "User",
    "Account",
    "Contact",
    "Case",
    "CaseHistory__c",
    "Issue__c",
    "Knowledge__kav",
    "Product2",
    "Order",
    "OrderItem",
    "EmailMessage",
    "LiveChatTranscript",
)
"""The objects the CRMArena tasks and the text-to-SOQL track read."""


def org_fingerprint(sf: Any) -> str:
    """The fingerprint of the org behind ``sf`` (a ``simple_salesforce.Salesforce``): 16 hex digits."""
    from simple_salesforce.exceptions import SalesforceMalformedRequest

    facts: dict[str, Any] = {}
    organization = sf.query("SELECT Id FROM Organization")["records"]
    facts["Organization"] = organization[0]["Id"] if organization else None
    for name in FINGERPRINT_OBJECTS:
        soql = f"SELECT COUNT(Id) n, MIN(CreatedDate) oldest, MAX(CreatedDate) newest FROM {name}"
        try:
            rows = sf.query(soql)["records"]
        except SalesforceMalformedRequest as exc:
            if _error_code(exc) != "INVALID_TYPE":  # only "the org has no such object" is an answer
                raise
            facts[name] = None
            continue
        row = rows[0] if rows else {}
        facts[name] = [row.get("n"), row.get("oldest"), row.get("newest")]
    return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()[:16]


def _error_code(exc: Exception) -> str | None:
    content = getattr(exc, "content", None)
    if isinstance(content, list) and content and isinstance(content[0], dict):
        return content[0].get("errorCode")
    return None
