"""Bulk CSV rows as records, and a Bulk API 2.0 ingest job's rows run against the org.

Each CSV row is one insert, update, upsert or delete, applied by the store
(:func:`crmarena_sf.emulator.store.batch.apply_records`, which Bulk API 1.0 batches use too); a row that
fails is reported with ``sf__Error`` = ``CODE:message:fields --`` and the others are kept
(Bulk API 2.0 jobs are not all-or-none). An empty cell leaves a field alone; ``#N/A`` sets it
to null. A ``Parent.ExtField`` column sets the reference through the parent's external id
(``Account.Ext__c``), as Bulk API 2.0 allows (datafiles_csv_rel_field_header_row.htm).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.bulk.bulk_csv import NULL_MARKER
from crmarena_sf.emulator.store.batch import apply_records
from crmarena_sf.emulator.store.record_errors import no_such_field
from crmarena_sf.metadata.model import SObject

if TYPE_CHECKING:
    from crmarena_sf.emulator.rest.transport.resource import RestCall
    from crmarena_sf.emulator.store.org import Org


@dataclass
class IngestOutcome:
    """Per-row results of a job: successes ``(id, created, row)``, failures ``(id, error, row)``."""

    successes: list[tuple[str, bool, list[str]]] = field(default_factory=list)
    failures: list[tuple[str, str, list[str]]] = field(default_factory=list)


def error_text(error: SalesforceError) -> str:
    """``sf__Error`` as Bulk API results word it: ``REQUIRED_FIELD_MISSING:Required fields are missing: [Name]:Name --``."""
    fields = " ".join(error.fields)
    return f"{error.error_code}:{error.message}:{fields + ' ' if fields else ''}--"


def run_ingest(
    call: RestCall,
    obj: SObject,
    operation: str,
    external_id: str | None,
    header: list[str],
    rows: list[list[str]],
) -> IngestOutcome:
    """Apply every row through the store (:func:`crmarena_sf.emulator.store.batch.apply_records`); never raises for a bad row."""
    records: list[dict[str, Any] | SalesforceError] = []
    for row in rows:
        try:
            records.append(csv_record(call.org, obj, header, row))
        except SalesforceError as exc:
            records.append(exc)
    outcome = IngestOutcome()
    for row, result in zip(rows, apply_records(call.org, obj, operation, external_id, records), strict=True):
        if result.success:
            outcome.successes.append((result.id, result.created, row))
        else:
            outcome.failures.append((result.id, error_text(result.error), row))
    return outcome


def csv_record(org: Org, obj: SObject, header: list[str], row: list[str]) -> dict[str, Any]:
    """One CSV row as a record: an empty cell is left out, ``#N/A`` is null, and a ``Parent.ExtField``
    column becomes the nested parent reference ``{"Parent": {"ExtField": value}}`` the store resolves."""
    values: dict[str, Any] = {}
    for name, cell in zip(header, row, strict=False):
        if cell == "":
            continue
        value = None if cell == NULL_MARKER else cell
        if "." in name:
            relationship, key_name = _relationship_column(org, obj, name)
            values[relationship] = {key_name: value}
            continue
        f = obj.field(name)
        values[f.name if f is not None else name] = value
    return values


def _relationship_column(org: Org, obj: SObject, column: str) -> tuple[str, str]:
    """``("Account", "Ext__c")`` for the header ``Account.Ext__c``; INVALID_FIELD for a column naming
    no relationship of the object or no External ID field of its parent."""
    relationship, _, key_name = column.partition(".")
    reference = obj.parent_relationship(relationship)
    target = (
        org.schema.get(reference.referenceTo[0]) if reference is not None and reference.referenceTo else None
    )
    key = target.field(key_name) if target is not None else None
    if key is None or not (key.externalId or key.idLookup):
        raise no_such_field(obj, column)
    return reference.relationshipName, key.name
