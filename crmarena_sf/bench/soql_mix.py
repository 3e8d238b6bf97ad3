"""The SOQL queries the benchmarks time, each with its floor: the same query written by hand in SQL.

The CRMArena mix is the reference solver's queries (SalesforceAIResearch/CRMArena
crm_sandbox/env/functions.py, §5 of the paper), a lookup by Id and a relationship query,
with values taken from the org. Each :class:`BenchQuery` carries the SQL a person would
write on the raw DuckDB tables for the same rows (plain joins and filters, no Salesforce
semantics to reproduce): what the query costs with no engine at all.
"""

from __future__ import annotations

from dataclasses import dataclass

WINDOW = ("2021-01-01T00:00:00Z", "2023-06-30T23:59:59Z")
WINDOW_SQL = "\"CreatedDate\" >= TIMESTAMP '2021-01-01 00:00:00' AND \"CreatedDate\" <= TIMESTAMP '2023-06-30 23:59:59'"


@dataclass(frozen=True)
class BenchQuery:
    name: str
    soql: str
    floor_sql: str
    crmarena: bool = True
    """Part of the CRMArena mix (the geometric mean's queries)."""


def _values(values) -> str:
    return "(" + ", ".join(f"'{v}'" for v in values) + ")"


def bench_queries(org) -> list[BenchQuery]:
    """The benchmark's queries, with values from ``org`` (the default CRMArena org or a scaled one)."""
    one = lambda sql: org.con.execute(sql).fetchone()  # noqa: E731
    case_id, owner, item, issue, account = one(
        'SELECT "Id", "OwnerId", "OrderItemId__c", "IssueId__c", "AccountId" FROM "Case" '
        'WHERE "Status" = \'Closed\' AND "OrderItemId__c" IS NOT NULL ORDER BY "Id" LIMIT 1'
    )
    contact = one('SELECT "Id" FROM "Contact" ORDER BY "Id" LIMIT 1')[0]
    product = one('SELECT "Product2Id" FROM "OrderItem" ORDER BY "Id" LIMIT 1')[0]
    order_account, day = one('SELECT "AccountId", "EffectiveDate" FROM "Order" ORDER BY "Id" LIMIT 1')
    email_case = one('SELECT "ParentId" FROM "EmailMessage" ORDER BY "Id" LIMIT 1')[0]
    items = [r[0] for r in org.con.execute('SELECT "Id" FROM "OrderItem" ORDER BY "Id" LIMIT 15').fetchall()]
    accounts = [r[0] for r in org.con.execute('SELECT "Id" FROM "Account" ORDER BY "Id" LIMIT 20').fetchall()]
    s, e = WINDOW
    return [
        BenchQuery("§5 owner assignments in a window",
                   f"SELECT NewValue__c, CreatedDate FROM CaseHistory__c WHERE CreatedDate >= {s} AND CreatedDate <= {e} AND Field__c = 'Owner Assignment'",
                   f"SELECT \"NewValue__c\", \"CreatedDate\" FROM \"CaseHistory__c\" WHERE {WINDOW_SQL} AND \"Field__c\" = 'Owner Assignment'"),
        BenchQuery("§5 non-transferred (GROUP BY/HAVING)",
                   f"SELECT CaseId__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND CreatedDate >= {s} AND CreatedDate <= {e} GROUP BY CaseId__c HAVING COUNT(Id) = 1",
                   f"SELECT \"CaseId__c\" FROM \"CaseHistory__c\" WHERE \"Field__c\" = 'Owner Assignment' AND {WINDOW_SQL} GROUP BY \"CaseId__c\" HAVING count(\"Id\") = 1"),
        BenchQuery("§5 transfers (!= NULL)",
                   f"SELECT OldValue__c, CreatedDate FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND OldValue__c != NULL AND CreatedDate >= {s} AND CreatedDate <= {e}",
                   f"SELECT \"OldValue__c\", \"CreatedDate\" FROM \"CaseHistory__c\" WHERE \"Field__c\" = 'Owner Assignment' AND \"OldValue__c\" IS NOT NULL AND {WINDOW_SQL}"),
        BenchQuery("§5 closed cases (IN lists)",
                   f"SELECT OwnerId, CreatedDate, ClosedDate, AccountId FROM Case WHERE CreatedDate >= 2020-01-01T00:00:00Z AND CreatedDate < 2025-01-01T00:00:00Z AND OwnerId IN ('{owner}') AND Id IN ('{case_id}') AND OrderItemId__c = '{item}' AND IssueId__c IN ('{issue}') AND Status = 'Closed'",
                   f"SELECT \"OwnerId\", \"CreatedDate\", \"ClosedDate\", \"AccountId\" FROM \"Case\" WHERE \"CreatedDate\" >= TIMESTAMP '2020-01-01' AND \"CreatedDate\" < TIMESTAMP '2025-01-01' AND \"OwnerId\" IN ('{owner}') AND \"Id\" IN ('{case_id}') AND \"OrderItemId__c\" = '{item}' AND \"IssueId__c\" IN ('{issue}') AND \"Status\" = 'Closed'"),
        BenchQuery("§5 shipping states of accounts",
                   f"SELECT Id, ShippingState FROM Account WHERE Id IN {_values(accounts)}",
                   f"SELECT \"Id\", \"ShippingState\" FROM \"Account\" WHERE \"Id\" IN {_values(accounts)}"),
        BenchQuery("§5 order items of a product",
                   f"SELECT Id FROM OrderItem WHERE Product2Id = '{product}'",
                   f"SELECT \"Id\" FROM \"OrderItem\" WHERE \"Product2Id\" = '{product}'"),
        BenchQuery("§5 issue counts (GROUP BY, ORDER BY COUNT)",
                   f"SELECT IssueId__c, COUNT(Id) IssueCount FROM Case WHERE OrderItemId__c IN {_values(items)} AND CreatedDate >= 2020-01-01T00:00:00Z AND CreatedDate <= 2025-01-01T00:00:00Z GROUP BY IssueId__c ORDER BY COUNT(Id) DESC",
                   f"SELECT \"IssueId__c\", count(\"Id\") FROM \"Case\" WHERE \"OrderItemId__c\" IN {_values(items)} AND \"CreatedDate\" >= TIMESTAMP '2020-01-01' AND \"CreatedDate\" <= TIMESTAMP '2025-01-01' GROUP BY \"IssueId__c\" ORDER BY count(\"Id\") DESC"),
        BenchQuery("§5 account of a contact",
                   f"SELECT AccountId FROM Contact WHERE Id = '{contact}' LIMIT 1",
                   f"SELECT \"AccountId\" FROM \"Contact\" WHERE \"Id\" = '{contact}' LIMIT 1"),
        BenchQuery("§5 purchase history (OrderItem.Order paths)",
                   f"SELECT Product2Id FROM OrderItem WHERE OrderItem.Order.AccountId = '{order_account}' AND OrderItem.Order.EffectiveDate = {day.isoformat()} AND OrderItem.Order.Status = 'Activated'",
                   f"SELECT i.\"Product2Id\" FROM \"OrderItem\" i JOIN \"Order\" o ON o.\"Id\" = i.\"OrderId\" WHERE o.\"AccountId\" = '{order_account}' AND o.\"EffectiveDate\" = DATE '{day.isoformat()}' AND o.\"Status\" = 'Activated'"),
        BenchQuery("§5 issues", "SELECT Id, Name FROM Issue__c", "SELECT \"Id\", \"Name\" FROM \"Issue__c\""),
        BenchQuery("§5 emails of a case",
                   f"SELECT Subject, TextBody, FromAddress, ToAddress, MessageDate FROM EmailMessage WHERE ParentId = '{email_case}'",
                   f"SELECT \"Subject\", \"TextBody\", \"FromAddress\", \"ToAddress\", \"MessageDate\" FROM \"EmailMessage\" WHERE \"ParentId\" = '{email_case}'"),
        BenchQuery("lookup by Id",
                   f"SELECT Id, Subject, Status, Priority, CreatedDate FROM Case WHERE Id = '{case_id}'",
                   f"SELECT \"Id\", \"Subject\", \"Status\", \"Priority\", \"CreatedDate\" FROM \"Case\" WHERE \"Id\" = '{case_id}'"),
        BenchQuery("relationship: closed cases with account and owner",
                   "SELECT Id, Subject, Account.ShippingState, Owner.Name FROM Case WHERE Status = 'Closed' AND Account.ShippingState != null",
                   "SELECT c.\"Id\", c.\"Subject\", a.\"Id\", a.\"ShippingState\", c.\"OwnerId\", coalesce(u.\"Name\", g.\"Name\") FROM \"Case\" c "
                   "LEFT JOIN \"Account\" a ON a.\"Id\" = c.\"AccountId\" LEFT JOIN \"User\" u ON u.\"Id\" = c.\"OwnerId\" "
                   "LEFT JOIN \"Group\" g ON g.\"Id\" = c.\"OwnerId\" WHERE c.\"Status\" = 'Closed' AND a.\"ShippingState\" IS NOT NULL"),
        BenchQuery("lookup by Id with parents",
                   f"SELECT Subject, Account.Name, Contact.Name, Owner.Name FROM Case WHERE Id = '{case_id}'",
                   "SELECT c.\"Subject\", a.\"Id\", a.\"Name\", ct.\"Id\", ct.\"Name\", c.\"OwnerId\", coalesce(u.\"Name\", g.\"Name\") FROM \"Case\" c "
                   "LEFT JOIN \"Account\" a ON a.\"Id\" = c.\"AccountId\" LEFT JOIN \"Contact\" ct ON ct.\"Id\" = c.\"ContactId\" "
                   "LEFT JOIN \"User\" u ON u.\"Id\" = c.\"OwnerId\" LEFT JOIN \"Group\" g ON g.\"Id\" = c.\"OwnerId\" "
                   f"WHERE c.\"Id\" = '{case_id}'", crmarena=False),
        BenchQuery("aggregate: cases per month and state",
                   "SELECT Account.ShippingState, CALENDAR_MONTH(CreatedDate), COUNT(Id) FROM Case WHERE Status = 'Closed' GROUP BY Account.ShippingState, CALENDAR_MONTH(CreatedDate)",
                   "SELECT a.\"ShippingState\", month(c.\"CreatedDate\"), count(c.\"Id\") FROM \"Case\" c LEFT JOIN \"Account\" a "
                   "ON a.\"Id\" = c.\"AccountId\" WHERE c.\"Status\" = 'Closed' GROUP BY 1, 2", crmarena=False),
        BenchQuery("child subquery: accounts with their cases",
                   f"SELECT Name, (SELECT Subject FROM Cases) FROM Account WHERE Id = '{account}'",
                   f"SELECT a.\"Id\", a.\"Name\", (SELECT list(c.\"Subject\") FROM \"Case\" c WHERE c.\"AccountId\" = a.\"Id\") "
                   f"FROM \"Account\" a WHERE a.\"Id\" = '{account}'", crmarena=False),
    ]  # fmt: skip
