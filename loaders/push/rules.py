"""What a real org requires of a load that the metadata alone does not say.

Each rule is a small function or table with the Salesforce behaviour it follows:

- a person account's ``Name`` is its person name and cannot be written; its contact is created
  with it and cannot be inserted on its own (Object Reference, "Account": person accounts);
- an order is inserted as ``Draft`` and activated once its products exist (Object Reference,
  "Order": an order without products cannot be activated);
- a product's standard price comes before any custom price book entry for it
  (STANDARD_PRICE_NOT_DEFINED otherwise; Object Reference, "PricebookEntry");
- the standard price book exists in every org and is never inserted (Object Reference, "Pricebook2");
- usernames are unique across every Salesforce org, so a pushed agent's username gets a
  suffix naming the org (Salesforce Help, "Username": "must be unique across all Salesforce orgs");
- feature licences (``UserPermissionsKnowledgeUser`` ...) are left alone: a Developer Edition
  org has few, and an agent needs none to own cases;
- CRMArena's ``CaseHistory__c.OldValue__c``/``NewValue__c`` hold User Ids as text
  (:mod:`crmarena_sf.metadata.specs.case_history_c`): they are translated like references;
- a user's assignment to a territory takes no custom field (Object Reference,
  UserTerritory2Association: "doesn't support adding custom fields"), so it cannot carry the
  push's key: it is matched on what makes it unique, its user and territory, and inserted when
  the org lacks it; a territory type is matched the same way on its DeveloperName, which the
  org keeps unique (:data:`KEYLESS`).
"""

from __future__ import annotations

from typing import Any

PERSON_ACCOUNT_FIELD = "IsPersonAccount"
ORDER_DRAFT = "Draft"

ID_TEXT_FIELDS = {"CaseHistory__c": ("OldValue__c", "NewValue__c")}
"""Text fields whose values are Ids of the dataset's records (object -> fields)."""

NEVER_WRITTEN = {"User": ("UserPermissions",)}
"""Field-name prefixes a push never writes, per object (feature licences)."""

PUBLISHED = "Online"

KEYLESS = {"UserTerritory2Association": ("UserId", "Territory2Id"), "Territory2Type": ("DeveloperName",)}
"""Objects a push matches on natural key fields instead of the key field (object -> fields)."""


def is_person_row(object_name: str, row: dict[str, Any]) -> bool:
    """A person account, or the contact that comes with one."""
    return object_name in ("Account", "Contact") and bool(row.get(PERSON_ACCOUNT_FIELD))


def loads_row(object_name: str, row: dict[str, Any]) -> bool:
    """False for rows the org makes itself: a person account's contact, the standard price book."""
    if object_name == "Contact" and is_person_row(object_name, row):
        return False
    return not (object_name == "Pricebook2" and row.get("IsStandard"))


def never_written(object_name: str, field_name: str) -> bool:
    return any(field_name.startswith(prefix) for prefix in NEVER_WRITTEN.get(object_name, ()))


def insert_value(object_name: str, field_name: str, row: dict[str, Any]) -> tuple[bool, Any]:
    """``(True, value)`` when the insert must write ``value`` instead of the row's own; the row's
    value is then written by the update pass after every object is loaded."""
    if object_name == "Order" and field_name == "Status" and row.get("Status") not in (None, ORDER_DRAFT):
        return True, ORDER_DRAFT
    return False, None


def drops_on_insert(object_name: str, field_name: str, row: dict[str, Any]) -> bool:
    """Fields a row must not send: a person account's Name."""
    return object_name == "Account" and field_name == "Name" and is_person_row(object_name, row)


def row_phase(object_name: str, row: dict[str, Any], standard_price_book_ids: set[str]) -> int:
    """Rows of one object loaded in phases: standard prices (0) before other price book entries (1)."""
    if object_name == "PricebookEntry":
        return 0 if row.get("Pricebook2Id") in standard_price_book_ids else 1
    return 0


def username(value: str, org_id: str) -> str:
    """A dataset username made unique to the target org: ``name@domain.<org id>``."""
    suffix = f".{org_id[:15].lower()}"
    return value if value.endswith(suffix) else value + suffix
