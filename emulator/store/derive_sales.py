"""Fields a real org computes on the standard sales objects, on every write.

- Opportunity: ``IsClosed``, ``IsWon``, ``ForecastCategory`` and ``ForecastCategoryName`` from
  the stage, ``Probability`` from the stage unless the client set one, ``ExpectedRevenue``
  (Amount x Probability / 100), the fiscal period of ``CloseDate`` (a new org's fiscal year
  starts in January), ``LastStageChangeDate`` when the stage changes (Object Reference:
  Opportunity and OpportunityStage,
  https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_opportunitystage.htm);
- OpportunityLineItem: ``TotalPrice`` from Quantity x UnitPrice, or ``UnitPrice`` from
  TotalPrice / Quantity when only the total was sent;
- QuoteLineItem: ``Subtotal`` (Quantity x UnitPrice) and ``TotalPrice`` (less ``Discount`` %);
- Task: ``IsClosed`` (a new org's closed TaskStatus is ``Completed``) and ``IsHighPriority``;
- Event: ``ActivityDate``/``StartDateTime`` from ``ActivityDateTime``, and ``EndDateTime`` or
  ``DurationInMinutes`` from the other, ``EndDate``;
- CampaignMember: ``HasResponded`` (the ``Responded`` status), ``LeadOrContactId`` and ``Type``;
- Contract: ``StatusCode`` from Status (a new org's ContractStatus rows: Draft, InApproval,
  Activated), ``ActivatedDate`` when it activates, and ``EndDate`` from StartDate and
  ContractTerm ("calculated by adding the ContractTerm to the StartDate": Object Reference,
  "Contract", sforce_api_objects_contract.htm; the emulator ends a term the day before its
  anniversary, as a 12-month contract starting January 1 ends December 31: modelled);
- Quote: a new quote's totals (no line items yet) and ``GrandTotal`` (TotalPrice plus Tax and
  ShippingHandling) whenever the quote changes; line items roll up into the quote through
  :mod:`crmarena_sf.emulator.store.rollups`.

Values copied from a parent (a line item's ``ListPrice``, ``Product2Id`` and ``ProductCode``
from its price book entry) are filled by :mod:`crmarena_sf.emulator.store.dml`, which can read parents.
Roll-ups over line items (Opportunity.Amount, Quote and Order totals) are
:mod:`crmarena_sf.emulator.store.rollups`'s; Campaign counts and Task/Event ``AccountId`` are
not computed.
"""

from __future__ import annotations

import calendar
import datetime as dt
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from crmarena_sf.metadata.crmarena_pro import PRO_STAGES
from crmarena_sf.metadata.model import SObject
from crmarena_sf.metadata.opportunity_stages import FORECAST_CATEGORIES, OPPORTUNITY_STAGES

# A new org's stages, and the five of CRMArena-Pro's orgs (their Qualification is the same stage).
_STAGES = {
    name: (probability, category) for name, probability, category in (*OPPORTUNITY_STAGES, *PRO_STAGES)
}
_CATEGORY_LABELS = dict(FORECAST_CATEGORIES)
_CLOSED_TASK_STATUSES = frozenset({"Completed"})
_CENTS = Decimal("0.01")


def derive_sales(
    obj: SObject, row: dict[str, Any], previous: dict[str, Any] | None, now: dt.datetime
) -> None:
    """Recompute the derived fields of a sales object's ``row`` (a complete row; ``previous`` before an update)."""
    derive = _DERIVATIONS.get(obj.name)
    if derive is not None:
        derive(row, previous, now)


def _opportunity(row: dict[str, Any], previous: dict[str, Any] | None, now: dt.datetime) -> None:
    stage = row.get("StageName")
    known = _STAGES.get(stage)
    stage_changed = previous is None or previous.get("StageName") != stage
    if known is not None:
        probability, category = known
        row["IsClosed"] = category in ("Closed", "Omitted")
        row["IsWon"] = category == "Closed"
        row["ForecastCategory"] = category
        row["ForecastCategoryName"] = _CATEGORY_LABELS[category]
        unchanged_probability = previous is not None and row.get("Probability") == previous.get("Probability")
        if row.get("Probability") is None or (stage_changed and unchanged_probability):
            row["Probability"] = probability
    if stage_changed and previous is not None:
        row["LastStageChangeDate"] = now
    amount, probability = row.get("Amount"), row.get("Probability")
    # A calculated (formula) field: its result has the field's decimal places, currency(18, 2).
    row["ExpectedRevenue"] = (
        (Decimal(str(amount)) * Decimal(str(probability)) / 100).quantize(_CENTS, rounding=ROUND_HALF_UP)
        if amount is not None and probability is not None
        else None
    )
    close = row.get("CloseDate")
    if isinstance(close, dt.date):
        quarter = (close.month - 1) // 3 + 1
        row["FiscalYear"], row["FiscalQuarter"], row["Fiscal"] = (
            close.year,
            quarter,
            f"{close.year} {quarter}",
        )
    for flag in ("HasOpportunityLineItem", "HasOpenActivity", "HasOverdueTask"):
        if row.get(flag) is None:
            row[flag] = False


def _opportunity_line_item(row: dict[str, Any], previous: dict[str, Any] | None, now: dt.datetime) -> None:
    quantity, price, total = row.get("Quantity"), row.get("UnitPrice"), row.get("TotalPrice")
    sent_total = total is not None and (previous is None or total != previous.get("TotalPrice"))
    if quantity is None:
        return
    if sent_total and (price is None or (previous is not None and price == previous.get("UnitPrice"))):
        row["UnitPrice"] = Decimal(str(total)) / Decimal(str(quantity)) if quantity else None
    elif price is not None:
        row["TotalPrice"] = Decimal(str(quantity)) * Decimal(str(price))


def _quote_line_item(row: dict[str, Any], previous: dict[str, Any] | None, now: dt.datetime) -> None:
    quantity, price = row.get("Quantity"), row.get("UnitPrice")
    if quantity is None or price is None:
        row["Subtotal"] = row["TotalPrice"] = None
        return
    subtotal = Decimal(str(quantity)) * Decimal(str(price))
    discount = Decimal(str(row.get("Discount") or 0))
    row["Subtotal"] = subtotal
    row["TotalPrice"] = subtotal * (100 - discount) / 100


def _task(row: dict[str, Any], previous: dict[str, Any] | None, now: dt.datetime) -> None:
    closed = row.get("Status") in _CLOSED_TASK_STATUSES
    if closed and not (previous and previous.get("IsClosed")):
        row["CompletedDateTime"] = now
    elif not closed:
        row["CompletedDateTime"] = None
    row["IsClosed"] = closed
    row["IsHighPriority"] = row.get("Priority") == "High"
    row.setdefault("IsArchived", False)


def _event(row: dict[str, Any], previous: dict[str, Any] | None, now: dt.datetime) -> None:
    start = row.get("ActivityDateTime") or row.get("StartDateTime")
    if isinstance(start, dt.datetime):
        row["ActivityDateTime"] = row["StartDateTime"] = start
        row["ActivityDate"] = start.date()
        end, minutes = row.get("EndDateTime"), row.get("DurationInMinutes")
        end_sent = isinstance(end, dt.datetime) and (previous is None or end != previous.get("EndDateTime"))
        if end_sent or minutes is None and isinstance(end, dt.datetime):
            row["DurationInMinutes"] = int((end - start).total_seconds() // 60)
        elif minutes is not None:
            row["EndDateTime"] = start + dt.timedelta(minutes=int(minutes))
    end = row.get("EndDateTime")
    row["EndDate"] = end.date() if isinstance(end, dt.datetime) else row.get("ActivityDate")
    for flag in ("IsChild", "IsGroupEvent", "IsArchived"):
        row.setdefault(flag, False)


def _campaign_member(row: dict[str, Any], previous: dict[str, Any] | None, now: dt.datetime) -> None:
    responded = row.get("Status") == "Responded"
    if responded and not (previous and previous.get("HasResponded")):
        row["FirstRespondedDate"] = row.get("FirstRespondedDate") or now.date()
    row["HasResponded"] = responded
    row["LeadOrContactId"] = row.get("ContactId") or row.get("LeadId")
    row["Type"] = "Contact" if row.get("ContactId") else ("Lead" if row.get("LeadId") else None)


def grand_total(total_price: Any, tax: Any, shipping: Any) -> Decimal:
    """A quote's GrandTotal: its TotalPrice plus Tax and ShippingHandling (each empty one counting 0)."""
    return sum((Decimal(str(v)) for v in (total_price, tax, shipping) if v is not None), Decimal(0))


_CONTRACT_STATUS_CODES = {"Draft": "Draft", "In Approval Process": "InApproval", "Activated": "Activated"}


def _contract(row: dict[str, Any], previous: dict[str, Any] | None, now: dt.datetime) -> None:
    code = _CONTRACT_STATUS_CODES.get(row.get("Status"), row.get("StatusCode") or "Draft")
    row["StatusCode"] = code
    if code == "Activated" and not (previous and previous.get("StatusCode") == "Activated"):
        row["ActivatedDate"] = now
    start, term = row.get("StartDate"), row.get("ContractTerm")
    if isinstance(start, dt.date) and term is not None:
        months = start.month - 1 + int(term)
        year, month = start.year + months // 12, months % 12 + 1
        day = min(start.day, calendar.monthrange(year, month)[1])
        row["EndDate"] = dt.date(year, month, day) - dt.timedelta(days=1)
    else:
        row["EndDate"] = None


def _quote(row: dict[str, Any], previous: dict[str, Any] | None, now: dt.datetime) -> None:
    if previous is None:
        row["LineItemCount"], row["Subtotal"], row["TotalPrice"] = 0, Decimal(0), Decimal(0)
    row["GrandTotal"] = grand_total(row.get("TotalPrice"), row.get("Tax"), row.get("ShippingHandling"))


_DERIVATIONS = {
    "Opportunity": _opportunity,
    "OpportunityLineItem": _opportunity_line_item,
    "QuoteLineItem": _quote_line_item,
    "Task": _task,
    "Event": _event,
    "CampaignMember": _campaign_member,
    "Contract": _contract,
    "Quote": _quote,
}
