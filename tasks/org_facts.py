"""The org's records that task generation searches, read once through the front door.

Task generators look for windows, products and customers whose answer is unique. Trying
thousands of candidates one SOQL query at a time would be slow, so the generators read the
few objects involved once (:func:`read_facts`, a dozen queries through simple-salesforce)
and rank candidates in memory. Every instance they keep is then solved again by its family's
reference solver with its own SOQL/SOSL, and the two must agree (:mod:`crmarena_sf.tasks.build`).
"""

from __future__ import annotations

import bisect
import datetime as dt
from dataclasses import dataclass, field

from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.periods import parse_iso


@dataclass(frozen=True)
class CaseFact:
    id: str
    owner: str
    created: dt.datetime
    closed: dt.datetime | None
    status: str
    account: str | None
    contact: str | None
    order_item: str | None
    issue: str | None
    subject: str
    description: str


@dataclass(frozen=True)
class Assignment:
    case: str
    old: str | None
    new: str
    at: dt.datetime


@dataclass(frozen=True)
class OrderLine:
    id: str
    product: str
    account: str | None
    day: dt.date | None
    status: str | None


@dataclass
class OrgFacts:
    cases: list[CaseFact]
    """Sorted by CreatedDate."""
    assignments: list[Assignment]
    """'Owner Assignment' history rows, sorted by CreatedDate."""
    order_lines: dict[str, OrderLine]
    states: dict[str, str | None]
    """Account Id -> ShippingState."""
    contact_account: dict[str, str | None]
    products: dict[str, str]
    """Product2 Id -> Name."""
    issues: dict[str, str]
    """Issue__c Id -> Name."""
    articles: dict[str, tuple[str, str]]
    """Online en_US Knowledge__kav Id -> (Title, FAQ_Answer__c)."""
    _created: list[dt.datetime] = field(default_factory=list, repr=False)
    _assigned: list[dt.datetime] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._created = [c.created for c in self.cases]
        self._assigned = [a.at for a in self.assignments]

    def cases_created(self, start: dt.datetime, end: dt.datetime) -> list[CaseFact]:
        """Cases with start <= CreatedDate < end."""
        return self.cases[bisect.bisect_left(self._created, start) : bisect.bisect_left(self._created, end)]

    def assignments_in(self, start: dt.datetime, end: dt.datetime) -> list[Assignment]:
        return self.assignments[
            bisect.bisect_left(self._assigned, start) : bisect.bisect_left(self._assigned, end)
        ]

    def product_of_case(self, case: CaseFact) -> str | None:
        line = self.order_lines.get(case.order_item) if case.order_item else None
        return line.product if line else None


def _when(value: str | None) -> dt.datetime | None:
    return parse_iso(value) if value else None


def read_facts(sf) -> OrgFacts:
    """Read what the generators need from the org behind ``sf`` (a simple_salesforce.Salesforce)."""
    client = OrgClient(sf)
    cases = [
        CaseFact(
            r["Id"],
            r["OwnerId"],
            parse_iso(r["CreatedDate"]),
            _when(r["ClosedDate"]),
            r["Status"],
            r["AccountId"],
            r["ContactId"],
            r["OrderItemId__c"],
            r["IssueId__c"],
            r["Subject"] or "",
            r["Description"] or "",
        )
        for r in client.query(
            "SELECT Id, OwnerId, CreatedDate, ClosedDate, Status, AccountId, ContactId, OrderItemId__c, "
            "IssueId__c, Subject, Description FROM Case"
        )
    ]
    cases.sort(key=lambda c: (c.created, c.id))
    assignments = [
        Assignment(r["CaseId__c"], r["OldValue__c"], r["NewValue__c"], parse_iso(r["CreatedDate"]))
        for r in client.query(
            "SELECT CaseId__c, OldValue__c, NewValue__c, CreatedDate FROM CaseHistory__c "
            "WHERE Field__c = 'Owner Assignment'"
        )
    ]
    assignments.sort(key=lambda a: (a.at, a.case))
    lines = {}
    for r in client.query(
        "SELECT Id, Product2Id, Order.AccountId, Order.EffectiveDate, Order.Status FROM OrderItem"
    ):
        order = r.get("Order") or {}
        day = order.get("EffectiveDate")
        lines[r["Id"]] = OrderLine(
            r["Id"],
            r["Product2Id"],
            order.get("AccountId"),
            dt.date.fromisoformat(day) if day else None,
            order.get("Status"),
        )
    return OrgFacts(
        cases=cases,
        assignments=assignments,
        order_lines=lines,
        states={r["Id"]: r["ShippingState"] for r in client.query("SELECT Id, ShippingState FROM Account")},
        contact_account={r["Id"]: r["AccountId"] for r in client.query("SELECT Id, AccountId FROM Contact")},
        products={r["Id"]: r["Name"] for r in client.query("SELECT Id, Name FROM Product2")},
        issues={r["Id"]: r["Name"] for r in client.query("SELECT Id, Name FROM Issue__c ORDER BY Name")},
        articles={
            r["Id"]: (r["Title"], r["FAQ_Answer__c"] or "")
            for r in client.query(
                "SELECT Id, Title, FAQ_Answer__c FROM Knowledge__kav "
                "WHERE PublishStatus = 'Online' AND Language = 'en_US'"
            )
        },
    )
