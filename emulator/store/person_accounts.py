"""A person account and its person contact are one person: their shared fields are kept equal both ways.

"When a person account is created ..., a corresponding contact record is also created. This
contact record is referred to as a 'person contact'" and "the ID of the corresponding person
contact record is stored in the PersonContactId field" (SOAP API Developer Guide, "Person
Account Record Types", sforce_api_guidelines_personaccounts.htm). The account's ``Person*``
fields and its name are the contact's fields: an update of either record changes both, and both
records' LastModifiedDate moves ("Salesforce always updates the LastModifiedDate system field in
both the account and contact even if the field updated is only in one of the underlying
records": Change Data Capture Developer Guide, "Updating a Person Account",
cdc_standard_objects_person_account_update.htm). The contact is created with the account by
:mod:`crmarena_sf.emulator.store.dml`.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator.store.ddl import column_type, quote
from crmarena_sf.emulator.store.derive import derive, stamp_modified
from crmarena_sf.emulator.store.events import UPDATE

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org
    from crmarena_sf.metadata.model import SObject

_NAME_PARTS = ("Salutation", "FirstName", "MiddleName", "LastName", "Suffix")


def person_field_pairs(account: SObject, contact: SObject) -> list[tuple[str, str]]:
    """(Account field, Contact field) pairs a person account shares with its contact: Person* fields and the name."""
    pairs = []
    for name in _NAME_PARTS:
        if account.field(name) is not None and contact.field(name) is not None:
            pairs.append((name, name))
    for f in account.fields:
        if f.name.startswith("Person") and f.name != "PersonContactId" and not f.is_compound:
            target = contact.field(f.name[len("Person") :])
            if target is not None and not target.is_compound and target.createable:
                pairs.append((f.name, target.name))
    return pairs


def sync_counterpart(
    org: Org, obj: SObject, current: dict[str, Any], merged: dict[str, Any], now: dt.datetime
) -> None:
    """After a person account or person contact changed from ``current`` to ``merged``, write the
    shared fields into the other record (inside the caller's transaction)."""
    account, contact = org.schema.get("Account"), org.schema.get("Contact")
    if account is None or contact is None or account.field("PersonContactId") is None:
        return
    if obj.name == "Account" and merged.get("IsPersonAccount"):
        other, other_id = contact, merged.get("PersonContactId")
        pairs = person_field_pairs(account, contact) + [("OwnerId", "OwnerId")]
    elif obj.name == "Contact" and merged.get("IsPersonAccount"):
        other, other_id = account, merged.get("AccountId")
        pairs = [(c, a) for a, c in person_field_pairs(account, contact)] + [("OwnerId", "OwnerId")]
    else:
        return
    changes = {
        theirs: merged.get(mine)
        for mine, theirs in pairs
        if merged.get(mine) != current.get(mine) and other.field(theirs) is not None
    }
    if not other_id or not changes:
        return
    cursor = org.con.execute(f'SELECT * FROM {quote(other.name)} WHERE "Id" = ?', [other_id])
    row = cursor.fetchone()
    if row is None:
        return
    before = dict(zip([d[0] for d in cursor.description], row))
    after = {**before, **changes}
    derive(other, after, before, now)
    stamp_modified(other, after, now, org.user_id)
    columns = [f for f in other.stored_fields if f.name != "Id" and after.get(f.name) != before.get(f.name)]
    org.before_write(other.name)
    assignments = ", ".join(f"{quote(f.name)} = ?::{column_type(f)}" for f in columns)
    org.con.execute(
        f'UPDATE {quote(other.name)} SET {assignments} WHERE "Id" = ?',
        [after[f.name] for f in columns] + [other_id],
    )
    org.notify(other.name, [other_id], UPDATE)
