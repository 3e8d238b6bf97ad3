"""The partner API's record calls: ``undelete()``, ``merge()`` and ``convertLead()``.

SOAP API Developer Guide: "undelete()" (one ``UndeleteResult`` per id: ``id``, ``success``,
``errors``), "merge()" (one ``MergeResult`` per ``MergeRequest``: ``id``, ``mergedRecordIds``,
``updatedRelatedIds``, ``success``, ``errors``; each request its own transaction) and
"convertLead()" (one ``LeadConvertResult`` per ``LeadConvert``: ``accountId``, ``contactId``,
``leadId``, ``opportunityId``, ``success``, ``errors``). The records change through the store
(:mod:`crmarena_sf.emulator.store.dml`, :mod:`~crmarena_sf.emulator.store.merge`,
:mod:`~crmarena_sf.emulator.store.lead_conversion`), as every other API's writes do.
"""

from __future__ import annotations

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.partner.soap_xml import (
    PartnerCall,
    errors_xml,
    flag,
    sobject_values,
    text,
    texts,
    value_xml,
)
from crmarena_sf.emulator.store.lead_conversion import LeadConversion
from crmarena_sf.emulator.store.lead_conversion import convert_lead as convert_one
from crmarena_sf.emulator.store.merge import merge_records, unmergeable

MAX_REQUESTS = 200
"""Merge requests, lead conversions and ids in one call."""


def _too_many(count: int) -> None:
    if count > MAX_REQUESTS:
        raise SalesforceError(
            "EXCEEDED_ID_LIMIT",
            f"record limit reached. cannot submit more than {MAX_REQUESTS} records into this call",
        )


def undelete(call: PartnerCall) -> str:
    """``undelete(ids)``: each record back from the recycle bin with what was deleted with it."""
    org = call.router.org
    wanted = texts(call.operation, "ids")
    _too_many(len(wanted))
    results = []
    for record_id in wanted:
        obj = org.schema.object_of_id(record_id) if ids.normalize(record_id) else None
        error = None
        if obj is None:
            error = SalesforceError("INVALID_ID_FIELD", "invalid record id", [])
        else:
            try:
                org.undelete(obj.name, record_id)
            except SalesforceError as exc:
                error = exc
        results.append(
            f"<result>{errors_xml(error)}{value_xml('id', ids.normalize(record_id) or record_id)}"
            f"{value_xml('success', error is None)}</result>"
        )
    return "".join(results)


def merge(call: PartnerCall) -> str:
    """``merge(mergeRequests)``: each request merged in its own transaction."""
    requests = [c for c in call.operation.children if c.name in ("request", "mergeRequests", "mergeRequest")]
    _too_many(len(requests))
    results = []
    for request in requests:
        master = request.child("masterRecord")
        kind, values = sobject_values(master) if master is not None else ("", {})
        if kind not in ("Lead", "Contact", "Account"):
            raise unmergeable(kind)  # a fault for the whole call, as a real org answers
        master_id = values.pop("Id", "") or ""
        try:
            merged = merge_records(
                call.router.org, kind, master_id, texts(request, "recordToMergeIds"), values
            )
        except SalesforceError as exc:
            results.append(f'<result>{errors_xml(exc)}<id xsi:nil="true"/><success>false</success></result>')
            continue
        results.append(
            "<result>"
            + value_xml("id", merged.id)
            + "".join(value_xml("mergedRecordIds", i) for i in merged.merged_ids)
            + "<success>true</success>"
            + "".join(value_xml("updatedRelatedIds", i) for i in merged.updated_related_ids)
            + "</result>"
        )
    return "".join(results)


def convert_lead(call: PartnerCall) -> str:
    """``convertLead(leadConverts)``: each lead converted in its own transaction."""
    converts = [c for c in call.operation.children if c.name in ("leadConverts", "leadConvert")]
    _too_many(len(converts))
    results = []
    for convert in converts:
        request = LeadConversion(
            lead_id=text(convert, "leadId") or "",
            converted_status=text(convert, "convertedStatus") or "",
            account_id=text(convert, "accountId"),
            contact_id=text(convert, "contactId"),
            opportunity_id=text(convert, "opportunityId"),
            opportunity_name=text(convert, "opportunityName"),
            do_not_create_opportunity=flag(convert, "doNotCreateOpportunity"),
            owner_id=text(convert, "ownerId"),
            overwrite_lead_source=flag(convert, "overwriteLeadSource"),
        )
        try:
            done = convert_one(call.router.org, request)
        except SalesforceError as exc:
            results.append(
                f'<result><accountId xsi:nil="true"/><contactId xsi:nil="true"/>{errors_xml(exc)}'
                f"{value_xml('leadId', ids.normalize(request.lead_id) or request.lead_id or None)}"
                '<opportunityId xsi:nil="true"/><success>false</success></result>'
            )
            continue
        results.append(
            "<result>"
            + value_xml("accountId", done.account_id)
            + value_xml("contactId", done.contact_id)
            + value_xml("leadId", done.lead_id)
            + value_xml("opportunityId", done.opportunity_id)
            + "<success>true</success></result>"
        )
    return "".join(results)
