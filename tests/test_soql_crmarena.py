"""Every SOQL query of CRMArena's reference solver (CRMArena's reference solver, SalesforceAIResearch/CRMArena crm_sandbox/env/functions.py) on a generated org.

The queries are verbatim templates from ``crm_sandbox/env/functions.py`` with values
picked from the generated ``tiny`` org; each answer is checked for its REST shape and
against the same question asked of DuckDB directly (an independent oracle).
"""

from __future__ import annotations

import datetime as dt

import pytest
from crmarena_sf.emulator import ids, soql

START = "2020-01-01T00:00:00Z"
END = "2024-12-31T23:59:59Z"
S, E = dt.datetime(2020, 1, 1), dt.datetime(2024, 12, 31, 23, 59, 59)


@pytest.fixture(scope="module")
def org(tiny_fork):
    """The session's tiny org, this module's fork of it."""
    return tiny_fork


def sql(org, text: str, params: list | None = None) -> list[tuple]:
    return org.con.execute(text, params or []).fetchall()


def check_records(body: dict, object_name: str, keys: list[str]) -> None:
    assert body["done"] is True and body["totalSize"] == len(body["records"])
    for record in body["records"]:
        assert record["attributes"]["type"] == object_name
        assert (
            record["attributes"]["url"]
            == f"/services/data/v62.0/sobjects/{object_name}/{record['attributes']['url'][-18:]}"
        )
        assert list(record)[1:] == keys


def test_owner_assignments_in_a_window(org):
    body = soql.query(
        org,
        f"SELECT NewValue__c, CreatedDate FROM CaseHistory__c WHERE CreatedDate >= {START} AND CreatedDate <= {END} "
        "AND Field__c = 'Owner Assignment'",
    )
    check_records(body, "CaseHistory__c", ["NewValue__c", "CreatedDate"])
    expected = sql(
        org,
        'SELECT count(*) FROM "CaseHistory__c" WHERE "CreatedDate" BETWEEN ? AND ? AND "Field__c" = ?',
        [S, E, "Owner Assignment"],
    )[0][0]
    assert body["totalSize"] == expected > 0
    assert all(r["CreatedDate"].endswith(".000+0000") for r in body["records"])


def test_non_transferred_cases_group_by_having(org):
    body = soql.query(
        org,
        f"SELECT CaseId__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND CreatedDate >= {START} "
        f"AND CreatedDate <= {END} GROUP BY CaseId__c HAVING COUNT(Id) = 1",
    )
    expected = sql(
        org,
        'SELECT "CaseId__c" FROM "CaseHistory__c" WHERE "Field__c" = ? AND "CreatedDate" BETWEEN ? AND ? '
        'GROUP BY "CaseId__c" HAVING count(*) = 1',
        ["Owner Assignment", S, E],
    )
    assert {r["CaseId__c"] for r in body["records"]} == {row[0] for row in expected}
    assert all(
        r == {"attributes": {"type": "AggregateResult"}, "CaseId__c": r["CaseId__c"]} for r in body["records"]
    )


def test_transfers_with_not_equal_null(org):
    body = soql.query(
        org,
        "SELECT OldValue__c, CreatedDate FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND "
        f"OldValue__c != NULL AND CreatedDate >= {START} AND CreatedDate <= {END}",
    )
    expected = sql(
        org,
        'SELECT count(*) FROM "CaseHistory__c" WHERE "Field__c" = ? AND "OldValue__c" IS NOT NULL',
        ["Owner Assignment"],
    )[0][0]
    assert body["totalSize"] == expected
    assert all(r["OldValue__c"].startswith("005") for r in body["records"])


def test_closed_cases_of_agents_with_in_lists(org):
    rows = sql(
        org,
        'SELECT "Id", "OwnerId", "OrderItemId__c", "IssueId__c" FROM "Case" WHERE "Status" = \'Closed\' '
        'AND "OrderItemId__c" IS NOT NULL ORDER BY "Id" LIMIT 3',
    )
    case_ids = tuple(r[0] for r in rows)
    owners = tuple({r[1] for r in rows}) + (ids.make_id("005", 99_999),)
    issues = tuple({r[3] for r in rows if r[3]}) + (ids.make_id("a1M", 99_999),)
    item = rows[0][2]
    query = (
        f"SELECT OwnerId, CreatedDate, ClosedDate, AccountId FROM Case WHERE CreatedDate >= {START} AND "
        f"CreatedDate < {END} AND OwnerId IN {owners} AND Id IN {case_ids} AND OrderItemId__c = '{item}' "
        f"AND IssueId__c IN {issues} AND Status = 'Closed'"
    )
    body = soql.query(org, query)
    check_records(body, "Case", ["OwnerId", "CreatedDate", "ClosedDate", "AccountId"])
    assert body["totalSize"] >= 1
    assert {r["attributes"]["url"][-18:] for r in body["records"]} <= set(case_ids)


def test_shipping_states_and_order_items_of_a_product(org):
    accounts = tuple(r[0] for r in sql(org, 'SELECT "Id" FROM "Account" ORDER BY "Id" LIMIT 5'))
    body = soql.query(org, f"SELECT Id, ShippingState FROM Account WHERE Id IN {accounts}")
    check_records(body, "Account", ["Id", "ShippingState"])
    assert {r["Id"] for r in body["records"]} == set(accounts)
    product, count = sql(
        org, 'SELECT "Product2Id", count(*) FROM "OrderItem" GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1'
    )[0]
    body = soql.query(org, f"SELECT Id FROM OrderItem WHERE Product2Id = '{product}'")
    assert body["totalSize"] == count


def test_issue_counts_ordered_by_aggregate(org):
    items = tuple(
        r[0]
        for r in sql(
            org,
            'SELECT DISTINCT "OrderItemId__c" FROM "Case" WHERE "OrderItemId__c" IS NOT NULL ORDER BY 1 LIMIT 40',
        )
    )
    body = soql.query(
        org,
        f"SELECT IssueId__c, COUNT(Id) IssueCount FROM Case WHERE OrderItemId__c IN {items} AND "
        f"CreatedDate >= {START} AND CreatedDate <= {END} GROUP BY IssueId__c ORDER BY COUNT(Id) DESC",
    )
    counts = [r["IssueCount"] for r in body["records"]]
    assert counts == sorted(counts, reverse=True) and sum(counts) > 0
    assert list(body["records"][0]) == ["attributes", "IssueId__c", "IssueCount"]
    total = sql(org, f'SELECT count(*) FROM "Case" WHERE "OrderItemId__c" IN {items}')[0][0]
    assert sum(counts) == total


def test_account_of_a_contact(org):
    contact, account = sql(
        org, 'SELECT "Id", "AccountId" FROM "Contact" WHERE "AccountId" IS NOT NULL LIMIT 1'
    )[0]
    body = soql.query(org, f"SELECT AccountId FROM Contact WHERE Id = '{contact}' LIMIT 1")
    assert body["records"][0]["AccountId"] == account


def test_purchase_history_with_object_prefixed_paths_and_a_date_literal(org):
    account, day, product = sql(
        org,
        'SELECT o."AccountId", o."EffectiveDate", i."Product2Id" FROM "OrderItem" i JOIN "Order" o ON o."Id" = i."OrderId" '
        'WHERE o."Status" = \'Activated\' ORDER BY i."Id" LIMIT 1',
    )[0]
    body = soql.query(
        org,
        f"SELECT Product2Id FROM OrderItem WHERE OrderItem.Order.AccountId = '{account}' AND "
        f"OrderItem.Order.EffectiveDate = {day.isoformat()} AND Product2Id IN ('{product}') AND "
        "OrderItem.Order.Status = 'Activated'",
    )
    assert body["totalSize"] >= 1 and {r["Product2Id"] for r in body["records"]} == {product}


def test_issues_emails_and_chats(org):
    body = soql.query(org, "SELECT Id, Name FROM Issue__c")
    assert body["totalSize"] == 10 and "Product Defect" in {r["Name"] for r in body["records"]}
    case_id = sql(org, 'SELECT "ParentId" FROM "EmailMessage" LIMIT 1')[0][0]
    body = soql.query(
        org,
        f"SELECT Subject, TextBody, FromAddress, ToAddress, MessageDate FROM EmailMessage WHERE ParentId = '{case_id}'",
    )
    check_records(body, "EmailMessage", ["Subject", "TextBody", "FromAddress", "ToAddress", "MessageDate"])
    assert body["totalSize"] >= 1 and all(r["ToAddress"] for r in body["records"])
    chat_case = sql(org, 'SELECT "CaseId" FROM "LiveChatTranscript" LIMIT 1')[0][0]
    body = soql.query(org, f"SELECT Body, EndTime FROM LiveChatTranscript WHERE CaseId = '{chat_case}'")
    check_records(body, "LiveChatTranscript", ["Body", "EndTime"])


def test_connector_self_test_and_agent_style_queries(org):
    name = sql(org, 'SELECT "Name" FROM "Account" WHERE "Name" IS NOT NULL LIMIT 1')[0][0]
    body = soql.query(
        org,
        f"SELECT Id FROM Case WHERE Account.Name = '{name.upper()}' AND (Owner.FirstName = 'Edward' OR "
        "Owner.LastName = 'Edward' OR Owner.Name != null)",
    )
    assert body["totalSize"] == sql(org, 'SELECT count(*) FROM "Case" c JOIN "Account" a ON a."Id" = c."AccountId" '
                                    'WHERE a."Name" = ?', [name])[0][0]  # fmt: skip
    months = soql.query(
        org,
        "SELECT CALENDAR_MONTH(CreatedDate) month, COUNT(Id) n FROM Case GROUP BY CALENDAR_MONTH(CreatedDate) "
        "ORDER BY CALENDAR_MONTH(CreatedDate)",
    )
    assert sum(r["n"] for r in months["records"]) == org.count("Case")
    assert soql.query(org, "SELECT COUNT() FROM Case")["totalSize"] == org.count("Case")
    body = soql.query(
        org,
        "SELECT Id, Title, FAQ_Answer__c FROM Knowledge__kav WHERE PublishStatus = 'Online' AND Language = 'en_US' "
        "LIMIT 5",
    )
    assert body["totalSize"] == 5
