"""SOQL on forks: a fork reads its parent's tables directly (no view) yet never sees the parent's later writes."""

from crmarena_sf.emulator import Org
from crmarena_sf.emulator.soql import query


def names(org, soql="SELECT Name FROM Account ORDER BY Name"):
    return [r["Name"] for r in query(org, soql)["records"]]


def test_queries_on_forks_stay_isolated_while_reading_through():
    parent = Org.new()
    account = parent.insert("Account", {"Name": "Original"})
    parent.insert("Contact", {"LastName": "Smith", "AccountId": account})
    fork, sibling = parent.fork(), parent.fork()
    soql = "SELECT Name, (SELECT LastName FROM Contacts) FROM Account"
    assert (
        query(fork, soql)["records"][0]["Contacts"]["totalSize"] == 1
    )  # compiled against the parent's tables
    assert dict(fork.read_through)["Account"] == dict(sibling.read_through)["Account"]

    parent.update("Account", account, {"Name": "Parent"})
    fork.insert("Account", {"Name": "Fork only"})
    assert names(parent) == ["Parent"]
    assert names(fork) == ["Fork only", "Original"]
    assert names(sibling) == ["Original"]
    assert "Account" not in dict(fork.read_through)  # the fork owns a copy now
    grandchild = fork.fork()
    fork.delete("Account", account)
    assert names(grandchild) == ["Fork only", "Original"]
    assert names(fork) == ["Fork only"]
