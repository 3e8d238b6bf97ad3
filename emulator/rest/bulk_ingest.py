"""Running a Bulk API 2.0 ingest job's rows against the org.

Each CSV row is one insert, update, upsert or delete, validated like any other write; a row
that fails is reported with ``sf__Error`` = ``CODE:message:fields --`` and the others are
kept (Bulk API 2.0 jobs are not all-or-none). An empty cell leaves a field alone; ``#N/A``
sets it to null. A ``Parent.ExtField`` column sets the reference through the parent's
external id (``Account.Ext__c``), as Bulk API 2.0 allows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from emulator import ids
from emulator.errors import SalesforceError
from emulator.rest.bulk_csv import NULL_MARKER
from emulator.rest.sobjects import (
    external_id_match_key,
    find_by_external_id,
    find_many_by_external_id,
    upsert_many,
    upsert_one,
)
from emulator.store.dml import no_such_field, required_missing
from metadata.model import SObject

if TYPE_CHECKING:
    from emulator.rest.routing import Call


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
    call: Call,
    obj: SObject,
    operation: str,
    external_id: str | None,
    header: list[str],
    rows: list[list[str]],
) -> IngestOutcome:
    """Apply every row; never raises for a bad row."""
    outcome = IngestOutcome()
    parents = _parents_by_key(call, obj, header, rows)
    parsed: list[tuple[list[str], dict[str, Any] | SalesforceError]] = []
    for row in rows:
        try:
            parsed.append((row, _values(call, obj, header, row, parents)))
        except SalesforceError as exc:
            parsed.append((row, exc))
    if operation == "insert":
        _insert(call, obj, parsed, outcome)
        return outcome
    if operation == "upsert":
        _upsert(call, obj, external_id, parsed, outcome)
        return outcome
    for row, values in parsed:
        record_id = ""
        try:
            if isinstance(values, SalesforceError):
                raise values
            record_id, created = _apply(call, obj, operation, external_id, values)
            outcome.successes.append((record_id, created, row))
        except SalesforceError as exc:
            given = values.get("Id") if isinstance(values, dict) else None
            outcome.failures.append((record_id or (given or ""), error_text(exc), row))
    return outcome


def _insert(call: Call, obj: SObject, parsed: list, outcome: IngestOutcome) -> None:
    good = [(row, values) for row, values in parsed if not isinstance(values, SalesforceError)]
    for row, values in parsed:
        if isinstance(values, SalesforceError):
            outcome.failures.append(("", error_text(values), row))
    results = call.org.insert_many(obj.name, [values for _, values in good]) if good else []
    for (row, _), result in zip(good, results, strict=True):
        if isinstance(result, SalesforceError):
            outcome.failures.append(("", error_text(result), row))
        else:
            outcome.successes.append((result, True, row))


def _upsert(call: Call, obj: SObject, external_id: str | None, parsed: list, outcome: IngestOutcome) -> None:
    """Upsert rows together (:func:`upsert_many`): one lookup and one insert for the job's new records."""
    key = obj.field(external_id or "")
    good = [(row, values) for row, values in parsed if not isinstance(values, SalesforceError)]
    for row, values in parsed:
        if isinstance(values, SalesforceError):
            outcome.failures.append(("", error_text(values), row))
    if key is None:
        for row, _ in good:
            outcome.failures.append(("", error_text(required_missing([external_id or ""])), row))
        return
    rows = [(next((v for k, v in values.items() if k == key.name), None), values) for _, values in good]
    for (row, values), result in zip(good, upsert_many(call, obj, key, rows), strict=True):
        if isinstance(result, SalesforceError):
            outcome.failures.append((values.get("Id") or "", error_text(result), row))
        else:
            outcome.successes.append((result[0], result[1], row))


def _apply(call: Call, obj: SObject, operation: str, external_id: str | None, values: dict[str, Any]):
    org = call.org
    if operation in ("update", "delete", "hardDelete"):
        record_id = values.get("Id")
        if not record_id:
            raise SalesforceError("MISSING_ARGUMENT", "Id not specified in an update call", [])
        canonical = ids.normalize(record_id)
        if canonical is None:
            raise SalesforceError("MALFORMED_ID", f"malformed id {record_id}", [])
        if operation == "update":
            org.update(obj.name, canonical, {k: v for k, v in values.items() if k != "Id"})
        else:
            org.delete(obj.name, canonical)
        return canonical, False
    key = obj.field(external_id or "")
    value = next((v for k, v in values.items() if key is not None and k == key.name), None)
    if key is None:
        raise required_missing([external_id or ""])
    return upsert_one(call, obj, key, value, values)


def _parents_by_key(call: Call, obj: SObject, header: list[str], rows: list[list[str]]) -> dict[str, dict]:
    """For each ``Parent.ExtField`` column keyed on a text field: the parents its values name,
    found with one query per column instead of one per row (match key -> Ids)."""
    found: dict[str, dict] = {}
    for position, column in enumerate(header):
        if "." not in column:
            continue
        relationship, _, key_name = column.partition(".")
        reference = obj.parent_relationship(relationship)
        target = (
            call.org.schema.get(reference.referenceTo[0]) if reference and reference.referenceTo else None
        )
        key = target.field(key_name) if target is not None else None
        if key is None or not key.externalId or key.type not in ("string", "email", "phone", "url"):
            continue
        values = sorted(
            {r[position] for r in rows if position < len(r) and r[position] not in ("", NULL_MARKER)}
        )
        found[column] = find_many_by_external_id(call, target, key, values)
    return found


def _values(
    call: Call, obj: SObject, header: list[str], row: list[str], parents: dict[str, dict] | None = None
) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, cell in zip(header, row, strict=False):
        if cell == "":
            continue
        value = None if cell == NULL_MARKER else cell
        if "." in name:
            reference, target_id = _relationship_value(call, obj, name, value, (parents or {}).get(name))
            values[reference] = target_id
            continue
        f = obj.field(name)
        values[f.name if f is not None else name] = value
    return values


def _relationship_value(
    call: Call, obj: SObject, column: str, value: str | None, known: dict | None = None
) -> tuple[str, str | None]:
    relationship, _, key_name = column.partition(".")
    reference = obj.parent_relationship(relationship)
    if reference is None:
        raise no_such_field(obj, column)
    if value is None:
        return reference.name, None
    target = call.org.schema.get(reference.referenceTo[0]) if reference.referenceTo else None
    key = target.field(key_name) if target is not None else None
    if key is None or not (key.externalId or key.idLookup):
        raise no_such_field(obj, column)
    if known is not None:
        matches = known.get(external_id_match_key(key, value), [])
    else:
        matches = find_by_external_id(call, target, key, value)
    if not matches:
        raise SalesforceError(
            "INVALID_FIELD",
            f"Foreign key external ID: {value} not found for field {key.name} in entity {target.name}",
            [],
        )
    return reference.name, matches[0]
