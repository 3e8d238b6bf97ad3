"""Records DuckDB writes as JSON are exactly the records the Python builders make, and REST sends them as such.

The REST answer of a query (REST API Developer Guide, "Query":
https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_query.htm) is
written by DuckDB for queries whose values need no Python conversion; these tests hold that
answer to the builders of emulator.soql.shape, field by field, over every field of the
CRMArena objects (addresses, parents, polymorphic owners, picklist labels, dates, numbers).
"""

from __future__ import annotations

import json

import pytest
from crmarena_sf.emulator import soql
from crmarena_sf.emulator.soql.plans import bound_query, context, plan_for
from crmarena_sf.emulator.soql.translate import PlanOptions, compile_plan

pytestmark = pytest.mark.slow

QUERIES = [
    "SELECT FIELDS(ALL) FROM Account ORDER BY Id LIMIT 200",
    "SELECT FIELDS(ALL) FROM Contact ORDER BY Id LIMIT 200",
    "SELECT FIELDS(ALL) FROM Case ORDER BY Id LIMIT 200",
    "SELECT FIELDS(ALL) FROM Knowledge__kav ORDER BY Id LIMIT 200",
    "SELECT FIELDS(ALL) FROM Product2 ORDER BY Id LIMIT 200",
    "SELECT FIELDS(ALL) FROM OrderItem ORDER BY Id LIMIT 200",
    "SELECT FIELDS(ALL) FROM User ORDER BY Id LIMIT 200",
    "SELECT Id, Subject, Account.Name, Account.BillingAddress, Contact.Name, Owner.Name, Owner.Email, "
    "toLabel(Status), convertCurrency(Account.AnnualRevenue) FROM Case ORDER BY Id",
    "SELECT Id, Owner.Profile.Name, Owner.UserRole.Name, Account.Owner.Name, Contact.Account.Parent.Name FROM Case",
    "SELECT Subject, TextBody, MessageDate, ToIds FROM EmailMessage ORDER BY Id LIMIT 300",
    "SELECT NewValue__c, CreatedDate, CaseId__r.Subject FROM CaseHistory__c ORDER BY Id",
]


@pytest.fixture(scope="module")
def org(crmarena_fork):
    return crmarena_fork


def json_plan(org, text: str):
    """The plan with DuckDB writing the records, whatever the size heuristic would choose."""
    bound = bound_query(org.schema, text)
    return compile_plan(bound, PlanOptions(org.schema, context(org), "62.0", read_through=org.read_through))


@pytest.mark.parametrize("text", QUERIES)
def test_duckdb_writes_the_records_the_builders_make(org, text):
    plan = json_plan(org, text)
    assert plan.json_sql is not None, "this query's records are expected to be written by DuckDB"
    expected = [plan.build(row) for row in org.con.execute(plan.sql).fetchall()]
    written = json.loads("[" + ",".join(row[1] for row in org.con.execute(plan.json_sql).fetchall()) + "]")
    assert written == expected
    body = json.loads(soql.query_json(org, text, batch_size=2000))
    assert body["records"] == expected[:2000] and body["totalSize"] == len(expected)
    assert soql.query(org, text, batch_size=2000)["records"] == expected[:2000]


def test_few_rows_keep_the_python_builders_and_each_run_tells_the_next(org):
    """DuckDB's JSON functions cost a fixed time per query: few records are built in Python."""
    guess = lambda text: plan_for(org, text, False, "62.0").expect_many  # noqa: E731
    assert not guess("SELECT Id, Name FROM Issue__c")
    assert not guess("SELECT Id FROM Case WHERE AccountId != null LIMIT 5")
    assert not guess("SELECT Id, Subject FROM Case WHERE Id = '500Em0000000001IAA'")
    many = "SELECT Id, Subject FROM Case WHERE Status = 'Closed'"
    few = "SELECT Id, Subject FROM Case WHERE Status = 'Escalated'"
    assert guess(many) and guess(few)
    for text in (many, few):
        expected = soql.query(org, text)
        assert json.loads(soql.query_json(org, text)) == expected  # the second run follows the first's size
    assert guess(many) and not guess(few)


def test_paged_json_bodies_match_the_dict_bodies(org):
    text = "SELECT Id, Name, Product2.Name FROM PricebookEntry ORDER BY Id"
    first = json.loads(soql.query_json(org, text, batch_size=500))
    assert first["done"] is False and len(first["records"]) == 500
    locator = first["nextRecordsUrl"].rsplit("/", 1)[1]
    assert json.loads(soql.query_more_json(org, locator)) == soql.query_more(org, locator)


def test_values_python_converts_keep_the_builders(org):
    for text in ("SELECT FORMAT(CreatedDate) FROM Case LIMIT 5", "SELECT Name, (SELECT Subject FROM Cases) FROM Account LIMIT 5",
                 "SELECT TYPEOF Owner WHEN User THEN Name ELSE Name END FROM Case LIMIT 5"):  # fmt: skip
        assert plan_for(org, text, False, "62.0").json_sql is None
        assert json.loads(soql.query_json(org, text)) == soql.query(org, text)


AGGREGATES = [
    "SELECT CaseId__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' GROUP BY CaseId__c HAVING COUNT(Id) = 1",
    "SELECT IssueId__c, COUNT(Id) n FROM Case GROUP BY IssueId__c ORDER BY COUNT(Id) DESC",
    "SELECT Status, Priority, COUNT(Id), MAX(CreatedDate), MIN(ClosedDate) FROM Case GROUP BY ROLLUP(Status, Priority)",
    "SELECT CALENDAR_YEAR(CreatedDate) y, COUNT_DISTINCT(AccountId) FROM Case GROUP BY CALENDAR_YEAR(CreatedDate)",
    "SELECT IsEscalated, Origin, COUNT(Id) FROM Case GROUP BY CUBE(IsEscalated, Origin)",
    "SELECT Owner.Name, COUNT(Id) FROM Case GROUP BY Owner.Name",
]


@pytest.mark.parametrize("text", AGGREGATES)
def test_duckdb_writes_the_aggregate_results_the_builder_makes_byte_for_byte(org, text):
    """AggregateResult rows (SOQL and SOSL Reference, "Aggregate Functions") written by DuckDB: the same bytes."""
    plan = json_plan(org, text)
    assert plan.kind == "aggregate" and plan.json_sql is not None
    expected = [plan.build(row) for row in org.con.execute(plan.sql).fetchall()]
    written = sorted(row[1] for row in org.con.execute(plan.json_sql).fetchall())
    assert written == sorted(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in expected)
    ordered = "ORDER BY" in text or "ROLLUP" in text or "CUBE" in text  # else groups come in any order
    for _ in range(2):  # the second run writes the JSON when the first returned many rows
        body = json.loads(soql.query_json(org, text))
        assert body["totalSize"] == len(expected) and body["done"] is True
        key = (lambda r: r) if ordered else (lambda r: json.dumps(r, sort_keys=True))
        records = body["records"] if ordered else sorted(body["records"], key=key)
        assert records == (expected if ordered else sorted(expected, key=key))


def test_aggregates_with_decimals_stay_with_python(org):
    """AVG and SUM of currency come back as Python formats floats (DuckDB's formatting need not match)."""
    assert json_plan(org, "SELECT AVG(AnnualRevenue) FROM Account").json_source is None
