"""SOQL engine overhead on a CRMArena-size org (issue 3).

For each query, with its plan cached: the time DuckDB spends on the plan's SQL (execute and
fetchall, child subqueries included) and everything else ``emulator.soql.query`` does
(plan lookup, shaping, paging), measured in the same calls; the engine's share is
``overhead / DuckDB time``.
Target: at most 0.5x DuckDB's time, for the reference solver's queries (CRMArena's reference solver, SalesforceAIResearch/CRMArena crm_sandbox/env/functions.py),
lookups by Id, and relationship and aggregate queries. The cold time (first run of a
query text: parse + bind + translate + run) is reported alongside.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from bench import Measurement
from emulator import soql
from emulator.soql import execute
from emulator.soql.execute import fetch
from emulator.soql.plans import clear_caches

TARGET_RATIO = 0.5


def crmarena_org():
    """The default-size synthetic CRMArena org (977 cases, 2,983 history rows, 22,000 price book entries)."""
    try:
        from loaders.default_org import crmarena_org as default
    except ImportError:
        default = None
    if default is not None:
        return default(progress=False)
    from loaders.generate import generate
    from loaders.load import load_dataset

    directory = Path(tempfile.mkdtemp(prefix="bench_soql_")) / "crmarena"
    return load_dataset(generate(directory, profile="full", seed=0))


def queries(org) -> list[tuple[str, str]]:
    """(name, SOQL) pairs: CRMArena's reference solver, SalesforceAIResearch/CRMArena crm_sandbox/env/functions.py templates with values from the org, Id lookups, joins, aggregates."""
    one = lambda sql: org.con.execute(sql).fetchone()  # noqa: E731
    case_id, owner, item, issue, account = one(
        'SELECT "Id", "OwnerId", "OrderItemId__c", "IssueId__c", "AccountId" FROM "Case" '
        'WHERE "Status" = \'Closed\' AND "OrderItemId__c" IS NOT NULL ORDER BY "Id" LIMIT 1'
    )
    contact = one('SELECT "Id" FROM "Contact" ORDER BY "Id" LIMIT 1')[0]
    product = one('SELECT "Product2Id" FROM "OrderItem" ORDER BY "Id" LIMIT 1')[0]
    order_account, day = one('SELECT "AccountId", "EffectiveDate" FROM "Order" ORDER BY "Id" LIMIT 1')
    email_case = one('SELECT "ParentId" FROM "EmailMessage" ORDER BY "Id" LIMIT 1')[0]
    items = tuple(
        r[0] for r in org.con.execute('SELECT "Id" FROM "OrderItem" ORDER BY "Id" LIMIT 15').fetchall()
    )
    accounts = tuple(
        r[0] for r in org.con.execute('SELECT "Id" FROM "Account" ORDER BY "Id" LIMIT 20').fetchall()
    )
    s, e = "2021-01-01T00:00:00Z", "2023-06-30T23:59:59Z"
    return [
        ("§5 owner assignments in a window", f"SELECT NewValue__c, CreatedDate FROM CaseHistory__c WHERE CreatedDate >= {s} AND CreatedDate <= {e} AND Field__c = 'Owner Assignment'"),
        ("§5 non-transferred (GROUP BY/HAVING)", f"SELECT CaseId__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND CreatedDate >= {s} AND CreatedDate <= {e} GROUP BY CaseId__c HAVING COUNT(Id) = 1"),
        ("§5 transfers (!= NULL)", f"SELECT OldValue__c, CreatedDate FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND OldValue__c != NULL AND CreatedDate >= {s} AND CreatedDate <= {e}"),
        ("§5 closed cases (IN lists)", f"SELECT OwnerId, CreatedDate, ClosedDate, AccountId FROM Case WHERE CreatedDate >= 2020-01-01T00:00:00Z AND CreatedDate < 2025-01-01T00:00:00Z AND OwnerId IN ('{owner}') AND Id IN ('{case_id}') AND OrderItemId__c = '{item}' AND IssueId__c IN ('{issue}') AND Status = 'Closed'"),
        ("§5 shipping states of accounts", f"SELECT Id, ShippingState FROM Account WHERE Id IN {accounts}"),
        ("§5 order items of a product", f"SELECT Id FROM OrderItem WHERE Product2Id = '{product}'"),
        ("§5 issue counts (GROUP BY, ORDER BY COUNT)", f"SELECT IssueId__c, COUNT(Id) IssueCount FROM Case WHERE OrderItemId__c IN {items} AND CreatedDate >= 2020-01-01T00:00:00Z AND CreatedDate <= 2025-01-01T00:00:00Z GROUP BY IssueId__c ORDER BY COUNT(Id) DESC"),
        ("§5 account of a contact", f"SELECT AccountId FROM Contact WHERE Id = '{contact}' LIMIT 1"),
        ("§5 purchase history (OrderItem.Order paths)", f"SELECT Product2Id FROM OrderItem WHERE OrderItem.Order.AccountId = '{order_account}' AND OrderItem.Order.EffectiveDate = {day.isoformat()} AND OrderItem.Order.Status = 'Activated'"),
        ("§5 issues", "SELECT Id, Name FROM Issue__c"),
        ("§5 emails of a case", f"SELECT Subject, TextBody, FromAddress, ToAddress, MessageDate FROM EmailMessage WHERE ParentId = '{email_case}'"),
        ("lookup by Id", f"SELECT Id, Subject, Status, Priority, CreatedDate FROM Case WHERE Id = '{case_id}'"),
        ("lookup by Id with parents", f"SELECT Subject, Account.Name, Contact.Name, Owner.Name FROM Case WHERE Id = '{case_id}'"),
        ("relationship: closed cases with account and owner", "SELECT Id, Subject, Account.ShippingState, Owner.Name FROM Case WHERE Status = 'Closed' AND Account.ShippingState != null"),
        ("aggregate: cases per month and state", "SELECT Account.ShippingState, CALENDAR_MONTH(CreatedDate), COUNT(Id) FROM Case WHERE Status = 'Closed' GROUP BY Account.ShippingState, CALENDAR_MONTH(CreatedDate)"),
        ("child subquery: accounts with their cases", f"SELECT Name, (SELECT Subject FROM Cases) FROM Account WHERE Id = '{account}'"),
    ]  # fmt: skip


def split_timing(org, text: str, repeat: int) -> tuple[float, float]:
    """Median (engine overhead, DuckDB time) in ms of ``soql.query(org, text)``, measured in the same calls.

    DuckDB's share is the time spent inside :func:`emulator.soql.execute.fetch` (SQL execution and
    fetchall, the child subqueries' included); the overhead is the rest of the call. Measuring both
    in one call keeps a loaded machine's noise out of the ratio.
    """
    spent = [0.0]

    def timed_fetch(*args, **kwargs):
        start = time.perf_counter()
        try:
            return fetch(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - start

    overheads, duck = [], []
    execute.fetch = timed_fetch
    try:
        for i in range(repeat + 3):
            spent[0] = 0.0
            start = time.perf_counter()
            soql.query(org, text)
            total = time.perf_counter() - start
            if i >= 3:  # warm-up runs
                overheads.append((total - spent[0]) * 1000)
                duck.append(spent[0] * 1000)
    finally:
        execute.fetch = fetch
    return statistics.median(overheads), statistics.median(duck)


def run(quick: bool = False) -> list[Measurement]:
    repeat = 15 if quick else 60
    org = crmarena_org()
    results: list[Measurement] = []
    cold_times = []
    for name, text in queries(org):
        clear_caches()
        start = time.perf_counter()
        soql.query(org, text)
        cold_times.append((time.perf_counter() - start) * 1000)
        overhead, duck = split_timing(org, text, repeat)
        ratio = overhead / duck
        results.append(
            Measurement(
                "soql",
                f"{name}: engine overhead / DuckDB time",
                round(ratio, 3),
                "x",
                f"<= {TARGET_RATIO}",
                ratio <= TARGET_RATIO,
                f"engine +{overhead:.3f} ms over DuckDB {duck:.3f} ms",
            )
        )
    cold_times.sort()
    results.append(
        Measurement(
            "soql",
            "first run of a query text (parse + bind + translate + run), median",
            round(cold_times[len(cold_times) // 2], 3),
            "ms",
            note=f"max {cold_times[-1]:.1f} ms over {len(cold_times)} queries",
        )
    )
    return results


if __name__ == "__main__":
    for m in run(quick=True):
        print(f"{m.name:75s} {m.value:8.3f} {m.unit:3s} {m.target:8s} {m.note}")
