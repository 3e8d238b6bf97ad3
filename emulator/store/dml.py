"""Record operations of an org: insert, update, soft delete, undelete, get.

Every write is validated the way a real org validates it and either happens completely
or raises :class:`SalesforceError` leaving the org untouched. Messages follow the REST
API's wording; field-level errors name the field's label and list its API name in
``fields``.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.errors import SalesforceError, no_such_column, not_found
from crmarena_sf.emulator.store import deletion, parsed, price_books, unique_fields
from crmarena_sf.emulator.store.coerce import check_computed_numbers, coerce
from crmarena_sf.emulator.store.ddl import column_type, quote
from crmarena_sf.emulator.store.derive import apply_defaults, derive, is_person_account_type, stamp_modified
from crmarena_sf.emulator.store.events import INSERT, UPDATE
from crmarena_sf.emulator.store.external_ids import with_parent_ids
from crmarena_sf.emulator.store.knowledge_versions import create_master_articles
from crmarena_sf.emulator.store.person_accounts import person_field_pairs, sync_counterpart
from crmarena_sf.emulator.store.record_errors import (
    converted_lead,
    entity_is_deleted,
    no_such_field,
    not_writable,
    required_missing,
)
from crmarena_sf.emulator.store.rollups import roll_up
from crmarena_sf.metadata.model import Field, SObject

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

_AUDIT_ON_CREATE = ("CreatedDate", "CreatedById", "LastModifiedDate", "LastModifiedById")


# ---------------------------------------------------------------------------- insert
def insert(org: Org, object_name: str, values: dict[str, Any], **options: Any) -> str:
    """Create one record and return its Id, or raise the first error."""
    result = insert_many(org, object_name, [values], **options)[0]
    if isinstance(result, SalesforceError):
        raise result
    return result


def insert_many(
    org: Org, object_name: str, rows: list[dict[str, Any]], *, check_references: bool = True
) -> list[str | SalesforceError]:
    """Create records of one object; per input row, the new Id or the error that refused it."""
    obj = org.sobject(object_name)
    if not obj.createable:
        raise SalesforceError(
            "CANNOT_INSERT_UPDATE_ACTIVATE_ENTITY", f"entity type cannot be inserted: {obj.name}"
        )
    results: list[str | SalesforceError | None] = [None] * len(rows)
    with org.lock:
        now = org.clock.now()
        prepared: list[tuple[int, dict[str, Any]]] = []
        for index, values in enumerate(rows):
            try:
                prepared.append((index, _prepare_insert(org, obj, values, now)))
            except SalesforceError as exc:
                results[index] = exc
        if check_references:
            for index, exc in _reference_errors(org, obj, prepared).items():
                results[index] = exc
            checked = [(index, row) for index, row in prepared if results[index] is None]
            for index, exc in price_books.refusals(org, obj, checked).items():
                results[index] = exc
        checked = [(index, row) for index, row in prepared if results[index] is None]
        for index, exc in unique_fields.refusals(org, obj, checked).items():
            results[index] = exc
        good = [(index, row) for index, row in prepared if results[index] is None]
        if good:
            fill_from_parents(org, obj, [row for _, row in good])
            with org.transaction():
                create_master_articles(org, obj, [row for _, row in good], now)
                org.before_write(obj.name)
                write_rows(org, obj, [row for _, row in good])
                org.notify(obj.name, [row["Id"] for _, row in good], INSERT)
                _create_person_contacts(org, obj, [row for _, row in good], now)
                price_books.assign_price_books(org, obj, [row for _, row in good])
                roll_up(org, obj, [row for _, row in good])
        for index, row in good:
            results[index] = row["Id"]
    return results  # type: ignore[return-value]


def _prepare_insert(org: Org, obj: SObject, values: dict[str, Any], now: dt.datetime) -> dict[str, Any]:
    if not isinstance(values, dict):
        raise SalesforceError(
            "JSON_PARSER_ERROR", "Cannot deserialize instance of sObject from non-object value"
        )
    row, locked = _written_values(org, obj, values, creating=True)
    if obj.name == "Account" and "Name" in row and is_person_account_type(obj, row.get("RecordTypeId")):
        locked.append("Name")  # a person account's Name is its person name, never written directly
    if locked:
        raise not_writable(locked)
    apply_defaults(obj, row)
    _stamp_system_fields(org, obj, row, now)
    derive(obj, row, None, now)
    check_computed_numbers(obj.stored_fields, row)
    missing = [f.name for f in _required_fields(obj, row) if row.get(f.name) is None]
    if missing:
        raise required_missing(missing)
    return row


def _written_values(
    org: Org, obj: SObject, values: dict[str, Any], *, creating: bool, system: bool = False
) -> tuple[dict[str, Any], list[str]]:
    """The fields a create (``creating``) or an update writes, coerced to their types, and the names of
    those it may not write (createable, or updateable).

    Parents named by external id become their Ids first; ``attributes`` is ignored; a field the
    object lacks (or a compound address) is INVALID_FIELD. An update ignores ``Id`` (the record's own).
    """
    written: dict[str, Any] = {}
    locked: list[str] = []
    for key, value in with_parent_ids(org, obj, values).items():
        if key == "attributes":
            continue
        f = obj.field(key)
        if f is None or f.is_compound:
            raise no_such_field(obj, key)
        if not creating and f.name == "Id":
            continue
        if not system and not (f.createable if creating else f.updateable):
            locked.append(f.name)
            continue
        written[f.name] = coerce(f, value)
    return written, locked


def _required_fields(obj: SObject, row: dict[str, Any]) -> list[Field]:
    """Fields a row must have; a person account needs LastName where a business account needs Name."""
    required = obj.required_fields
    if obj.name == "Account":
        # A person-account org's describe reports Name nillable (it is the switchable person name).
        name = obj.field("LastName") if row.get("IsPersonAccount") else obj.field("Name")
        required = [f for f in required if f.name not in ("Name", "LastName")] + ([name] if name else [])
    return required


def _stamp_system_fields(org: Org, obj: SObject, row: dict[str, Any], now: dt.datetime) -> None:
    row["Id"] = org.new_id(obj)
    if obj.field("IsDeleted") is not None:
        row["IsDeleted"] = False
    user = org.user_id
    if obj.field("CreatedDate") is not None:
        if not row.get("CreatedDate"):
            row["CreatedDate"] = now
        row["CreatedById"] = row.get("CreatedById") or user
        row["LastModifiedDate"] = row.get("LastModifiedDate") or max(row["CreatedDate"], now)
        row["LastModifiedById"] = row.get("LastModifiedById") or user
    else:  # an object with only the LastModified* audit fields (UserRole)
        for name, stamp in (("LastModifiedDate", now), ("LastModifiedById", user)):
            if obj.field(name) is not None and not row.get(name):
                row[name] = stamp
    if obj.field("SystemModstamp") is not None:
        row["SystemModstamp"] = now
    owner = obj.field("OwnerId")
    if owner is not None and owner.defaultedOnCreate and not row.get("OwnerId"):
        row["OwnerId"] = user
    for f in obj.fields:
        if f.autoNumber and f.name not in row:
            row[f.name] = org.next_autonumber(obj, f.name)


def _reference_errors(
    org: Org, obj: SObject, prepared: list[tuple[int, dict[str, Any]]]
) -> dict[int, SalesforceError]:
    """Errors for references of the wrong type, to missing or deleted records, or to a foreign record type."""
    errors: dict[int, SalesforceError] = {}
    wanted: dict[str, set[str]] = {}
    running_user = org.user_id
    for index, row in prepared:
        for f in obj.fields:
            value = row.get(f.name)
            if not f.is_reference or value is None:
                continue
            if f.name == "RecordTypeId":
                if obj.record_type(value) is None or obj.record_type(value).master:
                    errors.setdefault(
                        index,
                        SalesforceError(
                            "INVALID_CROSS_REFERENCE_KEY",
                            f"{f.label}: this ID value isn't valid for the user: {value}",
                            [f.name],
                        ),
                    )
                continue
            target = org.schema.object_of_id(value)
            if target is None or target.name not in f.referenceTo:
                errors.setdefault(
                    index,
                    SalesforceError(
                        "FIELD_INTEGRITY_EXCEPTION",
                        f"{f.label}: id value of incorrect type: {value}",
                        [f.name],
                    ),
                )
                continue
            if value == running_user and target.name == "User":
                continue  # the running user (stamped into audit and owner fields) is always there
            wanted.setdefault(target.name, set()).add(value)
    found: dict[str, dict[str, bool]] = {}
    for target_name, values in wanted.items():
        target = org.schema.get(target_name)
        deleted = 'coalesce("IsDeleted", false)' if target.field("IsDeleted") is not None else "false"
        rows = org.con.execute(
            f'SELECT "Id", {deleted} FROM {org.table_sql(target.name)} WHERE "Id" IN ({", ".join("?" * len(values))})',
            sorted(values),
        ).fetchall()
        found[target_name] = dict(rows)
    if not found:
        return errors
    for index, row in prepared:
        if index in errors:
            continue
        for f in obj.fields:
            value = row.get(f.name)
            if not f.is_reference or value is None or f.name == "RecordTypeId":
                continue
            target = org.schema.object_of_id(value)
            if value == running_user and target.name == "User":
                continue
            state = found.get(target.name, {}).get(value)
            if state is None:
                errors[index] = SalesforceError(
                    "INVALID_CROSS_REFERENCE_KEY", "invalid cross reference id", []
                )
                break
            if state:
                errors[index] = entity_is_deleted()
                break
    return errors


_COPIED_FROM_PARENT: dict[str, tuple[str, str, dict[str, str]]] = {
    "PricebookEntry": ("Product2Id", "Product2", {"Name": "Name", "ProductCode": "ProductCode"}),
    "OrderItem": ("PricebookEntryId", "PricebookEntry", {"ListPrice": "UnitPrice"}),
    "OpportunityLineItem": (
        "PricebookEntryId",
        "PricebookEntry",
        {"ListPrice": "UnitPrice", "Product2Id": "Product2Id", "ProductCode": "ProductCode"},
    ),
    "QuoteLineItem": (
        "PricebookEntryId",
        "PricebookEntry",
        {"ListPrice": "UnitPrice", "Product2Id": "Product2Id"},
    ),
    "Quote": ("OpportunityId", "Opportunity", {"AccountId": "AccountId"}),
}
"""child object -> (reference field, parent object, {child field: parent field}) a real org copies on write."""


def fill_from_parents(org: Org, obj: SObject, rows: list[dict[str, Any]]) -> None:
    """Copy the values a real org takes from a parent (PricebookEntry.Name from its product ...)."""
    spec = _COPIED_FROM_PARENT.get(obj.name)
    parent = org.schema.get(spec[1]) if spec else None
    if spec is None or parent is None:
        return
    reference, _, mapping = spec
    mapping = {k: v for k, v in mapping.items() if obj.field(k) is not None and parent.field(v) is not None}
    wanted = sorted({row[reference] for row in rows if row.get(reference)})
    if not wanted or not mapping:
        return
    columns = ", ".join(quote(v) for v in mapping.values())
    found = {
        r[0]: r[1:]
        for r in org.con.execute(
            f'SELECT "Id", {columns} FROM {org.table_sql(parent.name)} WHERE "Id" IN ({", ".join("?" * len(wanted))})',
            wanted,
        ).fetchall()
    }
    for row in rows:
        values = found.get(row.get(reference))
        if values is not None:
            for target, value in zip(mapping, values):
                row[target] = value


def write_rows(org: Org, obj: SObject, rows: list[dict[str, Any]]) -> None:
    """Append complete rows to the object's table in one statement (no validation: callers validated).

    Only columns some row sets are named (DuckDB fills the rest with NULL): binding parameters is
    most of an insert's cost, and a record sets a fraction of its object's fields.
    """
    if not rows:
        return
    fields = [f for f in obj.stored_fields if any(row.get(f.name) is not None for row in rows)]
    columns = ", ".join(quote(f.name) for f in fields)
    if len(rows) == 1:
        values = ", ".join(f"?::{column_type(f)}" for f in fields)
        parsed.execute(
            org.con,
            f"INSERT INTO {quote(obj.name)} ({columns}) VALUES ({values})",
            [rows[0].get(f.name) for f in fields],
        )
        return
    selects = ", ".join(f"unnest(${i + 1}::{column_type(f)}[])" for i, f in enumerate(fields))
    params = [[row.get(f.name) for row in rows] for f in fields]
    org.con.execute(f"INSERT INTO {quote(obj.name)} ({columns}) SELECT {selects}", params)


def _create_person_contacts(org: Org, obj: SObject, rows: list[dict[str, Any]], now: dt.datetime) -> None:
    """A person account carries a Contact (IsPersonAccount, same name) and points at it with PersonContactId."""
    contact = org.schema.get("Contact")
    if obj.name != "Account" or contact is None or obj.field("PersonContactId") is None:
        return
    created = []
    for row in rows:
        if not row.get("IsPersonAccount"):
            continue
        values: dict[str, Any] = {"AccountId": row["Id"], "OwnerId": row.get("OwnerId")}
        for account_field, contact_field in person_field_pairs(obj, contact):
            if row.get(account_field) is not None:
                values[contact_field] = row[account_field]
        person = dict(values)
        apply_defaults(contact, person)
        _stamp_system_fields(org, contact, person, now)
        person["CreatedDate"] = row.get("CreatedDate", now)
        if contact.field("IsPersonAccount") is not None:
            person["IsPersonAccount"] = True
        derive(contact, person, None, now)
        created.append(person)
        row["PersonContactId"] = person["Id"]
        org.con.execute(
            f'UPDATE {quote(obj.name)} SET "PersonContactId" = ? WHERE "Id" = ?', [person["Id"], row["Id"]]
        )
    if created:
        org.before_write(contact.name)
        write_rows(org, contact, created)
        org.notify(contact.name, [p["Id"] for p in created], INSERT)


# ---------------------------------------------------------------------------- read
def fetch_row(org: Org, obj: SObject, record_id: str) -> dict[str, Any] | None:
    """The stored row with ``record_id`` (15 or 18 characters), deleted or not, or None."""
    canonical = ids.normalize(record_id) if isinstance(record_id, str) else None
    if canonical is None or not canonical.startswith(obj.keyPrefix or "\0"):
        return None
    cursor = parsed.execute(org.con, f'SELECT * FROM {org.table_sql(obj.name)} WHERE "Id" = ?', [canonical])
    row = cursor.fetchone()
    if row is None:
        return None
    return dict(zip([d[0] for d in cursor.description], row))


def _live_row(org: Org, obj: SObject, record_id: str) -> dict[str, Any]:
    """The stored row of a record not in the recycle bin; NOT_FOUND, or ENTITY_IS_DELETED, otherwise."""
    current = fetch_row(org, obj, record_id)
    if current is None:
        raise not_found()
    if current.get("IsDeleted"):
        raise entity_is_deleted()
    return current


def get(
    org: Org, object_name: str, record_id: str, fields: list[str] | None = None, include_deleted: bool = False
) -> dict[str, Any]:
    """One record as ``{field: value}`` in describe order (compound addresses included); 404 when absent."""
    obj = org.sobject(object_name)
    with org.lock:
        row = fetch_row(org, obj, record_id)
    if row is None or (row.get("IsDeleted") and not include_deleted):
        raise not_found()
    if fields:
        wanted = []
        for name in fields:
            f = obj.field(name)
            if f is None:
                raise SalesforceError("INVALID_FIELD", no_such_column(name, obj.name))
            wanted.append(f)
    else:
        wanted = obj.fields
    return {f.name: (compound_value(obj, f, row) if f.is_compound else row.get(f.name)) for f in wanted}


def compound_value(obj: SObject, field: Field, row: dict[str, Any]) -> dict[str, Any] | None:
    """An address or location field as REST returns it, built from its component fields (null when all are)."""
    parts = {key: row.get(component) for key, component in obj.compound_components(field.name).items()}
    return parts if any(v is not None for v in parts.values()) else None


# ---------------------------------------------------------------------------- update / delete
def update(
    org: Org, object_name: str, record_id: str, values: dict[str, Any], *, system: bool = False
) -> None:
    """Change fields of one record; raises NOT_FOUND, ENTITY_IS_DELETED or a field error.

    ``system``: the org itself writes (a lead conversion's converted fields, a merge's
    reparented lookups), so fields no client may update are written too.
    """
    obj = org.sobject(object_name)
    if not isinstance(values, dict):
        raise SalesforceError(
            "JSON_PARSER_ERROR", "Cannot deserialize instance of sObject from non-object value"
        )
    with org.lock:
        current = _live_row(org, obj, record_id)
        if obj.name == "Lead" and current.get("IsConverted") and not system:
            raise converted_lead()
        changes, locked = _written_values(org, obj, values, creating=False, system=system)
        if locked:
            raise not_writable(locked)
        now = org.clock.now()
        merged = {**current, **changes}
        if (
            obj.name == "Account"
            and "RecordTypeId" in changes
            and is_person_account_type(obj, changes["RecordTypeId"]) != bool(current.get("IsPersonAccount"))
        ):
            raise SalesforceError(
                "INVALID_FIELD",
                "Cannot change record type between person and business accounts",
                ["RecordTypeId"],
            )
        derive(obj, merged, current, now)
        check_computed_numbers(obj.stored_fields, merged)
        missing = [f.name for f in _required_fields(obj, merged) if merged.get(f.name) is None]
        if missing:
            raise required_missing(missing)
        duplicates = unique_fields.refusals(org, obj, [(0, merged)])
        if duplicates:
            raise duplicates[0]
        if _COPIED_FROM_PARENT.get(obj.name, ("",))[0] in changes:
            fill_from_parents(org, obj, [merged])
        changed_refs = {k: v for k, v in changes.items() if obj.field(k).is_reference}
        if changed_refs:
            errors = _reference_errors(org, obj, [(0, changed_refs)])
            if errors:
                raise errors[0]
        stamp_modified(obj, merged, now, org.user_id)
        columns = [
            f for f in obj.stored_fields if f.name != "Id" and merged.get(f.name) != current.get(f.name)
        ]
        if not columns:
            return
        with org.transaction():
            org.before_write(obj.name)
            assignments = ", ".join(f"{quote(f.name)} = ?::{column_type(f)}" for f in columns)
            parsed.execute(
                org.con,
                f'UPDATE {quote(obj.name)} SET {assignments} WHERE "Id" = ?',
                [merged[f.name] for f in columns] + [current["Id"]],
            )
            org.notify(obj.name, [current["Id"]], UPDATE)
            sync_counterpart(org, obj, current, merged, now)
            roll_up(org, obj, [current, merged])


def delete(org: Org, object_name: str, record_id: str, *, hard: bool = False) -> None:
    """Move a record, and the children that cascade with it, to the recycle bin: ``IsDeleted = true``.

    What the delete does to related records (cascades, restricted children that refuse it with
    DELETE_FAILED, lookups it clears) is :mod:`crmarena_sf.emulator.store.deletion`'s.
    ``hard`` (the Bulk APIs' ``hardDelete``): the records skip the recycle bin and are
    "immediately eligible for deletion" (Salesforce CLI reference, ``data delete bulk
    --hard-delete``, https://developer.salesforce.com/docs/platform/salesforce-cli-reference/guide/cli_reference_data_delete_bulk.html);
    the emulator removes them at once, so neither queryAll nor undelete finds them.
    """
    obj = org.sobject(object_name)
    if not obj.deletable:
        raise SalesforceError("INSUFFICIENT_ACCESS_OR_READONLY", "insufficient access rights on object id")
    with org.lock:
        current = _live_row(org, obj, record_id)
        with org.transaction():
            _soft_delete(org, obj, [current["Id"]], deleted=True, purge=hard)


def delete_many(org: Org, object_name: str, record_ids: list[str]) -> list[SalesforceError | None]:
    """:func:`delete` for many records of one object, in one write; per Id, None or the error
    :func:`delete` would raise (an Id named twice is deleted once, then ENTITY_IS_DELETED)."""
    obj = org.sobject(object_name)
    if not obj.deletable:
        error = SalesforceError("INSUFFICIENT_ACCESS_OR_READONLY", "insufficient access rights on object id")
        return [error] * len(record_ids)
    canonical = [ids.normalize(r) if isinstance(r, str) else None for r in record_ids]
    wanted = sorted({c for c in canonical if c and c.startswith(obj.keyPrefix or "\0")})
    results: list[SalesforceError | None] = []
    with org.lock:
        state = {}
        if wanted:
            deleted = 'coalesce("IsDeleted", false)' if obj.field("IsDeleted") is not None else "false"
            state = dict(
                org.con.execute(
                    f'SELECT "Id", {deleted} FROM {org.table_sql(obj.name)} WHERE "Id" IN (SELECT unnest(?::VARCHAR[]))',
                    [wanted],
                ).fetchall()
            )
        chosen: list[str] = []
        for record_id in canonical:
            if record_id is None or record_id not in state:
                results.append(not_found())
            elif state[record_id]:
                results.append(entity_is_deleted())
            else:
                state[record_id] = True
                chosen.append(record_id)
                results.append(None)
        if chosen:
            plan = deletion.plan_delete(org, obj, chosen)
            results = [
                plan.blocked.get(c) if error is None else error for c, error in zip(canonical, results)
            ]
            plan = deletion.without_blocked(org, obj, plan)
            if plan.closure.get(obj.name):
                with org.transaction():
                    deletion.apply_delete(org, plan)
    return results


def undelete(org: Org, object_name: str, record_id: str) -> None:
    """Restore a record from the recycle bin (UNDELETE_FAILED when it is not there), with the
    records deleted with it and the lookups its delete cleared (:mod:`crmarena_sf.emulator.store.deletion`)."""
    obj = org.sobject(object_name)
    with org.lock:
        current = fetch_row(org, obj, record_id)
        if current is None:
            raise not_found()
        if not current.get("IsDeleted"):
            raise SalesforceError("UNDELETE_FAILED", "Entity is not in the recycle bin")
        with org.transaction():
            _soft_delete(org, obj, [current["Id"]], deleted=False)


def _soft_delete(org: Org, obj: SObject, record_ids: list[str], deleted: bool, purge: bool = False) -> None:
    """Delete (into the recycle bin, or with ``purge`` for good) or undelete ``record_ids`` and what
    goes with them; a restricted child refuses the delete with DELETE_FAILED."""
    if not deletion.has_recycle_bin(obj) and not (deleted and deletion.without_recycle_bin(obj)):
        raise SalesforceError("INSUFFICIENT_ACCESS_OR_READONLY", "insufficient access rights on object id")
    if not deleted:
        deletion.undelete_records(org, obj, record_ids)
        return
    plan = deletion.plan_delete(org, obj, record_ids)
    if plan.blocked:
        raise (
            plan.blocked[record_ids[0]]
            if record_ids[0] in plan.blocked
            else next(iter(plan.blocked.values()))
        )
    deletion.apply_delete(org, plan, purge)
