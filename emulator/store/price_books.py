"""Price books: which entries may exist, and which entries a line item may use.

- A product needs its standard price (an entry in the standard price book) before it can be
  priced in a custom price book: STANDARD_PRICE_NOT_DEFINED "No standard price defined for this
  product" otherwise (the push rule of :mod:`crmarena_sf.loaders.push.rules`; the code is in the
  SOAP API's StatusCode list, the wording as public integration notes quote it).
- One entry per product per price book: a second is DUPLICATE_VALUE "This price definition
  already exists in this price book" (as Bulk API load results show it).
- An order product must use an entry of its order's price book: FIELD_INTEGRITY_EXCEPTION "Order
  Products must have a Price Book Entry that belongs to the Price Book related to the parent
  Order.: Price Book Entry ID" on ``PricebookEntryId`` (a REST composite payload of a real org).
- An opportunity product must use an entry of its opportunity's price book: FIELD_INTEGRITY_EXCEPTION
  "field integrity exception: PricebookEntryId (pricebook entry is in a different pricebook than
  the one assigned to the opportunity)" (the message integrations match on). An opportunity
  without a price book takes the entry's with its first product; a quote line item follows the
  same rule against its quote's price book (both modelled on the opportunity's: the quote's
  wording is modelled too).

Entries and line items carry no currency of their own: the org is single-currency (no
``CurrencyIsoCode`` field), so a line item's currency is always its parent's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.emulator.store.events import UPDATE

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org
    from crmarena_sf.metadata.model import SObject

LINE_ITEM_PARENTS: dict[str, tuple[str, str, str]] = {
    "OrderItem": ("OrderId", "Order", "strict"),
    "OpportunityLineItem": ("OpportunityId", "Opportunity", "adopt"),
    "QuoteLineItem": ("QuoteId", "Quote", "adopt"),
}
"""line item -> (parent reference, parent object, what a parent without a price book does)."""


def standard_price_not_defined() -> SalesforceError:
    return SalesforceError("STANDARD_PRICE_NOT_DEFINED", "No standard price defined for this product", [])


def duplicate_price() -> SalesforceError:
    return SalesforceError("DUPLICATE_VALUE", "This price definition already exists in this price book", [])


def wrong_price_book(parent: str) -> SalesforceError:
    if parent == "Order":
        return SalesforceError(
            "FIELD_INTEGRITY_EXCEPTION",
            "Order Products must have a Price Book Entry that belongs to the Price Book related to the "
            "parent Order.: Price Book Entry ID",
            ["PricebookEntryId"],
        )
    return SalesforceError(
        "FIELD_INTEGRITY_EXCEPTION",
        "field integrity exception: PricebookEntryId (pricebook entry is in a different pricebook than "
        f"the one assigned to the {parent.lower()})",
        ["PricebookEntryId"],
    )


def refusals(
    org: Org, obj: SObject, prepared: list[tuple[int, dict[str, Any]]]
) -> dict[int, SalesforceError]:
    """The price-book errors of rows about to be inserted (rows are checked in order: an entry
    earlier in the same request counts)."""
    if obj.name == "PricebookEntry":
        return _entry_refusals(org, prepared)
    if obj.name in LINE_ITEM_PARENTS:
        return _line_item_refusals(org, obj, prepared)
    return {}


def _entry_refusals(org: Org, prepared: list[tuple[int, dict[str, Any]]]) -> dict[int, SalesforceError]:
    books = _read(org, "Pricebook2", {row.get("Pricebook2Id") for _, row in prepared}, ["IsStandard"])
    products = sorted({row["Product2Id"] for _, row in prepared if row.get("Product2Id")})
    existing: set[tuple[Any, Any]] = set()
    standard_priced: set[Any] = set()
    if products:
        for book, product, is_standard in org.con.execute(
            f'SELECT e."Pricebook2Id", e."Product2Id", coalesce(b."IsStandard", false) '
            f'FROM {org.table_sql("PricebookEntry")} e JOIN {org.table_sql("Pricebook2")} b ON b."Id" = e."Pricebook2Id" '
            'WHERE e."Product2Id" IN (SELECT unnest(?::VARCHAR[])) AND NOT coalesce(e."IsDeleted", false)',
            [products],
        ).fetchall():
            existing.add((book, product))
            if is_standard:
                standard_priced.add(product)
    errors: dict[int, SalesforceError] = {}
    for index, row in prepared:
        book, product = row.get("Pricebook2Id"), row.get("Product2Id")
        if book not in books or product is None:
            continue  # a missing or wrong reference is the reference check's error
        is_standard = bool(books[book][0])
        if (book, product) in existing:
            errors[index] = duplicate_price()
        elif not is_standard and product not in standard_priced:
            errors[index] = standard_price_not_defined()
        else:
            existing.add((book, product))
            if is_standard:
                standard_priced.add(product)
    return errors


def _line_item_refusals(
    org: Org, obj: SObject, prepared: list[tuple[int, dict[str, Any]]]
) -> dict[int, SalesforceError]:
    reference, parent_name, without_book = LINE_ITEM_PARENTS[obj.name]
    if org.schema.get(parent_name) is None or obj.field(reference) is None:
        return {}
    entries = _read(
        org, "PricebookEntry", {row.get("PricebookEntryId") for _, row in prepared}, ["Pricebook2Id"]
    )
    parents = _read(org, parent_name, {row.get(reference) for _, row in prepared}, ["Pricebook2Id"])
    adopted: dict[str, Any] = {}
    errors: dict[int, SalesforceError] = {}
    for index, row in prepared:
        entry, parent = entries.get(row.get("PricebookEntryId")), parents.get(row.get(reference))
        if entry is None or parent is None:
            continue
        book = parent[0] or adopted.get(row[reference])
        if book is None and without_book == "adopt":
            adopted[row[reference]] = entry[0]
        elif book != entry[0]:
            errors[index] = wrong_price_book(parent_name)
    return errors


def assign_price_books(org: Org, obj: SObject, rows: list[dict[str, Any]]) -> None:
    """An opportunity or quote without a price book takes the price book of its first line item's entry."""
    spec = LINE_ITEM_PARENTS.get(obj.name)
    if spec is None or spec[2] != "adopt" or org.schema.get(spec[1]) is None:
        return
    reference, parent_name, _ = spec
    entries = _read(org, "PricebookEntry", {row.get("PricebookEntryId") for row in rows}, ["Pricebook2Id"])
    books: dict[str, Any] = {}
    for row in rows:
        entry = entries.get(row.get("PricebookEntryId"))
        if entry is not None and row.get(reference):
            books.setdefault(row[reference], entry[0])
    parents = _read(org, parent_name, set(books), ["Pricebook2Id"])
    books = {p: book for p, book in books.items() if p in parents and parents[p][0] is None}
    if not books:
        return
    changed = []
    org.before_write(parent_name)
    for parent_id, book in books.items():
        done = org.con.execute(
            f'UPDATE {quote(parent_name)} SET "Pricebook2Id" = ? WHERE "Id" = ? AND "Pricebook2Id" IS NULL RETURNING "Id"',
            [book, parent_id],
        ).fetchall()
        changed.extend(r[0] for r in done)
    if changed:
        org.notify(parent_name, changed, UPDATE)


def _read(org: Org, object_name: str, record_ids: set[Any], columns: list[str]) -> dict[str, tuple]:
    wanted = sorted(r for r in record_ids if isinstance(r, str))
    obj = org.schema.get(object_name)
    if not wanted or obj is None:
        return {}
    selected = ", ".join(quote(c) if obj.field(c) is not None else "NULL" for c in columns)
    live = ' AND NOT coalesce("IsDeleted", false)' if obj.field("IsDeleted") is not None else ""
    return {
        r[0]: r[1:]
        for r in org.con.execute(
            f'SELECT "Id", {selected} FROM {org.table_sql(object_name)} '
            f'WHERE "Id" IN (SELECT unnest(?::VARCHAR[])){live}',
            [wanted],
        ).fetchall()
    }
