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
from crmarena_sf.emulator.store.coerce import coerce
from crmarena_sf.emulator.store.ddl import column_type, quote
from crmarena_sf.emulator.store.derive import apply_defaults, derive, is_person_account_type
from crmarena_sf.emulator.store.external_ids import with_parent_ids
from crmarena_sf.metadata.model import Field, SObject

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

_AUDIT_ON_CREATE = ("CreatedDate", "CreatedById", "LastModifiedDate", "LastModifiedById")


def no_such_field(obj: SObject, name: str) -> SalesforceError:
    """INVALID_FIELD for a DML body naming a field the object lacks (REST wording)."""
    return SalesforceError("INVALID_FIELD", f"No such column '{name}' on sobject of type {obj.name}", [])


def not_writable(fields: list[str]) -> SalesforceError:
    return SalesforceError(
        "INVALID_FIELD_FOR_INSERT_UPDATE",
        f"Unable to create/update fields: {', '.join(fields)}. Please check the security settings of this field "
        "and verify that it is read/write for your profile or permission set.",
        fields,
    )


def required_missing(fields: list[str]) -> SalesforceError:
    return SalesforceError(
        "REQUIRED_FIELD_MISSING", f"Required fields are missing: [{', '.join(fields)}]", fields
    )


def entity_is_deleted() -> SalesforceError:
    return SalesforceError("ENTITY_IS_DELETED", "entity is deleted", [])


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
        good = [(index, row) for index, row in prepared if results[index] is None]
        if good:
            fill_from_parents(org, obj, [row for _, row in good])
            with org.transaction():
                org.before_write(obj.name)
                write_rows(org, obj, [row for _, row in good])
                org.notify(obj.name, [row["Id"] for _, row in good], "insert")
                _create_person_contacts(org, obj, [row for _, row in good], now)
                roll_up(org, obj, [row for _, row in good])
        for index, row in good:
            results[index] = row["Id"]
    return results  # type: ignore[return-value]


def _prepare_insert(org: Org, obj: SObject, values: dict[str, Any], now: dt.datetime) -> dict[str, Any]:
    if not isinstance(values, dict):
        raise SalesforceError(
            "JSON_PARSER_ERROR", "Cannot deserialize instance of sObject from non-object value"
        )
    row: dict[str, Any] = {}
    locked: list[str] = []
    for key, value in with_parent_ids(org, obj, values).items():
        if key == "attributes":
            continue
        f = obj.field(key)
        if f is None or f.is_compound:
            raise no_such_field(obj, key)
        if not f.createable:
            locked.append(f.name)
            continue
        row[f.name] = coerce(f, value)
    if obj.name == "Account" and "Name" in row and is_person_account_type(obj, row.get("RecordTypeId")):
        locked.append("Name")  # a person account's Name is its person name, never written directly
    if locked:
        raise not_writable(locked)
    apply_defaults(obj, row)
    _stamp_system_fields(org, obj, row, now)
    derive(obj, row, None, now)
    missing = [f.name for f in _required_fields(obj, row) if row.get(f.name) is None]
    if missing:
        raise required_missing(missing)
    return row


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


def roll_up(org: Org, obj: SObject, rows: list[dict[str, Any]]) -> None:
    """Recompute roll-up summaries of parents whose children changed: Order.TotalAmount from its items."""
    order = org.schema.get("Order")
    if obj.name != "OrderItem" or order is None or order.field("TotalAmount") is None:
        return
    order_ids = sorted({row["OrderId"] for row in rows if row.get("OrderId")})
    if not order_ids:
        return
    org.before_write(order.name)
    org.con.execute(
        f'UPDATE {quote(order.name)} SET "TotalAmount" = (SELECT coalesce(sum(i."TotalPrice"), 0) '
        f'FROM {org.table_sql(obj.name)} i WHERE i."OrderId" = {quote(order.name)}."Id" AND NOT i."IsDeleted") '
        f'WHERE "Id" IN ({", ".join("?" * len(order_ids))})',
        order_ids,
    )


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
        org.con.execute(
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
        for account_field, contact_field in _person_field_pairs(obj, contact):
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
        org.notify(contact.name, [p["Id"] for p in created], "insert")


def _person_field_pairs(account: SObject, contact: SObject) -> list[tuple[str, str]]:
    """(Account field, Contact field) pairs a person account shares with its contact: Person* fields and the name."""
    pairs = []
    for name in ("Salutation", "FirstName", "MiddleName", "LastName", "Suffix"):
        if account.field(name) is not None and contact.field(name) is not None:
            pairs.append((name, name))
    for f in account.fields:
        if f.name.startswith("Person") and f.name != "PersonContactId" and not f.is_compound:
            target = contact.field(f.name[len("Person") :])
            if target is not None and not target.is_compound and target.createable:
                pairs.append((f.name, target.name))
    return pairs


# ---------------------------------------------------------------------------- read
def fetch_row(org: Org, obj: SObject, record_id: str) -> dict[str, Any] | None:
    """The stored row with ``record_id`` (15 or 18 characters), deleted or not, or None."""
    canonical = ids.normalize(record_id) if isinstance(record_id, str) else None
    if canonical is None or not canonical.startswith(obj.keyPrefix or "\0"):
        return None
    cursor = org.con.execute(f'SELECT * FROM {org.table_sql(obj.name)} WHERE "Id" = ?', [canonical])
    row = cursor.fetchone()
    if row is None:
        return None
    return dict(zip([d[0] for d in cursor.description], row))


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
def update(org: Org, object_name: str, record_id: str, values: dict[str, Any]) -> None:
    """Change fields of one record; raises NOT_FOUND, ENTITY_IS_DELETED or a field error."""
    obj = org.sobject(object_name)
    if not isinstance(values, dict):
        raise SalesforceError(
            "JSON_PARSER_ERROR", "Cannot deserialize instance of sObject from non-object value"
        )
    with org.lock:
        current = fetch_row(org, obj, record_id)
        if current is None:
            raise not_found()
        if current.get("IsDeleted"):
            raise entity_is_deleted()
        changes: dict[str, Any] = {}
        locked = []
        for key, value in with_parent_ids(org, obj, values).items():
            if key == "attributes":
                continue
            f = obj.field(key)
            if f is None or f.is_compound:
                raise no_such_field(obj, key)
            if f.name == "Id":
                continue
            if not f.updateable:
                locked.append(f.name)
                continue
            changes[f.name] = coerce(f, value)
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
        missing = [f.name for f in _required_fields(obj, merged) if merged.get(f.name) is None]
        if missing:
            raise required_missing(missing)
        if _COPIED_FROM_PARENT.get(obj.name, ("",))[0] in changes:
            fill_from_parents(org, obj, [merged])
        changed_refs = {k: v for k, v in changes.items() if obj.field(k).is_reference}
        if changed_refs:
            errors = _reference_errors(org, obj, [(0, changed_refs)])
            if errors:
                raise errors[0]
        for name, stamp in (
            ("LastModifiedDate", now),
            ("LastModifiedById", org.user_id),
            ("SystemModstamp", now),
        ):
            if obj.field(name) is not None:
                merged[name] = stamp
        columns = [
            f for f in obj.stored_fields if f.name != "Id" and merged.get(f.name) != current.get(f.name)
        ]
        if not columns:
            return
        with org.transaction():
            org.before_write(obj.name)
            assignments = ", ".join(f"{quote(f.name)} = ?::{column_type(f)}" for f in columns)
            org.con.execute(
                f'UPDATE {quote(obj.name)} SET {assignments} WHERE "Id" = ?',
                [merged[f.name] for f in columns] + [current["Id"]],
            )
            org.notify(obj.name, [current["Id"]], "update")
            roll_up(org, obj, [current, merged])


def delete(org: Org, object_name: str, record_id: str) -> None:
    """Move a record (and the children that cascade with it) to the recycle bin: ``IsDeleted = true``."""
    obj = org.sobject(object_name)
    if not obj.deletable:
        raise SalesforceError("INSUFFICIENT_ACCESS_OR_READONLY", "insufficient access rights on object id")
    with org.lock:
        current = fetch_row(org, obj, record_id)
        if current is None:
            raise not_found()
        if current.get("IsDeleted"):
            raise entity_is_deleted()
        with org.transaction():
            _soft_delete(org, obj, [current["Id"]], deleted=True)


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
            with org.transaction():
                _soft_delete(org, obj, chosen, deleted=True)
    return results


def undelete(org: Org, object_name: str, record_id: str) -> None:
    """Restore a record from the recycle bin (UNDELETE_FAILED when it is not there)."""
    obj = org.sobject(object_name)
    with org.lock:
        current = fetch_row(org, obj, record_id)
        if current is None:
            raise not_found()
        if not current.get("IsDeleted"):
            raise SalesforceError("UNDELETE_FAILED", "Entity is not in the recycle bin")
        with org.transaction():
            _soft_delete(org, obj, [current["Id"]], deleted=False)


def _soft_delete(org: Org, obj: SObject, record_ids: list[str], deleted: bool) -> None:
    if obj.field("IsDeleted") is None:
        if deleted and obj.deletable and not getattr(obj, "undeletable", True):
            _hard_delete(org, obj, record_ids)
            return
        raise SalesforceError("INSUFFICIENT_ACCESS_OR_READONLY", "insufficient access rights on object id")
    now = org.clock.now()
    org.before_write(obj.name)
    sets = ['"IsDeleted" = ?']
    params: list[Any] = [deleted]
    for name, stamp in (
        ("LastModifiedDate", now),
        ("LastModifiedById", org.user_id),
        ("SystemModstamp", now),
    ):
        if obj.field(name) is not None:
            sets.append(f"{quote(name)} = ?")
            params.append(stamp)
    org.con.execute(
        f'UPDATE {quote(obj.name)} SET {", ".join(sets)} WHERE "Id" IN (SELECT unnest(?::VARCHAR[]))',
        params + [record_ids],
    )
    org.notify(obj.name, record_ids, "delete" if deleted else "undelete")
    if obj.name == "OrderItem":
        placeholders = ", ".join("?" * len(record_ids))
        parents = org.con.execute(
            f'SELECT DISTINCT "OrderId" FROM {quote(obj.name)} WHERE "Id" IN ({placeholders})', record_ids
        ).fetchall()
        roll_up(org, obj, [{"OrderId": r[0]} for r in parents])
    for rel in obj.childRelationships:
        if not rel.cascadeDelete:
            continue
        child = org.schema.get(rel.childSObject)
        if child is None or child.field("IsDeleted") is None or child.field(rel.field) is None:
            continue
        rows = org.con.execute(
            f'SELECT "Id" FROM {quote(child.name)} WHERE {quote(rel.field)} IN (SELECT unnest(?::VARCHAR[])) '
            f'AND "IsDeleted" = ?',
            [record_ids, not deleted],
        ).fetchall()
        if rows:
            _soft_delete(org, child, [r[0] for r in rows], deleted)


def _hard_delete(org: Org, obj: SObject, record_ids: list[str]) -> None:
    """Delete records of an object without a recycle bin (no IsDeleted, no undelete(): Object
    Reference, Territory2 and UserTerritory2Association "Supported Calls"): they are gone at once,
    and so are the children that cascade with them."""
    for rel in obj.childRelationships:
        child = org.schema.get(rel.childSObject)
        if not rel.cascadeDelete or child is None or child.field(rel.field) is None:
            continue
        rows = org.con.execute(
            f'SELECT "Id" FROM {quote(child.name)} WHERE {quote(rel.field)} IN (SELECT unnest(?::VARCHAR[]))',
            [record_ids],
        ).fetchall()
        if rows:
            _soft_delete(org, child, [r[0] for r in rows], True)
    org.before_write(obj.name)
    org.con.execute(
        f'DELETE FROM {quote(obj.name)} WHERE "Id" IN (SELECT unnest(?::VARCHAR[]))', [record_ids]
    )
    org.notify(obj.name, record_ids, "delete")
