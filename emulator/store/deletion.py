"""What deleting a record does to the records that point at it, as the describes' relationship flags say.

- A ``cascadeDelete`` child goes to the recycle bin with its parent, and an undelete restores
  the records deleted with it ("Since a delete call cascade-deletes child records, an undelete
  call undeletes the cascade-deleted records": SOAP API Developer Guide, "undelete()",
  https://developer.salesforce.com/docs/atlas.en-us.api.meta/api/sforce_api_calls_undelete.htm).
  Only those: a child deleted on its own before stays in the recycle bin.
- A live ``restrictedDelete`` child blocks the delete: DELETE_FAILED naming the blocking records
  by their name field, as a real org answers for a contact with a case: ``Your attempt to delete
  Mr. Josh Davis could not be completed because it is associated with the following cases.:
  00001005\\n`` (a REST payload quoted in nforce's source, github.com/kevinohara80/nforce). The
  deleted record is named as the UI shows it (a person's salutation first); several blocking
  records are listed separated by ", " (as other public payloads show).
- A relationship both cascading and restricting (Account's Contracts and Orders) cascades, except
  that an activated child blocks: "Deleted accounts are moved to the Recycle Bin, along with ...
  Contracts (if they're not activated)" and an account with activated contracts cannot be
  deleted (Salesforce Help, "Delete Accounts", as quoted at
  https://www.simplysfdc.com/2014/04/what-happens-when-you-delete-accounts.html).
- Every other lookup to a deleted record is cleared. An undelete restores, where no other value
  replaced it meanwhile, the parent account, parent case, Reports To, an asset's product, a
  quote's opportunity and every custom lookup (Apex Developer Guide, "Referential Integrity When
  Deleting and Restoring Records",
  https://developer.salesforce.com/docs/atlas.en-us.apexcode.meta/apexcode/langCon_apex_dml_examples_delete.htm).
- ``purge`` (Bulk API hardDelete) removes the records for good: nothing to restore.

What an undelete must restore is kept in the table :data:`LINKS_TABLE` of the org (written in
the delete's transaction, so a rollback forgets it too).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.emulator.store.events import DELETE, UNDELETE, UPDATE
from crmarena_sf.emulator.store.rollups import roll_up_ids

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org
    from crmarena_sf.metadata.model import Field, Schema, SObject

LINKS_TABLE = "_sf_recycle_links"
"""(deleted_id, object, record_id, field): a record deleted with ``deleted_id`` (field NULL), or a
lookup ``field`` of ``record_id`` that pointed at ``deleted_id`` and was cleared."""

ACTIVATED = "Activated"

RESTORED_LOOKUPS = frozenset(
    {
        ("Account", "ParentId"),
        ("Case", "ParentId"),
        ("Contact", "ReportsToId"),
        ("Asset", "Product2Id"),
        ("Quote", "OpportunityId"),
    }
)
"""Standard lookups an undelete restores (custom lookups are restored too)."""


@dataclass(frozen=True)
class Link:
    """A reference ``field`` of ``child`` that can point at the parent object, and what a delete does to it."""

    child: SObject
    field: Field
    cascade: bool
    restrict: bool


@dataclass
class DeletePlan:
    """The records one delete takes with it, and the roots something blocks."""

    closure: dict[str, list[str]] = field(default_factory=dict)
    """object name -> Ids to delete, roots and cascaded children, parents before children."""
    parent_of: dict[str, str] = field(default_factory=dict)
    """cascaded child Id -> the Id it was deleted with."""
    root_of: dict[str, str] = field(default_factory=dict)
    blocked: dict[str, SalesforceError] = field(default_factory=dict)
    """root Id -> the DELETE_FAILED that keeps it."""


_links_cache: weakref.WeakKeyDictionary[Schema, dict[str, list[Link]]] = weakref.WeakKeyDictionary()


def links_to(schema: Schema, obj: SObject) -> list[Link]:
    """Every reference field of the schema that can point at records of ``obj``."""
    by_object = _links_cache.get(schema)
    if by_object is None:
        by_object = _links_cache[schema] = {}
    found = by_object.get(obj.name)
    if found is None:
        flags = {(rel.childSObject, rel.field): rel for rel in obj.childRelationships}
        found = []
        for child in schema:
            for f in child.fields:
                if f.is_reference and obj.name in f.referenceTo and f.name != "RecordTypeId":
                    rel = flags.get((child.name, f.name))
                    found.append(
                        Link(child, f, bool(rel and rel.cascadeDelete), bool(rel and rel.restrictedDelete))
                    )
        by_object[obj.name] = found
    return found


# ---------------------------------------------------------------------------- planning
def plan_delete(org: Org, obj: SObject, root_ids: list[str]) -> DeletePlan:
    """The records deleting ``root_ids`` takes along, and which roots restricted children block."""
    plan = DeletePlan(root_of={r: r for r in root_ids})
    plan.closure[obj.name] = list(root_ids)
    frontier: list[tuple[SObject, list[str]]] = [(obj, list(root_ids))]
    blockers: dict[str, tuple[SObject, list[str]]] = {}
    while frontier:
        parent, parent_ids = frontier.pop(0)
        for link in links_to(org.schema, parent):
            if not link.cascade or not (has_recycle_bin(link.child) or without_recycle_bin(link.child)):
                continue
            status = link.child.field("StatusCode") if link.restrict else None
            extra = f", {quote('StatusCode')}" if status is not None else ""
            taken = set(plan.closure.get(link.child.name, ()))
            fresh = []
            for child_id, parent_id, *code in _live_children(org, link, parent_ids, extra):
                if child_id in taken:
                    continue
                if code and code[0] == ACTIVATED:
                    blockers.setdefault(plan.root_of[parent_id], (link.child, []))[1].append(child_id)
                    continue
                taken.add(child_id)
                fresh.append(child_id)
                plan.parent_of[child_id] = parent_id
                plan.root_of[child_id] = plan.root_of[parent_id]
            if fresh:
                plan.closure.setdefault(link.child.name, []).extend(fresh)
                frontier.append((link.child, fresh))
    for name, record_ids in plan.closure.items():
        parent = org.schema.get(name)
        for link in links_to(org.schema, parent):
            if not link.restrict or link.cascade:
                continue
            taken = set(plan.closure.get(link.child.name, ()))
            for child_id, parent_id in _live_children(org, link, record_ids, ""):
                if child_id not in taken:
                    blockers.setdefault(plan.root_of[parent_id], (link.child, []))[1].append(child_id)
    for root, (child, child_ids) in blockers.items():
        plan.blocked[root] = _delete_failed(org, obj, root, child, child_ids)
    return plan


def without_blocked(org: Org, obj: SObject, plan: DeletePlan) -> DeletePlan:
    """The plan for the roots nothing blocks (planned again: their trees stand on their own)."""
    roots = [r for r in plan.closure[obj.name] if plan.root_of.get(r) == r and r not in plan.blocked]
    return plan_delete(org, obj, roots) if plan.blocked else plan


def _live_children(org: Org, link: Link, parent_ids: list[str], extra: str) -> list[tuple]:
    live = ' AND NOT coalesce("IsDeleted", false)' if link.child.field("IsDeleted") is not None else ""
    column = quote(link.field.name)
    return org.con.execute(
        f'SELECT "Id", {column}{extra} FROM {org.table_sql(link.child.name)} '
        f'WHERE {column} IN (SELECT unnest(?::VARCHAR[])){live} ORDER BY "Id"',
        [parent_ids],
    ).fetchall()


def _delete_failed(
    org: Org, obj: SObject, root: str, child: SObject, child_ids: list[str]
) -> SalesforceError:
    names = _display_names(org, child, sorted(set(child_ids)), with_salutation=False)
    shown = _display_names(org, obj, [root], with_salutation=True)[0]
    return SalesforceError(
        "DELETE_FAILED",
        f"Your attempt to delete {shown} could not be completed because it is associated with the "
        f"following {child.labelPlural.lower()}.: {', '.join(names)}\n",
        [],
    )


def _display_names(org: Org, obj: SObject, record_ids: list[str], with_salutation: bool) -> list[str]:
    name = obj.name_field
    salutation = obj.field("Salutation") if with_salutation else None
    columns = [quote(name.name) if name is not None else '"Id"']
    columns.append(quote("Salutation") if salutation is not None else "NULL")
    found = {
        r[0]: r[1:]
        for r in org.con.execute(
            f'SELECT "Id", {", ".join(columns)} FROM {org.table_sql(obj.name)} '
            'WHERE "Id" IN (SELECT unnest(?::VARCHAR[]))',
            [record_ids],
        ).fetchall()
    }
    shown = []
    for record_id in record_ids:
        value, title = found.get(record_id, (record_id, None))
        text = str(value) if value is not None else record_id
        shown.append(f"{title} {text}" if title else text)
    return shown


# ---------------------------------------------------------------------------- applying
def apply_delete(org: Org, plan: DeletePlan, purge: bool = False) -> None:
    """Delete every record of ``plan`` (inside the caller's transaction), clear the lookups to them and
    remember what an undelete restores; ``purge`` removes them for good instead."""
    for name, record_ids in plan.closure.items():
        obj = org.schema.get(name)
        if has_recycle_bin(obj):
            mark_deleted(org, obj, record_ids, True)
    links: list[tuple[str, str, str, str | None]] = []
    if not purge:
        links.extend(
            (plan.parent_of[r], name, r, None)
            for name, ids in plan.closure.items()
            for r in ids
            if r in plan.parent_of
        )
    for name, record_ids in plan.closure.items():
        links.extend(_clear_lookups(org, org.schema.get(name), record_ids, plan.closure))
    gone = {
        name: ids for name, ids in plan.closure.items() if purge or not has_recycle_bin(org.schema.get(name))
    }
    for name, record_ids in gone.items():
        org.before_write(name)
        org.con.execute(
            f'DELETE FROM {quote(name)} WHERE "Id" IN (SELECT unnest(?::VARCHAR[]))', [record_ids]
        )
        if not has_recycle_bin(org.schema.get(name)):
            org.notify(name, record_ids, DELETE)
    if purge:
        _forget(org, [r for ids in plan.closure.values() for r in ids])
    else:
        _remember(org, [link for link in links if link[3] is None or _restored(org, link[1], link[3])])


def _clear_lookups(
    org: Org, obj: SObject, record_ids: list[str], closure: dict[str, list[str]]
) -> list[tuple[str, str, str, str]]:
    cleared = []
    for link in links_to(org.schema, obj):
        if link.cascade or link.restrict:
            continue
        taken = set(closure.get(link.child.name, ()))
        column = quote(link.field.name)
        rows = [
            (child_id, parent_id)
            for child_id, parent_id in org.con.execute(
                f'SELECT "Id", {column} FROM {org.table_sql(link.child.name)} '
                f"WHERE {column} IN (SELECT unnest(?::VARCHAR[]))",
                [record_ids],
            ).fetchall()
            if child_id not in taken
        ]
        if not rows:
            continue
        org.before_write(link.child.name)
        org.con.execute(
            f'UPDATE {quote(link.child.name)} SET {column} = NULL WHERE "Id" IN (SELECT unnest(?::VARCHAR[]))',
            [[child_id for child_id, _ in rows]],
        )
        org.notify(link.child.name, sorted({child_id for child_id, _ in rows}), UPDATE)
        cleared.extend(
            (parent_id, link.child.name, child_id, link.field.name) for child_id, parent_id in rows
        )
    return cleared


def _restored(org: Org, object_name: str, field_name: str) -> bool:
    f = org.schema.get(object_name).field(field_name)
    return (object_name, field_name) in RESTORED_LOOKUPS or bool(f is not None and f.custom)


def has_recycle_bin(obj: SObject) -> bool:
    """True for an object whose deleted records go to the recycle bin (it has IsDeleted)."""
    return obj.field("IsDeleted") is not None


def without_recycle_bin(obj: SObject) -> bool:
    """True for a deletable object with no recycle bin (no IsDeleted, not undeletable: territories,
    permission sets ...): its records are deleted outright (Object Reference, each object's
    "Supported Calls" lists delete() but not undelete())."""
    return obj.field("IsDeleted") is None and obj.deletable and not getattr(obj, "undeletable", True)


def mark_deleted(org: Org, obj: SObject, record_ids: list[str], deleted: bool) -> None:
    """Set ``IsDeleted`` of ``record_ids`` (stamping the audit fields), tell listeners, and keep
    the totals of the parents of line items right."""
    if obj.field("IsDeleted") is None:
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
    org.notify(obj.name, record_ids, DELETE if deleted else UNDELETE)
    roll_up_ids(org, obj, record_ids)


# ---------------------------------------------------------------------------- undelete
def undelete_records(org: Org, obj: SObject, record_ids: list[str]) -> None:
    """Restore ``record_ids`` and the records deleted with them, and the lookups their delete cleared."""
    links = _links_of(org, record_ids)
    children: dict[str, list[str]] = {}
    everything = list(record_ids)
    frontier = list(record_ids)
    while frontier:
        found = [
            (name, r) for deleted_id in frontier for name, r, f in links.get(deleted_id, ()) if f is None
        ]
        frontier = []
        for name, child_id in found:
            if child_id not in everything:
                children.setdefault(name, []).append(child_id)
                everything.append(child_id)
                frontier.append(child_id)
        if frontier:
            links.update(_links_of(org, frontier))
    mark_deleted(org, obj, list(record_ids), False)
    for name, ids in children.items():
        child = org.schema.get(name)
        deleted = _still_deleted(org, child, ids) if child is not None else []
        if deleted:
            mark_deleted(org, child, deleted, False)
    for deleted_id in everything:
        for name, record_id, field_name in links.get(deleted_id, ()):
            if field_name is None:
                continue
            target = org.schema.get(name)
            if target is None or target.field(field_name) is None:
                continue
            column = quote(field_name)
            org.before_write(name)
            restored = org.con.execute(
                f'UPDATE {quote(name)} SET {column} = ? WHERE "Id" = ? AND {column} IS NULL RETURNING "Id"',
                [deleted_id, record_id],
            ).fetchall()
            if restored:
                org.notify(name, [record_id], UPDATE)
    _forget(org, everything)


def _still_deleted(org: Org, obj: SObject, record_ids: list[str]) -> list[str]:
    rows = org.con.execute(
        f'SELECT "Id" FROM {org.table_sql(obj.name)} WHERE "Id" IN (SELECT unnest(?::VARCHAR[])) '
        'AND coalesce("IsDeleted", false) ORDER BY "Id"',
        [record_ids],
    ).fetchall()
    return [r[0] for r in rows]


# ---------------------------------------------------------------------------- the links table
def _has_links(org: Org) -> bool:
    return org.has_table(LINKS_TABLE)


def _remember(org: Org, links: list[tuple[str, str, str, str | None]]) -> None:
    if not links:
        return
    if _has_links(org):
        org.before_write(LINKS_TABLE)  # a fork reading its parent's links copies them first
    else:
        org.con.execute(
            f"CREATE TABLE {LINKS_TABLE} (deleted_id VARCHAR, object VARCHAR, record_id VARCHAR, field VARCHAR)"
        )
    columns = list(zip(*links, strict=True))
    org.con.execute(
        f"INSERT INTO {LINKS_TABLE} SELECT unnest(?::VARCHAR[]), unnest(?::VARCHAR[]), "
        "unnest(?::VARCHAR[]), unnest(?::VARCHAR[])",
        [list(c) for c in columns],
    )


def _links_of(org: Org, deleted_ids: list[str]) -> dict[str, list[tuple[str, str, str | None]]]:
    if not deleted_ids or not _has_links(org):
        return {}
    found: dict[str, list[tuple[str, str, str | None]]] = {}
    for deleted_id, name, record_id, field_name in org.con.execute(
        f"SELECT deleted_id, object, record_id, field FROM {org.table_sql(LINKS_TABLE)} "
        "WHERE deleted_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY object, record_id",
        [deleted_ids],
    ).fetchall():
        found.setdefault(deleted_id, []).append((name, record_id, field_name))
    return found


def _forget(org: Org, deleted_ids: list[str]) -> None:
    if not deleted_ids or not _has_links(org):
        return
    org.before_write(LINKS_TABLE)
    org.con.execute(
        f"DELETE FROM {LINKS_TABLE} WHERE deleted_id IN (SELECT unnest(?::VARCHAR[])) "
        "OR (field IS NULL AND record_id IN (SELECT unnest(?::VARCHAR[])))",
        [deleted_ids, deleted_ids],
    )
