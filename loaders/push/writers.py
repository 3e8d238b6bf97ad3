"""Writing rows: upserts on the key field through sObject Collections or Bulk API 2.0.

Both answer per row, keyed by the row's key, so the caller never depends on result order:

- sObject Collections, ``PATCH composite/sobjects/<Object>/CRMArena_Key__c`` with up to 200
  records and ``allOrNone: false`` (REST API Developer Guide, "Upsert Records Using sObject
  Collections"): one SaveResult per record, in request order (``id``, ``success``, ``created``,
  ``errors[{statusCode, message}]``);
- Bulk API 2.0, an ``upsert`` ingest job on the key field (simple-salesforce's ``sf.bulk2``):
  ``successfulResults`` and ``failedResults`` (``sf__Id``, ``sf__Error`` as ``CODE:message:fields
  --``) echo the uploaded columns, the key among them; their order is not guaranteed (Bulk API
  2.0 Developer Guide, "Get Job Successful Record Results").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crmarena_sf.loaders.push.client import PushClient
from crmarena_sf.loaders.push.keys import KEY_FIELD
from crmarena_sf.loaders.push.plan import COLLECTION_SIZE


@dataclass
class Outcome:
    """What the org said about a batch of rows: key -> org Id, key -> (error code, message)."""

    loaded: dict[str, str] = field(default_factory=dict)
    failed: dict[str, tuple[str, str]] = field(default_factory=dict)

    def merge(self, other: Outcome) -> None:
        self.loaded.update(other.loaded)
        for key in other.loaded:
            self.failed.pop(key, None)
        self.failed.update({k: v for k, v in other.failed.items() if k not in self.loaded})


def _save_results(keys: list[str], results: list[dict[str, Any]]) -> Outcome:
    """The outcome of one sObject Collections call: its SaveResults come back in request order."""
    outcome = Outcome()
    for key, result in zip(keys, results, strict=False):
        if result.get("success"):
            outcome.loaded[key] = result["id"]
        else:
            error = (result.get("errors") or [{}])[0]
            outcome.failed[key] = (str(error.get("statusCode") or "UNKNOWN"), str(error.get("message") or ""))
    return outcome


def upsert_collections(
    client: PushClient, object_name: str, records: list[dict[str, Any]], on_batch=None
) -> Outcome:
    """Upsert ``records`` (each carrying the key) 200 at a time; ``on_batch(outcome)`` after each call."""
    total = Outcome()
    for start in range(0, len(records), COLLECTION_SIZE):
        batch = records[start : start + COLLECTION_SIZE]
        body = {
            "allOrNone": False,
            "records": [{"attributes": {"type": object_name}, **record} for record in batch],
        }
        results = client.rest(f"composite/sobjects/{object_name}/{KEY_FIELD}", method="PATCH", json=body)
        outcome = _save_results([record[KEY_FIELD] for record in batch], results)
        total.merge(outcome)
        if on_batch is not None:
            on_batch(outcome, len(batch))
    return total


def insert_collections(
    client: PushClient, object_name: str, records: dict[str, dict[str, Any]], on_batch=None
) -> Outcome:
    """Insert ``records`` (dataset key -> record without a key field) 200 at a time, for objects
    that cannot carry the key; results come back in request order and are matched by position."""
    total = Outcome()
    keys = list(records)
    for start in range(0, len(keys), COLLECTION_SIZE):
        batch = keys[start : start + COLLECTION_SIZE]
        body = {
            "allOrNone": False,
            "records": [{"attributes": {"type": object_name}, **records[key]} for key in batch],
        }
        results = client.rest("composite/sobjects", method="POST", json=body)
        outcome = _save_results(batch, results)
        total.merge(outcome)
        if on_batch is not None:
            on_batch(outcome, len(batch))
    return total


def upsert_bulk(
    client: PushClient, object_name: str, records: list[dict[str, str]], on_batch=None
) -> Outcome:
    """Upsert ``records`` (CSV cells; relationship columns allowed) in one Bulk API 2.0 job."""
    outcome = Outcome()
    if not records:
        return outcome
    job_id = client.bulk_upsert(object_name, KEY_FIELD, records)
    good, bad = client.bulk_results(object_name, job_id)
    for row in good:
        outcome.loaded[row[KEY_FIELD]] = row["sf__Id"]
    for row in bad:
        code, _, rest = (row.get("sf__Error") or "").partition(":")
        message = rest.rsplit(":", 1)[0] if rest.endswith("--") else rest
        outcome.failed[row.get(KEY_FIELD, "")] = (code or "UNKNOWN", message.strip())
    if on_batch is not None:
        on_batch(outcome, len(records))
    return outcome
