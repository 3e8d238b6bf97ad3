"""Fields a real org computes itself on every write.

- a person's ``Name`` (Contact, User, person Account) from FirstName, MiddleName, LastName, Suffix;
- ``Account.IsPersonAccount`` from the record type;
- ``Case.IsClosed`` from Status, and ``Case.ClosedDate`` stamped when a case closes
  (kept if the client set it: the org allows audit fields on create);
- a new Knowledge article version: a ``Draft``, version 1, the latest version;
- picklist and checkbox defaults, the org's own defaults (:data:`ORG_DEFAULTS`), auto-numbers;
- ``Order.StatusCode`` from Status and ``ActivatedDate`` when an order activates;
  ``OrderItem.TotalPrice`` (Quantity x UnitPrice); values copied from parents
  (``PricebookEntry.Name``/``ProductCode`` from the product, ``OrderItem.ListPrice`` from the
  price book entry) are filled by :mod:`crmarena_sf.emulator.store.dml`, which can read the
  parents, and totals over line items (``Order.TotalAmount`` ...) by
  :mod:`crmarena_sf.emulator.store.rollups`;
- the audit stamps of a changed record (:func:`stamp_modified`).

The standard sales objects' fields (opportunity stages, line-item totals, activities) are
derived by :mod:`crmarena_sf.emulator.store.derive_sales`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from crmarena_sf.emulator.store.derive_sales import derive_sales
from crmarena_sf.metadata.model import CLOSED_CASE_STATUSES, SObject

PERSON_ACCOUNT_RECORD_TYPE = "PersonAccount"

AUTONUMBER_FORMATS: dict[tuple[str, str], tuple[int, int]] = {
    ("Case", "CaseNumber"): (8, 1000),
    ("Order", "OrderNumber"): (8, 100),
    ("OrderItem", "OrderItemNumber"): (10, 1),
    ("Knowledge__kav", "ArticleNumber"): (9, 1000),
    ("Contract", "ContractNumber"): (8, 100),
}
"""(digits, first value) of auto-number fields; others count from 1 with 8 digits."""


def person_name(obj: SObject, row: dict[str, Any]) -> str | None:
    """The derived Name of a person record, or None when the object has no person name."""
    parts = [row.get(p) for p in obj.person_name_parts]
    text = " ".join(str(p) for p in parts if p)
    return text or None


def is_person_account_type(obj: SObject, record_type_id: str | None) -> bool:
    """True when ``record_type_id`` is Account's person-account record type."""
    if obj.name != "Account" or not record_type_id:
        return False
    rt = obj.record_type(record_type_id)
    return rt is not None and rt.developerName == PERSON_ACCOUNT_RECORD_TYPE


ORG_DEFAULTS: dict[tuple[str, str], Any] = {
    ("UserRole", "OpportunityAccessForAccountOwner"): "None",
    ("UserRole", "CaseAccessForAccountOwner"): "None",
    ("UserRole", "ContactAccessForAccountOwner"): "None",
    ("User", "UserType"): "Standard",
}
"""Values the org gives fields its describe marks ``defaultedOnCreate`` without naming a default
(modelled: a role's access for account owners starts at None, the least its picklist offers; a
user created with the API is a Standard user)."""


def apply_defaults(obj: SObject, row: dict[str, Any]) -> None:
    """Fill picklist defaults, checkbox values and the org's own defaults the client did not send.

    A checkbox is never null in Salesforce: every boolean field's describe says
    ``nillable: false``, and one the client did not set reads false (or the field's own
    default), also one the client cannot set, such as a business contact's ``IsPersonAccount``.
    A user's ``CommunityNickname`` defaults to the name part of the username (modelled).
    """
    for f in obj.stored_fields:
        if f.name in row:
            continue
        if f.type == "boolean":
            row[f.name] = f.defaultValue if isinstance(f.defaultValue, bool) else False
        elif f.createable and f.type in ("picklist", "multipicklist") and f.defaultValue is not None:
            row[f.name] = f.defaultValue
        elif (obj.name, f.name) in ORG_DEFAULTS:
            row[f.name] = ORG_DEFAULTS[(obj.name, f.name)]
    if obj.name == "User" and obj.field("CommunityNickname") is not None and not row.get("CommunityNickname"):
        username = row.get("Username") or row.get("Email")
        if isinstance(username, str):
            row["CommunityNickname"] = username.split("@")[0][:40] or None


def stamp_modified(obj: SObject, row: dict[str, Any], now: dt.datetime, user_id: str) -> None:
    """Stamp a changed record: LastModifiedDate, LastModifiedById and SystemModstamp, where the object has them."""
    for name, stamp in (("LastModifiedDate", now), ("LastModifiedById", user_id), ("SystemModstamp", now)):
        if obj.field(name) is not None:
            row[name] = stamp


def derive(obj: SObject, row: dict[str, Any], previous: dict[str, Any] | None, now: dt.datetime) -> None:
    """Recompute derived fields of ``row`` (a complete row: previous values merged with the change)."""
    if obj.name == "Account" and obj.field("IsPersonAccount") is not None:
        row["IsPersonAccount"] = is_person_account_type(obj, row.get("RecordTypeId"))
        if row["IsPersonAccount"]:
            row["Name"] = person_name(obj, row)
    elif obj.person_name_parts and not obj.field("Name").createable:
        row["Name"] = person_name(obj, row)
    if obj.name == "Case" and obj.field("IsClosed") is not None:
        closed = row.get("Status") in CLOSED_CASE_STATUSES
        was_closed = bool(previous and previous.get("IsClosed"))
        row["IsClosed"] = closed
        if closed and not row.get("ClosedDate"):
            row["ClosedDate"] = now
        elif not closed and was_closed:
            row["ClosedDate"] = None
    if obj.name == "Order" and obj.field("StatusCode") is not None and row.get("Status"):
        row["StatusCode"] = "Activated" if row["Status"] == "Activated" else "Draft"
        if row["StatusCode"] == "Activated" and not row.get("ActivatedDate"):
            row["ActivatedDate"] = now
        if row.get("TotalAmount") is None and obj.field("TotalAmount") is not None:
            row["TotalAmount"] = 0
    if previous is None and obj.name.endswith("__kav") and obj.field("PublishStatus") is not None:
        # A new article version is a draft (the describe's default), version 1, the latest.
        row["PublishStatus"] = row.get("PublishStatus") or "Draft"
        row.setdefault("VersionNumber", 1)
        if obj.field("IsLatestVersion") is not None:
            row["IsLatestVersion"] = (
                True  # read-only: the checkbox default filled in before is not the client's
            )
    if obj.name == "OrderItem" and obj.field("TotalPrice") is not None:
        quantity, price = row.get("Quantity"), row.get("UnitPrice")
        row["TotalPrice"] = quantity * price if quantity is not None and price is not None else None
    derive_sales(obj, row, previous, now)
