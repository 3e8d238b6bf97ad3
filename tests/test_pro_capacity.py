"""Enough questions with one gold answer: each windowed CRMArena-Pro task has at least 100.

CRMArena-Pro asks 100 questions per task and org, about 20 of them with the answer None
(arXiv 2505.18878; its B2B split). The windowed ones (who sold most, closed fastest, converted
best, handled cases fastest, transferred most; which state, issue or month stands out) have a
gold answer only where one agent, state, issue or month strictly wins. Sweeping the periods such
a question can name (two weeks to six quarters, ending every half month of 2020-2024), each
org must offer at least 100 periods with a strict winner (and periods without one, for the
None answers). The planted-record tasks' counts are checked with their latent variables
(``tests/test_pro_latent.py``).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict

import pytest

from crmarena_sf.connection.connect import connect

pytestmark = pytest.mark.slow

ENDS = [dt.date(y, m, d) for y in range(2020, 2025) for m in range(1, 13) for d in (5, 20)]
LENGTHS = [14, 28, 42, 30, 60, 90, 120, 150, 180, 270, 365, 540]
WINDOWS = [(end - dt.timedelta(days=n), end) for end in ENDS for n in LENGTHS]


@pytest.fixture(scope="module", params=["b2b", "b2c"])
def sf(request, pro_org):
    fork = pro_org(request.param)
    yield connect(org=fork)
    fork.close()


def records(sf, soql):
    return sf.query_all(soql)["records"]


def day(value: str) -> dt.date:
    return dt.date.fromisoformat(value[:10])


def strict_winner(scores: dict, best=max):
    if not scores:
        return None
    top = best(scores.values())
    winners = [k for k, v in scores.items() if v == top]
    return winners[0] if len(winners) == 1 else None


def capacity(score_window) -> tuple[int, int]:
    """(periods with a strict winner, periods without one)."""
    found = [strict_winner(*score_window(start, end)) for start, end in WINDOWS]
    return sum(w is not None for w in found), sum(w is None for w in found)


def assert_enough(counts: tuple[int, int], none_answers: bool = True) -> None:
    won, lost = counts
    assert won >= 100
    if none_answers:
        assert lost >= 20


def test_sales_amount_cycle_and_conversion_questions(sf):
    deals = records(
        sf,
        "SELECT Id, OwnerId, CreatedDate, ContractID__r.CompanySignedDate FROM Opportunity WHERE ContractID__c != null",
    )
    amount = Counter()
    for item in records(sf, "SELECT Order.OpportunityId, Quantity, UnitPrice FROM OrderItem"):
        amount[item["Order"]["OpportunityId"]] += item["Quantity"] * item["UnitPrice"]
    leads = records(sf, "SELECT OwnerId, CreatedDate, ConvertedDate, IsConverted FROM Lead")

    def signed_in(start, end):
        return [d for d in deals if start <= day(d["ContractID__r"]["CompanySignedDate"]) < end]

    def sales(start, end):
        totals = Counter()
        for d in signed_in(start, end):
            totals[d["OwnerId"]] += amount[d["Id"]]
        return (totals,)

    def cycle(start, end):
        spans = defaultdict(list)
        for d in signed_in(start, end):
            spans[d["OwnerId"]].append(
                (day(d["ContractID__r"]["CompanySignedDate"]) - day(d["CreatedDate"])).days
            )
        return ({k: sum(v) / len(v) for k, v in spans.items()}, min)

    def conversion(start, end):
        total, converted = Counter(), Counter()
        for lead in leads:
            if start <= day(lead["CreatedDate"]) < end:
                total[lead["OwnerId"]] += 1
                if lead["IsConverted"] and start <= day(lead["ConvertedDate"]) < end:
                    converted[lead["OwnerId"]] += 1
        return ({k: converted[k] / total[k] for k in total},)

    assert_enough(capacity(sales))
    assert_enough(capacity(cycle))
    assert_enough(capacity(conversion))


def test_handle_time_transfer_and_region_questions(sf):
    cases = {
        c["Id"]: c
        for c in records(sf, "SELECT Id, CreatedDate, ClosedDate, Status, Account.ShippingState FROM Case")
    }
    owners = defaultdict(list)
    for row in records(
        sf,
        "SELECT CaseId__c, NewValue__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' ORDER BY CreatedDate",
    ):
        owners[row["CaseId__c"]].append(row["NewValue__c"])

    def in_window(start, end):
        return [c for c in cases.values() if start <= day(c["CreatedDate"]) < end]

    def handled(chosen):
        return Counter(agent for c in chosen for agent in owners[c["Id"]])

    def handle_time(start, end):
        chosen = in_window(start, end)
        managed = handled(chosen)
        spent = defaultdict(list)
        for c in chosen:
            if c["ClosedDate"] and len(owners[c["Id"]]) == 1:
                spent[owners[c["Id"]][0]].append((day(c["ClosedDate"]) - day(c["CreatedDate"])).days + 0.0)
        return ({a: sum(v) / len(v) for a, v in spent.items() if managed[a] > 1}, min)

    def transfers(start, end):
        chosen = in_window(start, end)
        managed = handled(chosen)
        moved = Counter(agent for c in chosen for agent in owners[c["Id"]][:-1])
        return ({a: moved[a] for a in managed if managed[a] > 1 and moved[a]},)

    def region(start, end):
        spent = defaultdict(list)
        for c in in_window(start, end):
            if c["ClosedDate"]:
                hours = (
                    dt.datetime.fromisoformat(c["ClosedDate"][:19])
                    - dt.datetime.fromisoformat(c["CreatedDate"][:19])
                ).total_seconds()
                spent[c["Account"]["ShippingState"]].append(hours)
        return ({s: sum(v) / len(v) for s, v in spent.items()}, min)

    assert_enough(capacity(handle_time))
    assert_enough(capacity(transfers))
    assert_enough(capacity(region))


def test_top_issue_and_monthly_trend_questions(sf):
    cases = records(sf, "SELECT CreatedDate, IssueId__c, OrderItemId__r.Product2Id FROM Case")
    products = {c["OrderItemId__r"]["Product2Id"] for c in cases}
    by_product = defaultdict(list)
    for c in cases:
        by_product[c["OrderItemId__r"]["Product2Id"]].append(c)
    issue_windows = trend_windows = 0
    for product in products:
        for start, end in WINDOWS:
            mine = [c for c in by_product[product] if start <= day(c["CreatedDate"]) < end]
            if strict_winner(Counter(c["IssueId__c"] for c in mine)):
                issue_windows += 1
            months = Counter(day(c["CreatedDate"]).month for c in mine)
            if len(months) > 1 and strict_winner(months):
                trend_windows += 1
    assert issue_windows >= 100 and trend_windows >= 100
