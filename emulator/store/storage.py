"""Data storage a record uses in a real org, for ``GET limits`` (``DataStorageMB``) and a push's estimate.

Salesforce Help, "Data and File Storage Allocations" / "Record size overview": most records use
2 KB; person accounts and Knowledge articles 4 KB (a person account's contact is part of it);
an email message its actual size; line items, products, price books and price book entries,
users and setup objects count nothing. A Developer Edition org has 5 MB of data storage and
20 MB of file storage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crmarena_sf.emulator.store.ddl import quote

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

DEVELOPER_EDITION_DATA_MB = 5
DEVELOPER_EDITION_FILE_MB = 20

RECORD_KB = {
    "Account": 2,
    "Contact": 2,
    "Case": 2,
    "Order": 2,
    "Asset": 2,
    "Contract": 2,
    "Individual": 2,
    "LiveChatTranscript": 2,
    "LiveChatVisitor": 2,
    "Knowledge__kav": 4,
}
"""KB per record of the standard objects that count; every custom object (``__c``) counts 2 KB."""
PERSON_ACCOUNT_KB = 4
CACHE_KEY = "storage.used_kb"
EMAIL_TEXT_FIELDS = (
    "Subject",
    "TextBody",
    "HtmlBody",
    "FromAddress",
    "FromName",
    "ToAddress",
    "CcAddress",
    "BccAddress",
)
"""The parts of an email message whose size it uses."""


def record_kb(object_name: str, *, person: bool = False) -> int:
    """KB one record of ``object_name`` uses (``person``: a person account, or a person account's contact)."""
    if object_name == "Account" and person:
        return PERSON_ACCOUNT_KB
    if object_name == "Contact" and person:
        return 0
    if object_name.endswith("__c"):
        return 2
    return RECORD_KB.get(object_name, 0)


def used_kb(org: Org) -> float:
    """Data storage the org's live records use, in KB (measured once, then again after a write)."""
    cached = org.cache.get(CACHE_KEY)
    if cached is None:
        with org.lock:
            cached = org.cache[CACHE_KEY] = _measure(org)
            if _forget_usage not in org.listeners:
                org.listeners.append(_forget_usage)
    return cached


def _forget_usage(org: Org, object_name: str, record_ids: list[str], kind: str) -> None:
    """Change listener: a write makes the measured usage stale."""
    org.cache.pop(CACHE_KEY, None)


def _measure(org: Org) -> float:
    total = 0.0
    for obj in org.schema:
        live = 'WHERE NOT coalesce("IsDeleted", false)' if obj.field("IsDeleted") is not None else ""
        table = org.table_sql(obj.name)
        if obj.name == "EmailMessage":
            parts = [
                f"coalesce(octet_length(encode({quote(f)})), 0)" for f in EMAIL_TEXT_FIELDS if obj.field(f)
            ]
            if parts:
                total += (
                    org.con.execute(
                        f"SELECT coalesce(sum({' + '.join(parts)}), 0) FROM {table} {live}"
                    ).fetchone()[0]
                    / 1024
                )
            continue
        per_record = record_kb(obj.name)
        person = obj.field("IsPersonAccount") is not None and obj.name in ("Account", "Contact")
        if not per_record:
            continue
        if person:
            rows = org.con.execute(
                f'SELECT coalesce("IsPersonAccount", false), count(*) FROM {table} {live} GROUP BY 1'
            ).fetchall()
            total += sum(n * record_kb(obj.name, person=is_person) for is_person, n in rows)
        else:
            total += org.con.execute(f"SELECT count(*) FROM {table} {live}").fetchone()[0] * per_record
    return total
