"""Records found by an external id: upsert keys and parent references, for every transport.

REST API Developer Guide, "Insert or Update (Upsert) a Record Using an External ID" and
"Upsert Records and Associate with a Foreign Key"
(https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/dome_upsert.htm),
and the SOAP API's upsert() (sforce_api_calls_upsert.htm):

- an upsert keys on an External ID field or an idLookup field (``Id``, ``Contact.Email`` ...);
  one match updates, none creates, several are DUPLICATE_EXTERNAL_ID;
- a write may name a parent by one of its external ids instead of its Id, under the
  relationship's name: ``"Account": {"Ext__c": "A-1"}`` or ``"Parent__r": {"Code__c": "X"}``
  (an ``attributes.type`` picks the target of a polymorphic relationship). A value no parent
  has is INVALID_FIELD ``Foreign key external ID: A-1 not found for field Ext__c in entity
  Account``. Bulk CSV headers (``Account.Ext__c``) become the same nested form.

REST handlers, collections, composite, Bulk API 1.0 and 2.0 all call these functions, so a
key matches the same records whichever way a client writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.errors import SalesforceError, not_found
from crmarena_sf.emulator.store.coerce import coerce
from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.emulator.store.record_errors import no_such_field, required_missing
from crmarena_sf.metadata.model import Field, SObject

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

_TEXT_TYPES = {"string", "email", "phone", "url", "textarea", "picklist", "combobox", "encryptedstring"}


def no_such_external_id_field(name: str) -> SalesforceError:
    """404 NOT_FOUND as ``sobjects/X/<Field>/<value>`` answers a field that is no external id."""
    return SalesforceError(
        "NOT_FOUND", f"Provided external ID field does not exist or is not accessible: {name}", status=404
    )


def external_id_field(obj: SObject, name: str) -> Field:
    """The field an upsert or lookup may key on: an External ID field or an idLookup field (``Id``,
    ``Contact.Email`` ...), as the SOAP API's upsert() describes; else 404 NOT_FOUND."""
    f = obj.field(name)
    if f is None or not (f.externalId or f.idLookup):
        raise no_such_external_id_field(name)
    return f


def own_record_id(obj: SObject, text: str) -> str | None:
    """The 18-character Id ``text`` names when it is an Id of ``obj``, else None."""
    canonical = ids.normalize(text)
    if canonical is None or not obj.keyPrefix or not canonical.startswith(obj.keyPrefix):
        return None
    return canonical


def matches_ignoring_case(field: Field) -> bool:
    """Custom external ids match case-insensitively only when Unique and not case-sensitive
    (Apex Developer Guide, "Upserting Records"); standard text lookups ignore case like SOQL."""
    if field.type not in _TEXT_TYPES:
        return False
    if field.custom:
        return field.unique and not field.caseSensitive
    return not field.caseSensitive


def find_by_external_id(org: Org, obj: SObject, field: Field, value: Any) -> list[str]:
    """Ids of live records whose ``field`` equals ``value`` (see :func:`matches_ignoring_case`)."""
    if field.name == "Id":
        record_id = own_record_id(obj, value) if isinstance(value, str) else None
        if record_id is None:
            return []
        typed: Any = record_id
    else:
        try:
            typed = coerce(field, value)
        except SalesforceError:
            return []
    if typed is None:
        return []
    column = quote(field.name)
    live = ' AND NOT coalesce("IsDeleted", false)' if obj.field("IsDeleted") is not None else ""
    if matches_ignoring_case(field):
        where, param = f"lower({column}) = lower(?)", str(typed)
    else:
        where, param = f"{column} = ?", typed
    with org.lock:
        rows = org.con.execute(
            f'SELECT "Id" FROM {org.table_sql(obj.name)} WHERE {where}{live} ORDER BY "Id"', [param]
        ).fetchall()
    return [r[0] for r in rows]


def existing_record_id(org: Org, obj: SObject, key: Field, value: Any) -> str:
    """The live record ``value`` names as an ``Id``: MALFORMED_ID when it is not an Id at all,
    NOT_FOUND when no record of ``obj`` has it."""
    coerce(key, value)  # MALFORMED_ID ("Account ID: id value of incorrect type: ...") or a type error
    matches = find_by_external_id(org, obj, key, value)
    if not matches:
        raise not_found()
    return matches[0]


def duplicate_external_id(key: Field, matches: list[str]) -> SalesforceError:
    return SalesforceError(
        "DUPLICATE_EXTERNAL_ID",
        f"{key.label}: more than one record found for external id field: [{', '.join(matches)}]",
        [key.name],
    )


def upsert_one(org: Org, obj: SObject, key: Field, value: Any, values: dict[str, Any]) -> tuple[str, bool]:
    """Update the one live record whose ``key`` is ``value`` with ``values``, or create one; (Id, created).

    A record without a value for the key is REQUIRED_FIELD_MISSING (keyed on ``Id``, see :func:`_upsert_by_id`).
    Several matches are DUPLICATE_EXTERNAL_ID, as collections and Bulk API upserts report them
    (the single-record resource answers 300 instead and does not come here).
    """
    if key.name == "Id":
        return _upsert_by_id(org, obj, key, value, values)
    if value is None:
        raise required_missing([key.name])
    with org.lock:
        matches = find_by_external_id(org, obj, key, value)
        if len(matches) > 1:
            raise duplicate_external_id(key, matches)
        if matches:
            changes = {k: v for k, v in values.items() if k.lower() not in ("id", key.name.lower())}
            org.update(obj.name, matches[0], changes)
            return matches[0], False
        return org.insert(obj.name, {k: v for k, v in values.items() if k.lower() != "id"}), True


def _upsert_by_id(org: Org, obj: SObject, key: Field, value: Any, values: dict[str, Any]) -> tuple[str, bool]:
    """Upsert keyed on ``Id``: no Id creates (Mobile SDK Developer Guide, "Collection Upsert"); a
    malformed one is MALFORMED_ID and an Id naming no record of the object is NOT_FOUND, as
    ``PATCH sobjects/X/Id/<value>`` answers; nothing is created for either."""
    changes = {k: v for k, v in values.items() if k.lower() != "id"}
    if value is None or value == "":
        return org.insert(obj.name, changes), True
    with org.lock:
        record_id = existing_record_id(org, obj, key, value)
        org.update(obj.name, record_id, changes)
    return record_id, False


def duplicate_keys_in_request(key: Field, values: list[Any]) -> set[int]:
    """Positions of the records of one upsert request that share their key with another record.

    Salesforce fails every such record with DUPLICATE_VALUE rather than letting the last one
    win (SOAP API Developer Guide, upsert(), sforce_api_calls_upsert.htm).
    """
    seen: dict[Any, list[int]] = {}
    for index, value in enumerate(values):
        if value is None or value == "" or key.name == "Id":
            continue
        norm = str(value).lower() if matches_ignoring_case(key) else value
        seen.setdefault(norm, []).append(index)
    return {i for positions in seen.values() if len(positions) > 1 for i in positions}


def duplicate_value(key: Field, value: Any) -> SalesforceError:
    """DUPLICATE_VALUE for a key given twice in one request."""
    return SalesforceError(
        "DUPLICATE_VALUE",
        f"Duplicate external id specified: {value}",
        [key.name],
    )


# ---------------------------------------------------------------------------- parent references
def is_parent_reference(obj: SObject, key: str, value: Any) -> bool:
    """True for ``"Account": {...}``: a relationship name holding an object (not a field of ``obj``)."""
    return isinstance(value, dict) and obj.field(key) is None and obj.parent_relationship(key) is not None


def resolve_parent_reference(
    org: Org, obj: SObject, key: str, value: dict[str, Any], known: dict | None = None
) -> tuple[str, str | None]:
    """``("AccountId", "001...")`` for ``key="Account"``, ``value={"Ext__c": "A-1"}``.

    The nested object names exactly one field of the parent (plus an optional ``attributes``);
    that field must be an External ID or idLookup field of the parent. A null value clears
    the reference.
    """
    reference = obj.parent_relationship(key)
    attributes = value.get("attributes") if isinstance(value.get("attributes"), dict) else {}
    named = [(k, v) for k, v in value.items() if k != "attributes"]
    targets = [org.schema.get(name) for name in reference.referenceTo]
    targets = [t for t in targets if t is not None]
    wanted_type = attributes.get("type")
    if isinstance(wanted_type, str) and wanted_type:
        targets = [t for t in targets if t.name.lower() == wanted_type.lower()]
    if len(named) != 1 or not targets:
        raise no_such_field(obj, key)
    field_name, key_value = named[0]
    target, field = _key_field(targets, field_name)
    if field is None:
        raise SalesforceError(
            "INVALID_FIELD",
            f"Field name provided, {field_name} does not match an External ID, Salesforce Id, or indexed "
            f"field for {targets[0].name}",
            [],
        )
    if key_value is None:
        return reference.name, None
    matches = _parents(org, target, field, key_value, known)
    if not matches:
        shown = key_value if isinstance(key_value, str) else str(key_value)
        raise SalesforceError(
            "INVALID_FIELD",
            f"Foreign key external ID: {shown} not found for field {field.name} in entity {target.name}",
            [],
        )
    if len(matches) > 1:
        raise duplicate_external_id(reference, matches)
    return reference.name, matches[0]


def _key_field(targets: list[SObject], name: str) -> tuple[SObject, Field | None]:
    for target in targets:
        f = target.field(name)
        if f is not None and (f.externalId or f.idLookup):
            return target, f
    return targets[0], None


def with_parent_ids(
    org: Org, obj: SObject, values: dict[str, Any], known: dict | None = None
) -> dict[str, Any]:
    """``values`` with every parent reference by external id replaced by the parent's Id
    (``known``: parents already looked up by :func:`parent_lookups`)."""
    if not any(is_parent_reference(obj, k, v) for k, v in values.items()):
        return values
    out: dict[str, Any] = {}
    for k, v in values.items():
        if is_parent_reference(obj, k, v):
            field_name, record_id = resolve_parent_reference(org, obj, k, v, known)
            out[field_name] = record_id
        else:
            out[k] = v
    return out


def parent_lookups(org: Org, obj: SObject, rows: list[dict[str, Any]]) -> dict:
    """The parents that ``rows`` name by a text external id, found with one query per parent key
    field instead of one per row: ``{(object, field): {match key: [Ids]}}`` for
    :func:`with_parent_ids`. Polymorphic references are left to the one-by-one lookup."""
    wanted: dict[tuple[str, str], set[str]] = {}
    for row in rows:
        for k, v in row.items():
            if not is_parent_reference(obj, k, v):
                continue
            reference = obj.parent_relationship(k)
            named = [(name, value) for name, value in v.items() if name != "attributes"]
            if len(reference.referenceTo) != 1 or len(named) != 1 or not isinstance(named[0][1], str):
                continue
            target = org.schema.get(reference.referenceTo[0])
            f = target.field(named[0][0]) if target is not None else None
            if f is not None and f.externalId and f.type in _TEXT_TYPES:
                wanted.setdefault((target.name, f.name), set()).add(named[0][1])
    return {
        (name, field_name): find_many_by_external_id(
            org, org.schema.get(name), org.schema.get(name).field(field_name), sorted(values)
        )
        for (name, field_name), values in wanted.items()
    }


def _parents(org: Org, target: SObject, field: Field, value: Any, known: dict | None) -> list[str]:
    found = (known or {}).get((target.name, field.name))
    if found is not None and isinstance(value, str):
        return found.get(external_id_match_key(field, value), [])
    return find_by_external_id(org, target, field, value)


def external_id_match_key(key: Field, value: Any) -> Any:
    """What :func:`find_many_by_external_id` keys its answer by: the value, lower-cased where matching ignores case."""
    return str(value).lower() if matches_ignoring_case(key) else value


def find_many_by_external_id(org: Org, obj: SObject, key: Field, values: list[Any]) -> dict[Any, list[str]]:
    """Live records whose ``key`` is one of ``values``: match key -> Ids (see :func:`find_by_external_id`)."""
    if not values:
        return {}
    column = quote(key.name)
    live = ' AND NOT coalesce("IsDeleted", false)' if obj.field("IsDeleted") is not None else ""
    if matches_ignoring_case(key):
        where, params = f"lower({column}) IN (SELECT lower(unnest(?::VARCHAR[])))", [[str(v) for v in values]]
        select = f"lower({column})"
    else:
        where, params = f"{column} IN (SELECT unnest(?))", [values]
        select = column
    found: dict[Any, list[str]] = {}
    with org.lock:
        rows = org.con.execute(
            f'SELECT {select}, "Id" FROM {org.table_sql(obj.name)} WHERE {where}{live} ORDER BY "Id"', params
        ).fetchall()
    for match, record_id in rows:
        found.setdefault(match, []).append(record_id)
    return found


def upsert_many(
    org: Org, obj: SObject, key: Field, rows: list[tuple[Any, dict[str, Any]]]
) -> list[tuple[str, bool] | SalesforceError]:
    """:func:`upsert_one` for many ``(key value, values)`` rows, with the same result per row: the
    matches and the parents named by external id are found with one query each and the new
    records created with one insert (a collection or a Bulk job of 200 new records is one write,
    not 200). Upserts keyed on ``Id``, and rows sharing a key (which callers refuse with
    DUPLICATE_VALUE before coming here), go one by one."""
    if key.name == "Id" or duplicate_keys_in_request(key, [value for value, _ in rows]):
        return [_upsert_or_error(org, obj, key, value, values) for value, values in rows]
    results: list[tuple[str, bool] | SalesforceError | None] = [None] * len(rows)
    with org.lock:
        known = parent_lookups(org, obj, [values for _, values in rows])
        resolved: dict[int, dict[str, Any]] = {}
        typed: dict[int, Any] = {}
        for index, (value, values) in enumerate(rows):
            if value is None:
                results[index] = required_missing([key.name])
                continue
            try:
                resolved[index] = with_parent_ids(org, obj, values, known)
            except SalesforceError as exc:
                results[index] = exc
                continue
            try:
                typed[index] = coerce(key, value)
            except SalesforceError:
                typed[index] = None  # matches nothing; the insert reports the value's own error
        found = find_many_by_external_id(org, obj, key, [v for v in typed.values() if v is not None])
        inserts: list[int] = []
        for index, value in typed.items():
            matches = found.get(external_id_match_key(key, value), []) if value is not None else []
            if len(matches) > 1:
                results[index] = duplicate_external_id(key, matches)
            elif matches:
                changes = {
                    k: v for k, v in resolved[index].items() if k.lower() not in ("id", key.name.lower())
                }
                try:
                    org.update(obj.name, matches[0], changes)
                    results[index] = (matches[0], False)
                except SalesforceError as exc:
                    results[index] = exc
            else:
                inserts.append(index)
        if inserts:
            new_rows = [{k: v for k, v in resolved[i].items() if k.lower() != "id"} for i in inserts]
            try:
                created: list[Any] = org.insert_many(obj.name, new_rows)
            except SalesforceError as exc:
                created = [exc] * len(inserts)
            for index, outcome in zip(inserts, created, strict=True):
                results[index] = outcome if isinstance(outcome, SalesforceError) else (outcome, True)
    return results  # type: ignore[return-value]


def _upsert_or_error(org: Org, obj: SObject, key: Field, value: Any, values: dict[str, Any]):
    try:
        return upsert_one(org, obj, key, value, values)
    except SalesforceError as exc:
        return exc
