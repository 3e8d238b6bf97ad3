"""Merging up to three leads, contacts or accounts into one: the others' children move to it, then the others are deleted.

SOAP API Developer Guide, "merge()"
(https://developer.salesforce.com/docs/atlas.en-us.api.meta/api/sforce_api_calls_merge.htm): the
supported objects are Lead, Contact and Account (person accounts included); a request merges
up to three records, the master included; field values set on ``masterRecord`` are written to
the master "similar to a call to update"; every record related to a merged (victim) record is
re-parented to the master, and the victims are deleted, their ``MasterRecordId`` naming the
master (``SELECT Id FROM Contact WHERE IsDeleted = true AND MasterRecordId != null`` through
queryAll finds them). The result lists the victims (``mergedRecordIds``) and the related records
that changed (``updatedRelatedIds``). A person account's own contact goes with it, not to the
master. An object that cannot be merged is ``INVALID_TYPE_FOR_OPERATION`` "entity type does not
support merge" (the fault quoted in StevenMMortimer/salesforcer#102).

Every write goes through the store's updates and deletes (:mod:`crmarena_sf.emulator.store.dml`),
in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store import dml
from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.emulator.store.record_errors import entity_is_deleted

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

MERGEABLE = ("Lead", "Contact", "Account")
MAX_RECORDS = 3
"""Records one merge request combines, the master included."""


@dataclass
class Merged:
    """A ``MergeResult``'s Ids."""

    id: str
    merged_ids: list[str] = field(default_factory=list)
    updated_related_ids: list[str] = field(default_factory=list)


def unmergeable(object_name: str) -> SalesforceError:
    return SalesforceError("INVALID_TYPE_FOR_OPERATION", "entity type does not support merge", [])


def merge_records(
    org: Org, object_name: str, master_id: str, victim_ids: list[str], master_values: dict[str, Any]
) -> Merged:
    """Merge ``victim_ids`` into ``master_id`` (see the module docstring); raises SalesforceError, writing nothing."""
    obj = org.schema.get(object_name)
    if obj is None or obj.name not in MERGEABLE:
        raise unmergeable(object_name)
    victims = list(dict.fromkeys(ids.normalize(v) or v for v in victim_ids))
    if not victims:
        raise SalesforceError("INVALID_ID_FIELD", "invalid record id", ["recordToMergeIds"])
    if len(victims) + 1 > MAX_RECORDS:
        raise SalesforceError(
            "LIMIT_EXCEEDED",
            f"A merge request can combine at most {MAX_RECORDS} records, the master record included",
            ["recordToMergeIds"],
        )
    with org.lock:
        master = _live(org, obj, master_id)
        if master in victims:
            raise SalesforceError("INVALID_ID_FIELD", "invalid record id", ["recordToMergeIds"])
        for victim in victims:
            _live(org, obj, victim)
        result = Merged(master, victims)
        with org.transaction():
            if master_values:
                dml.update(org, obj.name, master, master_values)
            result.updated_related_ids = _reparent(org, obj.name, master, victims)
            for victim in victims:
                dml.update(org, obj.name, victim, {"MasterRecordId": master}, system=True)
                dml.delete(org, obj.name, victim)
    return result


def _live(org: Org, obj, record_id: str) -> str:
    row = dml.fetch_row(org, obj, record_id or "")
    if row is None:
        raise SalesforceError("INVALID_CROSS_REFERENCE_KEY", "invalid cross reference id", [])
    if row.get("IsDeleted"):
        raise entity_is_deleted()
    return row["Id"]


def _reparent(org: Org, object_name: str, master: str, victims: list[str]) -> list[str]:
    """Point every live record related to a victim at the master; the Ids of the records changed."""
    changed: list[str] = []
    for child in org.schema:
        for f in child.fields:
            if not f.is_reference or object_name not in f.referenceTo or f.name == "MasterRecordId":
                continue
            if child.name == "Contact" and object_name == "Account" and child.field("IsPersonAccount"):
                extra = ' AND NOT coalesce("IsPersonAccount", false)'  # a person account's own contact
            else:
                extra = ""
            live = ' AND NOT coalesce("IsDeleted", false)' if child.field("IsDeleted") is not None else ""
            rows = org.con.execute(
                f'SELECT "Id" FROM {org.table_sql(child.name)} WHERE {quote(f.name)} IN '
                f'(SELECT unnest(?::VARCHAR[])) AND "Id" != ?{live}{extra} ORDER BY "Id"',
                [victims, master],
            ).fetchall()
            for (record_id,) in rows:
                if not f.updateable and child.name in ("Task", "Event"):
                    continue  # derived from WhoId/WhatId, which move themselves
                dml.update(org, child.name, record_id, {f.name: master}, system=True)
                changed.append(record_id)
    return list(dict.fromkeys(changed))
