"""Compiled plans: what compiling a query depends on, and what it must leave alone.

A plan is cached per query text and shared by every org with the same schema (forks
included), so compiling must not change the bound query it starts from, and the row
estimate that picks how a plan's first run builds its records must follow the org's writes.
"""

from __future__ import annotations

import json

from crmarena_sf.emulator import Org, soql
from crmarena_sf.emulator.soql.dialect import SOQL
from crmarena_sf.emulator.soql.plans import bound_query, context, plan_for
from crmarena_sf.emulator.soql.translate import PlanOptions, compile_plan

QUERIES = [
    "SELECT Id, Name, Owner.Name, CreatedDate FROM Account WHERE Name != null AND CreatedDate < 2030-01-01T00:00:00Z "
    "ORDER BY Name DESC NULLS LAST LIMIT 300",
    "SELECT Name, (SELECT LastName FROM Contacts ORDER BY LastName LIMIT 2) FROM Account WHERE Id IN "
    "(SELECT AccountId FROM Contact WHERE LastName LIKE 'S%')",
    "SELECT Industry, CALENDAR_YEAR(CreatedDate), COUNT(Id) FROM Account GROUP BY ROLLUP(Industry, "
    "CALENDAR_YEAR(CreatedDate))",
]


def test_compiling_leaves_the_shared_bound_query_unchanged():
    parent = Org.new()
    parent.insert("Account", {"Name": "Acme"})
    fork = parent.fork()  # reads the parent's tables through: its plans name the parent's catalog
    for text in QUERIES:
        bound = bound_query(fork.schema, text)
        before = bound.tree.copy()
        through = compile_plan(
            bound, PlanOptions(fork.schema, context(fork), "62.0", read_through=fork.read_through)
        )
        own = compile_plan(
            bound, PlanOptions(parent.schema, context(parent), "62.0", read_through=parent.read_through)
        )
        again = compile_plan(
            bound, PlanOptions(fork.schema, context(fork), "62.0", read_through=fork.read_through)
        )
        assert bound.tree == before and bound.tree.sql(dialect=SOQL) == before.sql(dialect=SOQL)
        assert again.sql == through.sql and again.json_sql == through.json_sql
        catalog = dict(fork.read_through)["Account"]
        assert catalog in through.sql and catalog not in own.sql
        assert soql.query(fork, text) == soql.query(parent, text)


def test_a_write_makes_the_row_estimate_stale():
    """Few rows: the first run builds records in Python; after a bulk insert DuckDB writes them."""
    org = Org.new()  # a fork: other orgs of this process hold their own, larger Account tables
    org.insert("Account", {"Name": "First"})
    few = "SELECT Id, Name FROM Account WHERE Name != 'a write makes the row estimate stale'"
    assert not plan_for(org, few, False, "62.0").expect_many
    org.insert_many("Account", [{"Name": f"Account {i}"} for i in range(300)])
    many = "SELECT Id, Name, Phone FROM Account WHERE Name != 'a write makes the row estimate stale'"
    assert plan_for(org, many, False, "62.0").expect_many
    body = json.loads(soql.query_json(org, many))
    assert body == soql.query(org, many) and body["totalSize"] == 301


def test_queries_of_one_shape_keep_their_own_keys():
    """Record builders of the same shape share compiled code, never their keys or types."""
    org = Org.new()
    account = org.insert("Account", {"Name": "Acme", "Phone": "555"})
    org.insert("Contact", {"LastName": "Smith", "Email": "s@example.com", "AccountId": account})
    first = soql.query(org, "SELECT Name FROM Account")["records"][0]
    second = soql.query(org, "SELECT Email FROM Contact")["records"][0]
    assert first == {"attributes": first["attributes"], "Name": "Acme"}
    assert second == {"attributes": second["attributes"], "Email": "s@example.com"}
    assert first["attributes"]["type"] == "Account" and second["attributes"]["type"] == "Contact"
