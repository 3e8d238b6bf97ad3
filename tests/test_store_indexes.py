"""Indexes on large tables: lookups answered from them, with the same answers as a scan.

Salesforce indexes the Id and every lookup and master-detail field, so lookups cost the same
in a large org ("Working with Very Large SOQL Queries",
https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_soql_select_indexes.htm).
The emulator indexes tables from 20,000 rows; here the threshold is lowered so the tiny org
is indexed everywhere, and every answer must equal the unindexed org's, before and after
writes in a fork (which copies the table it writes, indexes included).
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import sosl
from crmarena_sf.emulator.soql.plans import plan_for
from crmarena_sf.emulator.store import indexes
from crmarena_sf.loaders.load import load_dataset

from crmarena_sf import connect


@pytest.fixture(scope="module")
def indexed_template(tiny_dataset):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(indexes, "INDEX_MIN_ROWS", 1)
        org = load_dataset(tiny_dataset)
        sosl.ensure_index(org)
        yield org
    org.close()


@pytest.fixture
def pair(indexed_template, tiny_org):
    """(indexed fork, plain fork) with simple-salesforce clients."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(indexes, "INDEX_MIN_ROWS", 1)  # forks copying a table index it as the template did
        indexed, plain = indexed_template.fork(), tiny_org.fork()
        yield (indexed, connect(indexed)), (plain, connect(plain))
    indexed.close()
    plain.close()


def _ids(sf, soql):
    return [r["Id"] for r in sf.query(soql)["records"]]


def _queries(sf) -> list[str]:
    case = sf.query(
        "SELECT Id, CaseNumber, AccountId, OwnerId FROM Case WHERE AccountId != null ORDER BY Id LIMIT 1"
    )["records"][0]
    cases = _ids(sf, "SELECT Id FROM Case ORDER BY Id LIMIT 3")
    account = case["AccountId"]
    product = sf.query("SELECT Name FROM Product2 ORDER BY Id LIMIT 1")["records"][0]["Name"].replace(
        "'", "\\'"
    )
    emails = [
        r["Email"]
        for r in sf.query("SELECT Email FROM Contact WHERE Email != null ORDER BY Id LIMIT 2")["records"]
    ]
    return [
        f"SELECT Id, Name FROM Product2 WHERE Name = '{product.upper()}'",
        f"SELECT Id FROM Contact WHERE Email IN ('{emails[0]}', '{emails[1].upper()}') ORDER BY Id",
        f"SELECT Id FROM Case WHERE CaseNumber = '{case['CaseNumber']}' AND Status != null",
        f"SELECT Id, Subject, Status FROM Case WHERE Id = '{case['Id']}'",
        f"SELECT Id, Subject FROM Case WHERE Id = '{case['Id'][:15]}'",
        f"SELECT Id FROM Case WHERE Id IN ('{cases[0]}', '{cases[1]}', '{cases[2]}') ORDER BY Id",
        f"SELECT Id, Status FROM Case WHERE AccountId = '{account}' AND Status != 'Closed' ORDER BY Id",
        f"SELECT Id FROM Case WHERE AccountId = '{account}' OR Status = 'New' ORDER BY Id",
        f"SELECT Subject, Account.Name, Contact.Name, Owner.Name FROM Case WHERE Id = '{case['Id']}'",
        f"SELECT COUNT(Id) n FROM EmailMessage WHERE ParentId = '{case['Id']}'",
        f"SELECT Id, (SELECT Id, Subject FROM Cases ORDER BY Id LIMIT 2) FROM Account WHERE Id = '{account}'",
        "SELECT Id, (SELECT Id FROM Cases ORDER BY Id) FROM Account ORDER BY Id LIMIT 5",
        f"SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Case WHERE OwnerId = '{case['OwnerId']}') ORDER BY Id",
        "SELECT Id FROM Case WHERE Id = '500000000000000AAA'",
        # a child batch's parent Ids bound as parameters beside the child's and the parent's own
        f"SELECT Id, (SELECT Id FROM Cases WHERE Status != 'what?' ORDER BY Id) FROM Account "
        f"WHERE Name != 'x' AND Id = '{account}'",
    ]


SEARCHES = [
    "FIND {help} RETURNING Case(Id, Subject ORDER BY Id), Knowledge__kav(Id, Title ORDER BY Id)",
    # the matched Ids bound as parameters beside the RETURNING clause's own (before and after them)
    "FIND {help} RETURNING Case(Id, Subject WHERE Status != 'what?' AND Subject != 'x' LIMIT 7)",
    "FIND {help} RETURNING Case(Id, Subject LIMIT 3 OFFSET 2), Account(Id, Name WHERE Name != 'x')",
]


def _answers(sf, queries):
    return [sf.query(q) for q in queries]


def test_lookups_on_indexed_tables_answer_as_a_scan_does(pair):
    (_, indexed), (_, plain) = pair
    queries = _queries(plain)
    assert _answers(indexed, queries) == _answers(plain, queries)
    for search in SEARCHES:
        assert indexed.search(search) == plain.search(search)
        assert indexed.search(search)["searchRecords"]


def test_the_lookup_is_read_from_the_index(pair):
    (org, sf), _ = pair
    case_id = _ids(sf, "SELECT Id FROM Case LIMIT 1")[0]
    plan = plan_for(
        org, f"SELECT Id, Subject FROM Case WHERE Id = '{case_id}' AND Status != 'x'", False, "62.0"
    )
    with org.lock:
        profile = org.con.execute("EXPLAIN ANALYZE " + plan.sql).fetchall()[0][1]
    assert "Index Scan" in profile


def test_a_name_is_looked_up_ignoring_case_through_an_index_on_its_lowercase(pair):
    (org, sf), _ = pair
    name = sf.query("SELECT Name FROM Product2 ORDER BY Id LIMIT 1")["records"][0]["Name"].replace("'", "\\'")
    text = f"SELECT Id FROM Product2 WHERE Name = '{name.swapcase()}' AND IsActive = true"
    plan = plan_for(org, text, False, "62.0")
    with org.lock:
        profile = org.con.execute("EXPLAIN ANALYZE " + plan.sql).fetchall()[0][1]
    assert "Index Scan" in profile and "lower(Name)" in profile
    assert sf.query(text)["totalSize"] >= 1


def test_writes_in_a_fork_keep_indexed_lookups_right(pair):
    (org, indexed), (_, plain) = pair
    answers = {}
    for label, sf in (("indexed", indexed), ("plain", plain)):
        cases = _ids(sf, "SELECT Id FROM Case ORDER BY Id LIMIT 2")
        accounts = _ids(sf, "SELECT Id FROM Account ORDER BY Id LIMIT 2")
        sf.Case.update(cases[0], {"AccountId": accounts[1]})  # an indexed column changes
        sf.Case.delete(cases[1])
        new = sf.Case.create({"Subject": "indexed lookup", "AccountId": accounts[1]})["id"]
        deleted = sf.query_all(
            f"SELECT Id FROM Case WHERE Id = '{cases[1]}' AND IsDeleted = true", include_deleted=True
        )
        answers[label] = [
            _ids(sf, f"SELECT Id FROM Case WHERE AccountId = '{accounts[1]}' ORDER BY Id"),
            _ids(sf, f"SELECT Id FROM Case WHERE AccountId = '{accounts[0]}' ORDER BY Id"),
            _ids(sf, f"SELECT Id FROM Case WHERE Id = '{cases[1]}'"),
            [r["Id"] for r in deleted["records"]],
            _ids(sf, f"SELECT Id FROM Case WHERE Id = '{new}'"),
        ]
        moved, _, gone, binned, created = answers[label]
        assert cases[0] in moved and new in moved
        assert gone == [] and binned == [cases[1]] and created == [new]
    assert answers["indexed"] == answers["plain"]
    assert ("Case", "AccountId") in indexes.indexed_columns(org)  # the fork's own copy kept its indexes
