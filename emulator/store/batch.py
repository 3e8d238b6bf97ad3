"""One batch of Bulk API records applied to an org: insert, update, upsert, delete.

Bulk API 1.0 batches and Bulk API 2.0 jobs both come here once their CSV, JSON or XML is
read into ``{field: value}`` records, so the two APIs save, refuse and report a record the
same way (Bulk API 2.0 Developer Guide, "Bulk API 2.0 Ingest"; Bulk API Developer Guide,
"Batch Results"). Records are independent: one that fails leaves the others saved. Two
records of one upsert batch with the same external id both fail with DUPLICATE_VALUE; the
others are upserted together (:func:`~crmarena_sf.emulator.store.external_ids.upsert_many`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.external_ids import (
    duplicate_keys_in_request,
    duplicate_value,
    upsert_many,
    upsert_one,
)
from crmarena_sf.emulator.store.record_errors import required_missing
from crmarena_sf.metadata.model import SObject

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

OPERATIONS = ("insert", "update", "upsert", "delete", "hardDelete")


@dataclass
class RecordOutcome:
    """What became of one record: its Id (empty when none), whether it was created, or its error."""

    id: str = ""
    created: bool = False
    error: SalesforceError | None = None

    @property
    def success(self) -> bool:
        return self.error is None


def apply_records(
    org: Org,
    obj: SObject,
    operation: str,
    external_id: str | None,
    records: list[dict[str, Any] | SalesforceError],
) -> list[RecordOutcome]:
    """Apply every record (an error stands for a record that could not be read); never raises for one."""
    outcomes: list[RecordOutcome | None] = [None] * len(records)
    for index, record in enumerate(records):
        if isinstance(record, SalesforceError):
            outcomes[index] = RecordOutcome(error=record)
    pending = [index for index, outcome in enumerate(outcomes) if outcome is None]
    if operation == "insert":
        rows = [records[i] for i in pending]
        results = org.insert_many(obj.name, rows) if rows else []  # type: ignore[arg-type]
        for index, result in zip(pending, results, strict=True):
            outcomes[index] = (
                RecordOutcome(error=result)
                if isinstance(result, SalesforceError)
                else RecordOutcome(result, True)
            )
        return outcomes  # type: ignore[return-value]
    repeated: set[int] = set()
    key = obj.field(external_id or "") if operation == "upsert" else None
    if key is not None:
        values = [_value_of(records[i], key.name) for i in pending]
        repeated = {pending[i] for i in duplicate_keys_in_request(key, values)}
    if key is not None:
        # An upsert's distinct keys are applied together: one lookup, one insert (see upsert_many).
        together = [i for i in pending if i not in repeated]
        rows = [(_value_of(records[i], key.name), records[i]) for i in together]
        for index, result in zip(together, upsert_many(org, obj, key, rows) if rows else [], strict=True):
            if isinstance(result, SalesforceError):
                given = records[index].get("Id")
                outcomes[index] = RecordOutcome(str(given) if isinstance(given, str) else "", error=result)
            else:
                outcomes[index] = RecordOutcome(result[0], result[1])
        pending = [i for i in pending if i in repeated]
    for index in pending:
        record: dict[str, Any] = records[index]  # type: ignore[assignment]
        try:
            if index in repeated:
                raise duplicate_value(key, _value_of(record, key.name))
            record_id, created = _apply_one(org, obj, operation, external_id, record)
            outcomes[index] = RecordOutcome(record_id, created)
        except SalesforceError as exc:
            given = record.get("Id") if operation != "insert" else None
            outcomes[index] = RecordOutcome(str(given) if isinstance(given, str) else "", error=exc)
    return outcomes  # type: ignore[return-value]


def _value_of(record: dict[str, Any], name: str) -> Any:
    return next((v for k, v in record.items() if k.lower() == name.lower()), None)


def _apply_one(
    org: Org, obj: SObject, operation: str, external_id: str | None, record: dict[str, Any]
) -> tuple[str, bool]:
    if operation in ("update", "delete", "hardDelete"):
        record_id = _value_of(record, "Id")
        if not record_id:
            raise SalesforceError("MISSING_ARGUMENT", "Id not specified in an update call", [])
        canonical = ids.normalize(record_id) if isinstance(record_id, str) else None
        if canonical is None:
            raise SalesforceError("MALFORMED_ID", f"malformed id {record_id}", [])
        if operation == "update":
            org.update(obj.name, canonical, {k: v for k, v in record.items() if k.lower() != "id"})
        else:
            org.delete(obj.name, canonical, hard=operation == "hardDelete")
        return canonical, False
    key = obj.field(external_id or "")
    if key is None:
        raise required_missing([external_id or ""])
    return upsert_one(org, obj, key, _value_of(record, key.name), record)
