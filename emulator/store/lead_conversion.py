"""Converting a lead: an account, a contact and (optionally) an opportunity made from it, the lead marked converted.

SOAP API Developer Guide, "convertLead()" and "LeadConvert"
(https://developer.salesforce.com/docs/atlas.en-us.api.meta/api/sforce_api_calls_convertlead.htm):
``convertedStatus`` must be a LeadStatus whose ``IsConverted`` is true (else ``INVALID_STATUS``,
"invalid convertedStatus: <value>"); ``accountId`` / ``contactId`` merge the lead into existing
records instead of creating them; ``doNotCreateOpportunity`` skips the opportunity, whose name
defaults to the lead's company (``opportunityName``); ``ownerId`` owns what is created (else the
lead's owner); ``overwriteLeadSource`` copies the lead's source onto an existing contact. The
lead's standard fields map onto the new records as Salesforce Help's "Lead Conversion Field
Mapping" lists them (company and address to the account's Name and billing address, the person
and address to the contact's name and mailing address ...). The lead gets ``IsConverted``,
``ConvertedDate`` and the ``Converted*Id`` fields, and from then on refuses updates and a second
conversion (``CANNOT_UPDATE_CONVERTED_LEAD``). Its tasks and events move to the contact.

Every record goes through the store's own writes (:mod:`crmarena_sf.emulator.store.dml`), in one
transaction: a conversion that fails leaves nothing behind.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store import dml
from crmarena_sf.emulator.store.record_errors import converted_lead, entity_is_deleted

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

_ADDRESS = ("Street", "City", "State", "PostalCode", "Country", "Latitude", "Longitude", "GeocodeAccuracy")
ACCOUNT_FIELDS = {
    "Company": "Name",
    **{part: f"Billing{part}" for part in _ADDRESS},
    "Phone": "Phone",
    "Fax": "Fax",
    "Website": "Website",
    "Industry": "Industry",
    "AnnualRevenue": "AnnualRevenue",
    "NumberOfEmployees": "NumberOfEmployees",
    "Rating": "Rating",
    "LeadSource": "AccountSource",
    "Description": "Description",
}
"""Lead field -> field of the account a conversion creates."""
CONTACT_FIELDS = {
    "Salutation": "Salutation",
    "FirstName": "FirstName",
    "LastName": "LastName",
    "Title": "Title",
    "Email": "Email",
    "Phone": "Phone",
    "MobilePhone": "MobilePhone",
    "Fax": "Fax",
    **{part: f"Mailing{part}" for part in _ADDRESS},
    "LeadSource": "LeadSource",
    "Description": "Description",
    "DoNotCall": "DoNotCall",
    "HasOptedOutOfEmail": "HasOptedOutOfEmail",
    "HasOptedOutOfFax": "HasOptedOutOfFax",
}
"""Lead field -> field of the contact a conversion creates."""
OPPORTUNITY_FIELDS = {"LeadSource": "LeadSource"}


@dataclass
class LeadConversion:
    """One ``LeadConvert`` request."""

    lead_id: str
    converted_status: str
    account_id: str | None = None
    contact_id: str | None = None
    opportunity_id: str | None = None
    opportunity_name: str | None = None
    do_not_create_opportunity: bool = False
    owner_id: str | None = None
    overwrite_lead_source: bool = False


@dataclass
class ConvertedLead:
    """A ``LeadConvertResult``'s Ids."""

    lead_id: str
    account_id: str
    contact_id: str
    opportunity_id: str | None


def convert_lead(org: Org, request: LeadConversion) -> ConvertedLead:
    """Convert one lead (see the module docstring); raises SalesforceError and writes nothing when refused."""
    lead_obj = org.sobject("Lead")
    with org.lock:
        lead = dml.fetch_row(org, lead_obj, request.lead_id or "")
        if lead is None:
            raise SalesforceError("INVALID_CROSS_REFERENCE_KEY", "invalid cross reference id", [])
        if lead.get("IsDeleted"):
            raise entity_is_deleted()
        if lead.get("IsConverted"):
            raise converted_lead()
        _check_status(org, request.converted_status)
        owner = request.owner_id or lead.get("OwnerId") or org.user_id
        today = org.clock.now().date()
        with org.transaction():
            account_id = _account(org, request, lead, owner)
            contact_id = _contact(org, request, lead, owner, account_id)
            opportunity_id = _opportunity(org, request, lead, owner, account_id, today)
            _move_activities(org, lead["Id"], contact_id)
            dml.update(
                org,
                "Lead",
                lead["Id"],
                {
                    "Status": request.converted_status,
                    "IsConverted": True,
                    "ConvertedDate": today,
                    "ConvertedAccountId": account_id,
                    "ConvertedContactId": contact_id,
                    "ConvertedOpportunityId": opportunity_id,
                },
                system=True,
            )
    return ConvertedLead(lead["Id"], account_id, contact_id, opportunity_id)


def converted_statuses(org: Org) -> list[str]:
    """The lead statuses that convert a lead (LeadStatus rows with IsConverted)."""
    if org.schema.get("LeadStatus") is None:
        return []
    rows = org.con.execute(
        f'SELECT "MasterLabel" FROM {org.table_sql("LeadStatus")} WHERE "IsConverted" ORDER BY "SortOrder"'
    ).fetchall()
    return [row[0] for row in rows]


def _check_status(org: Org, status: str) -> None:
    if status not in converted_statuses(org):
        raise SalesforceError("INVALID_STATUS", f"invalid convertedStatus: {status}", [])


def _mapped(lead: dict[str, Any], mapping: dict[str, str], target: str, org: Org) -> dict[str, Any]:
    obj = org.sobject(target)
    return {
        to: lead[source]
        for source, to in mapping.items()
        if lead.get(source) is not None and obj.field(to) is not None
    }


def _existing(org: Org, object_name: str, record_id: str) -> str:
    obj = org.sobject(object_name)
    row = dml.fetch_row(org, obj, record_id)
    if row is None:
        raise SalesforceError("INVALID_CROSS_REFERENCE_KEY", "invalid cross reference id", [])
    if row.get("IsDeleted"):
        raise entity_is_deleted()
    return row["Id"]


def _account(org: Org, request: LeadConversion, lead: dict[str, Any], owner: str) -> str:
    if request.account_id:
        return _existing(org, "Account", request.account_id)
    values = _mapped(lead, ACCOUNT_FIELDS, "Account", org)
    values["OwnerId"] = owner
    return dml.insert(org, "Account", values)


def _contact(org: Org, request: LeadConversion, lead: dict[str, Any], owner: str, account_id: str) -> str:
    if request.contact_id:
        contact_id = _existing(org, "Contact", request.contact_id)
        if request.overwrite_lead_source and lead.get("LeadSource"):
            dml.update(org, "Contact", contact_id, {"LeadSource": lead["LeadSource"]})
        return contact_id
    values = _mapped(lead, CONTACT_FIELDS, "Contact", org)
    values.update(AccountId=account_id, OwnerId=owner)
    return dml.insert(org, "Contact", values)


def _opportunity(
    org: Org, request: LeadConversion, lead: dict[str, Any], owner: str, account_id: str, today: dt.date
) -> str | None:
    if request.do_not_create_opportunity:
        return None
    if request.opportunity_id:
        return _existing(org, "Opportunity", request.opportunity_id)
    opportunity = org.sobject("Opportunity")
    stages = opportunity.field("StageName").picklistValues
    values = _mapped(lead, OPPORTUNITY_FIELDS, "Opportunity", org)
    values.update(
        Name=request.opportunity_name or lead.get("Company") or lead.get("Name"),
        AccountId=account_id,
        OwnerId=owner,
        StageName=stages[0].value if stages else None,
        CloseDate=_end_of_quarter(today),
    )
    return dml.insert(org, "Opportunity", values)


def _end_of_quarter(day: dt.date) -> dt.date:
    """The last day of ``day``'s calendar quarter (a new org's fiscal year starts in January): a converted
    opportunity's close date."""
    last_month = (day.month - 1) // 3 * 3 + 3
    first_of_next = dt.date(day.year + (last_month == 12), last_month % 12 + 1, 1)
    return first_of_next - dt.timedelta(days=1)


def _move_activities(org: Org, lead_id: str, contact_id: str) -> None:
    """The lead's tasks and events now name the contact (``WhoId``)."""
    for name in ("Task", "Event"):
        obj = org.schema.get(name)
        if obj is None or obj.field("WhoId") is None:
            continue
        held = org.con.execute(
            f'SELECT "Id" FROM {org.table_sql(name)} WHERE "WhoId" = ? AND NOT coalesce("IsDeleted", false)',
            [lead_id],
        ).fetchall()
        for (activity_id,) in held:
            dml.update(org, name, activity_id, {"WhoId": contact_id})
