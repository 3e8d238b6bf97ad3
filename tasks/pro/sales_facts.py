"""The sales records a Pro build searches, each object read once through the front door.

A Pro family's candidate search ranks every lead, opportunity, quote or period in memory, so it
must not send a query per candidate: :class:`SalesFacts` reads each object it is asked for with
one SOQL query (all pages) the first time, and keeps it. Every instance the search keeps is then
solved again by its family's solver with its own SOQL/SOSL (:mod:`crmarena_sf.tasks.pro.build`).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any

from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.periods import parse_iso
from crmarena_sf.tasks.pro.texts import article_text


def decimal(value: Any) -> Decimal:
    """A JSON number as the exact decimal it was written as (``4.0`` -> 4, ``1234.56`` -> 1234.56)."""
    return Decimal(str(value)) if value is not None else Decimal(0)


def day(value: str | None) -> dt.date | None:
    return dt.date.fromisoformat(value[:10]) if value else None


@dataclass(frozen=True)
class LeadFact:
    id: str
    name: str
    owner: str
    created: dt.datetime
    converted: bool
    converted_on: dt.date | None
    state: str | None
    status: str


@dataclass(frozen=True)
class OpportunityFact:
    id: str
    owner: str
    stage: str
    created: dt.datetime
    contract: str | None
    account: str | None
    contact: str | None


@dataclass(frozen=True)
class QuoteLine:
    quote: str
    product: str
    product_name: str
    quantity: Decimal
    unit_price: Decimal
    discount: Decimal
    list_price: Decimal | None
    """The standard price book's price of the line's entry."""


@dataclass(frozen=True)
class Article:
    id: str
    title: str
    text: str
    public: bool


class SalesFacts:
    """Lazily read, then kept: each property is one SOQL query over one object."""

    def __init__(self, sf: Any) -> None:
        self.client = OrgClient(sf)

    def _q(self, soql: str) -> list[dict[str, Any]]:
        return self.client.query(soql)

    @cached_property
    def leads(self) -> dict[str, LeadFact]:
        return {
            r["Id"]: LeadFact(
                r["Id"],
                r["Name"],
                r["OwnerId"],
                parse_iso(r["CreatedDate"]),
                bool(r["IsConverted"]),
                day(r["ConvertedDate"]),
                r["State"],
                r["Status"] or "",
            )
            for r in self._q(
                "SELECT Id, Name, OwnerId, CreatedDate, IsConverted, ConvertedDate, State, Status FROM Lead"
            )
        }

    @cached_property
    def lead_calls(self) -> dict[str, list[str]]:
        """Lead Id -> the bodies of its calls, oldest first."""
        out: dict[str, list[str]] = defaultdict(list)
        for r in self._q(
            "SELECT LeadId__c, Body__c FROM VoiceCallTranscript__c WHERE LeadId__c != null "
            "ORDER BY CreatedDate, Id"
        ):
            out[r["LeadId__c"]].append(r["Body__c"] or "")
        return dict(out)

    @cached_property
    def deal_calls(self) -> list[tuple[str, dt.datetime, str]]:
        """(opportunity Id, CreatedDate, body) of every call about an opportunity, oldest first."""
        return [
            (r["OpportunityId__c"], parse_iso(r["CreatedDate"]), r["Body__c"] or "")
            for r in self._q(
                "SELECT OpportunityId__c, CreatedDate, Body__c FROM VoiceCallTranscript__c "
                "WHERE OpportunityId__c != null ORDER BY CreatedDate, Id"
            )
        ]

    @cached_property
    def opportunities(self) -> dict[str, OpportunityFact]:
        return {
            r["Id"]: OpportunityFact(
                r["Id"],
                r["OwnerId"],
                r["StageName"],
                parse_iso(r["CreatedDate"]),
                r["ContractID__c"],
                r["AccountId"],
                r["ContactId"],
            )
            for r in self._q(
                "SELECT Id, OwnerId, StageName, CreatedDate, ContractID__c, AccountId, ContactId FROM Opportunity"
            )
        }

    @cached_property
    def contract_signed(self) -> dict[str, dt.date]:
        """Contract Id -> CompanySignedDate (contracts with one)."""
        return {
            r["Id"]: day(r["CompanySignedDate"])
            for r in self._q("SELECT Id, CompanySignedDate FROM Contract WHERE CompanySignedDate != null")
        }

    @cached_property
    def order_amounts(self) -> dict[str, Decimal]:
        """Contract Id -> the sum of Quantity x UnitPrice over the items of its orders."""
        out: dict[str, Decimal] = defaultdict(Decimal)
        for r in self._q("SELECT Order.ContractId, Quantity, UnitPrice FROM OrderItem"):
            contract = (r.get("Order") or {}).get("ContractId")
            if contract:
                out[contract] += decimal(r["Quantity"]) * decimal(r["UnitPrice"])
        return dict(out)

    @cached_property
    def opportunity_tasks(self) -> dict[str, list[tuple[str, str, str]]]:
        """Opportunity Id -> (Task Id, Subject, Status) of its tasks."""
        out: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        opportunities = self.opportunities
        for r in self._q("SELECT Id, WhatId, Subject, Status FROM Task WHERE WhatId != null ORDER BY Id"):
            if r["WhatId"] in opportunities:
                out[r["WhatId"]].append((r["Id"], r["Subject"] or "", r["Status"] or ""))
        return dict(out)

    @cached_property
    def quotes(self) -> dict[str, dict[str, Any]]:
        """Quote Id -> {created, expires, opportunity, status}."""
        return {
            r["Id"]: {
                "created": parse_iso(r["CreatedDate"]),
                "expires": day(r["ExpirationDate"]),
                "opportunity": r["OpportunityId"],
                "status": r["Status"],
            }
            for r in self._q("SELECT Id, CreatedDate, ExpirationDate, OpportunityId, Status FROM Quote")
        }

    @cached_property
    def quote_lines(self) -> dict[str, list[QuoteLine]]:
        out: dict[str, list[QuoteLine]] = defaultdict(list)
        for r in self._q(
            "SELECT QuoteId, Product2Id, Product2.Name, Quantity, UnitPrice, Discount, PricebookEntry.UnitPrice "
            "FROM QuoteLineItem ORDER BY QuoteId, SortOrder"
        ):
            entry = r.get("PricebookEntry") or {}
            out[r["QuoteId"]].append(
                QuoteLine(
                    r["QuoteId"],
                    r["Product2Id"],
                    (r.get("Product2") or {}).get("Name") or "",
                    decimal(r["Quantity"]),
                    decimal(r["UnitPrice"]),
                    decimal(r["Discount"]),
                    decimal(entry["UnitPrice"]) if entry.get("UnitPrice") is not None else None,
                )
            )
        return dict(out)

    @cached_property
    def primary_category(self) -> dict[str, str]:
        """Product Id -> the name of its primary category."""
        return {
            r["ProductId"]: (r.get("ProductCategory") or {}).get("Name")
            for r in self._q(
                "SELECT ProductId, ProductCategory.Name FROM ProductCategoryProduct WHERE IsPrimaryCategory = true"
            )
        }

    @cached_property
    def articles(self) -> dict[str, Article]:
        """Online en_US articles by Id, their text unescaped."""
        return {
            r["Id"]: Article(r["Id"], r["Title"], article_text(r["FAQ_Answer__c"]), bool(r["IsVisibleInPkb"]))
            for r in self._q(
                "SELECT Id, Title, FAQ_Answer__c, IsVisibleInPkb FROM Knowledge__kav "
                "WHERE PublishStatus = 'Online' AND Language = 'en_US' ORDER BY Id"
            )
        }

    def article(self, title: str) -> Article:
        """The one online article titled ``title`` (LookupError when there is none or several)."""
        found = [a for a in self.articles.values() if a.title == title]
        if len(found) != 1:
            raise LookupError(f"{len(found)} online articles are titled {title!r}")
        return found[0]

    @cached_property
    def territories(self) -> dict[str, str]:
        """Territory2 Id -> Description."""
        return {r["Id"]: r["Description"] or "" for r in self._q("SELECT Id, Description FROM Territory2")}

    @cached_property
    def territory_members(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for r in self._q("SELECT UserId, Territory2Id FROM UserTerritory2Association ORDER BY UserId"):
            out[r["Territory2Id"]].append(r["UserId"])
        return dict(out)

    @cached_property
    def accepted_quotes(self) -> dict[str, int]:
        """Owner of the opportunity -> its quotes in status 'Accepted'."""
        out: dict[str, int] = defaultdict(int)
        for quote in self.quotes.values():
            if quote["status"] == "Accepted":
                opportunity = self.opportunities.get(quote["opportunity"])
                if opportunity:
                    out[opportunity.owner] += 1
        return dict(out)

    @cached_property
    def open_leads(self) -> dict[str, int]:
        """Owner -> leads not converted (IsConverted false)."""
        out: dict[str, int] = defaultdict(int)
        for lead in self.leads.values():
            if not lead.converted:
                out[lead.owner] += 1
        return dict(out)

    @cached_property
    def contacts(self) -> dict[str, dict[str, Any]]:
        return {
            r["Id"]: r
            for r in self._q(
                "SELECT Id, Name, FirstName, LastName, Email, Phone, MailingStreet, MailingCity, MailingState, "
                "AccountId FROM Contact ORDER BY Id"
            )
        }

    @cached_property
    def products(self) -> dict[str, dict[str, Any]]:
        return {
            r["Id"]: r for r in self._q("SELECT Id, Name, Description, IsActive FROM Product2 ORDER BY Id")
        }
