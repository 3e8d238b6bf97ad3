"""Fields whose describe says ``unique``: no two live records of an object share a value.

A write that would repeat a value answers DUPLICATE_VALUE ``duplicate value found: Code__c
duplicates value on record with id: 001U000001c83gK`` (the field's API name and the other
record's 15-character Id, as real REST payloads word it), with no ``fields``. Text values
compare ignoring case unless the field is ``caseSensitive`` (a unique text field's "Treat
'ABC' and 'abc' as duplicate values" setting; Salesforce Help, "Custom Field Attributes").
Records in the recycle bin hold no value. The standard objects of this org declare no unique
field; custom fields added with ``describes=`` may.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.ddl import quote

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org
    from crmarena_sf.metadata.model import Field, SObject

_TEXT = {"string", "email", "phone", "url", "textarea", "encryptedstring"}


def duplicate(field: Field, other_id: str) -> SalesforceError:
    return SalesforceError(
        "DUPLICATE_VALUE",
        f"duplicate value found: {field.name} duplicates value on record with id: {other_id[:15]}",
        [],
    )


def refusals(org: Org, obj: SObject, rows: list[tuple[int, dict[str, Any]]]) -> dict[int, SalesforceError]:
    """DUPLICATE_VALUE for rows (index, complete row with its Id) that repeat a unique value held by
    another live record or by an earlier row of the same request."""
    fields = [f for f in obj.fields if f.unique and not f.is_compound and f.type != "id"]
    errors: dict[int, SalesforceError] = {}
    for f in fields:
        keyed = [
            (index, row.get("Id"), _key(f, row.get(f.name))) for index, row in rows if index not in errors
        ]
        wanted = sorted({key for _, _, key in keyed if key is not None}, key=str)
        if not wanted:
            continue
        column = f"lower({quote(f.name)})" if _folds(f) else quote(f.name)
        live = ' AND NOT coalesce("IsDeleted", false)' if obj.field("IsDeleted") is not None else ""
        held: dict[Any, list[str]] = {}
        for value, record_id in org.con.execute(
            f'SELECT {column}, "Id" FROM {org.table_sql(obj.name)} WHERE {column} IN (SELECT unnest(?)){live} '
            'ORDER BY "Id"',
            [wanted],
        ).fetchall():
            held.setdefault(value, []).append(record_id)
        for index, record_id, key in keyed:
            if key is None:
                continue
            others = [other for other in held.get(key, []) if other != record_id]
            if others:
                errors[index] = duplicate(f, others[0])
            else:
                held.setdefault(key, []).append(record_id)
    return errors


def _folds(field: Field) -> bool:
    return field.type in _TEXT and not field.caseSensitive


def _key(field: Field, value: Any) -> Any:
    if value is None:
        return None
    return value.lower() if _folds(field) and isinstance(value, str) else value
