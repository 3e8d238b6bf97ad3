"""Totals a parent record keeps over its line items, recomputed whenever a line item is written,
deleted or undeleted.

- Order: ``TotalAmount``, the sum of its order products' ``TotalPrice`` (Object Reference,
  "Order", https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_order.htm);
- Opportunity: ``HasOpportunityLineItem``, and while it has products ``Amount`` (the sum of the
  products' ``TotalPrice``: "For opportunities with products, the amount is the sum of the
  related products") and ``TotalOpportunityQuantity`` (the sum of their ``Quantity``) (Object
  Reference, "Opportunity", sforce_api_objects_opportunity.htm). An opportunity whose last
  product goes keeps its Amount: what a real org does then is not documented;
- Quote: ``LineItemCount``, ``Subtotal`` (sum of the lines' subtotals, before discount),
  ``TotalPrice`` (after discount), ``Discount`` (the weighted average of the lines' discounts:
  (Subtotal - TotalPrice) / Subtotal, in percent) and ``GrandTotal`` (TotalPrice plus Tax and
  ShippingHandling) (Object Reference, "Quote", sforce_api_objects_quote.htm).

The parent is then derived again (:mod:`crmarena_sf.emulator.store.derive`), so formulas over
its totals follow them: an opportunity's ``ExpectedRevenue``, a quote's ``GrandTotal``.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator.store.coerce import check_computed_numbers
from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.emulator.store.events import UPDATE

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org
    from crmarena_sf.metadata.model import SObject

PARENT_OF_LINE: dict[str, tuple[str, str]] = {
    "OrderItem": ("OrderId", "Order"),
    "OpportunityLineItem": ("OpportunityId", "Opportunity"),
    "QuoteLineItem": ("QuoteId", "Quote"),
}
"""line item object -> (its parent's reference field, the parent object)."""


def roll_up(org: Org, obj: SObject, rows: list[dict[str, Any]]) -> None:
    """Recompute the totals of the parents of ``rows`` (line items of ``obj``, before or after a change)."""
    spec = PARENT_OF_LINE.get(obj.name)
    parent = org.schema.get(spec[1]) if spec else None
    if spec is None or parent is None or obj.field(spec[0]) is None:
        return
    parent_ids = sorted({row[spec[0]] for row in rows if row.get(spec[0])})
    if parent_ids:
        roll_up_parents(org, obj, parent, spec[0], parent_ids)


def roll_up_ids(org: Org, obj: SObject, record_ids: list[str]) -> None:
    """:func:`roll_up` for the line items ``record_ids`` of ``obj``, read from the org."""
    spec = PARENT_OF_LINE.get(obj.name)
    if spec is None or not record_ids or obj.field(spec[0]) is None:
        return
    found = org.con.execute(
        f'SELECT DISTINCT {quote(spec[0])} FROM {quote(obj.name)} WHERE "Id" IN (SELECT unnest(?::VARCHAR[]))',
        [record_ids],
    ).fetchall()
    roll_up(org, obj, [{spec[0]: r[0]} for r in found])


def roll_up_parents(org: Org, line: SObject, parent: SObject, reference: str, parent_ids: list[str]) -> None:
    live = ' AND NOT coalesce(c."IsDeleted", false)' if line.field("IsDeleted") is not None else ""
    sums = {name: _column(line, name) for name in ("TotalPrice", "Quantity", "Subtotal")}
    found = {
        r[0]: r[1:]
        for r in org.con.execute(
            f"SELECT c.{quote(reference)}, count(*), sum({sums['TotalPrice']}), sum({sums['Quantity']}), "
            f"sum({sums['Subtotal']}) FROM {quote(line.name)} c "
            f"WHERE c.{quote(reference)} IN (SELECT unnest(?::VARCHAR[])){live} GROUP BY 1",
            [parent_ids],
        ).fetchall()
    }
    compute = _PARENT_TOTALS.get(parent.name)
    if compute is None:
        return
    from crmarena_sf.emulator.store.derive import derive  # derive's sales part imports this module

    cursor = org.con.execute(
        f'SELECT * FROM {org.table_sql(parent.name)} WHERE "Id" IN (SELECT unnest(?::VARCHAR[]))',
        [parent_ids],
    )
    names = [d[0] for d in cursor.description]
    now = org.clock.now()
    changed = []
    for current in [dict(zip(names, row)) for row in cursor.fetchall()]:
        count, total, quantity, subtotal = found.get(current["Id"], (0, None, None, None))
        values = compute(count, total, quantity, subtotal)
        merged = {**current, **{k: v for k, v in values.items() if parent.field(k) is not None}}
        derive(parent, merged, current, now)  # formulas over the totals (ExpectedRevenue, GrandTotal)
        check_computed_numbers([parent.field(k) for k in values if parent.field(k) is not None], merged)
        columns = [f.name for f in parent.stored_fields if merged.get(f.name) != current.get(f.name)]
        if not columns:
            continue
        org.before_write(parent.name)
        assignments = ", ".join(f"{quote(name)} = ?" for name in columns)
        org.con.execute(
            f'UPDATE {quote(parent.name)} SET {assignments} WHERE "Id" = ?',
            [*(merged[c] for c in columns), current["Id"]],
        )
        changed.append(current["Id"])
    if changed:
        org.notify(parent.name, changed, UPDATE)


def _column(line: SObject, name: str) -> str:
    """A line column to sum, with room for the sum's integer digits (each line's value fits its field;
    their sum may not, and is then refused by check_computed_numbers, not by DuckDB)."""
    return f"c.{quote(name)}::DECIMAL(38,10)" if line.field(name) is not None else "NULL::DECIMAL(38,10)"


def _order(count, total, quantity, subtotal) -> dict[str, Any]:
    return {"TotalAmount": total if total is not None else Decimal(0)}


def _opportunity(count, total, quantity, subtotal) -> dict[str, Any]:
    if not count:
        return {"HasOpportunityLineItem": False}
    return {"HasOpportunityLineItem": True, "Amount": total, "TotalOpportunityQuantity": quantity}


def _quote(count, total, quantity, subtotal) -> dict[str, Any]:
    subtotal = subtotal if subtotal is not None else Decimal(0)
    total = total if total is not None else Decimal(0)
    discount = (subtotal - total) / subtotal * 100 if subtotal else None
    return {
        "LineItemCount": count,
        "Subtotal": subtotal,
        "TotalPrice": total,
        "Discount": discount.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        if discount is not None
        else None,
    }


_PARENT_TOTALS = {"Order": _order, "Opportunity": _opportunity, "Quote": _quote}
