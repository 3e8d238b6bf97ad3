"""Relationship queries the SOQL and SOSL Reference documents, on the small org.

Sources (https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/):
"Alias Notation" (sforce_api_calls_soql_alias.htm: ``SELECT count() FROM Contact c, c.Account a
WHERE a.name = 'MyriadPubs'``), "SOQL SELECT Syntax" (``SELECT Account.Name, (SELECT
Contact.LastName FROM Account.Contacts) FROM Account``), "Using Relationship Queries" and
"Understanding Relationship Query Limitations" (five levels of parent-to-child subqueries from
API 58.0, two before), "FIELDS()" (a bounded result: LIMIT 200 or an Id filter), "FORMAT()"
(``FORMAT(convertCurrency(amount)) convertedCurrency``).
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import soql, sosl
from crmarena_sf.emulator.errors import SalesforceError
from small_org import names


def error_of(org, text: str, **options) -> SalesforceError:
    with pytest.raises(SalesforceError) as info:
        soql.query(org, text, **options)
    assert info.value.status == 400
    return info.value


@pytest.fixture(scope="module")
def org(built):
    """The small org with a child case of Ann's case, and an email on that child case."""
    org, ids_ = built
    child = org.insert(
        "Case",
        {
            "Subject": "Zipper follow-up",
            "ParentId": ids_["c1"],
            "ContactId": ids_["ann"],
            "AccountId": ids_["acme"],
        },
        check_references=False,
    )
    org.insert(
        "EmailMessage", {"ParentId": child, "Subject": "Re: zipper", "Status": "3"}, check_references=False
    )
    return org


# ---------------------------------------------------------------------------- alias notation
def test_alias_notation_counts_like_the_myriadpubs_example(org):
    assert (
        soql.query(org, "SELECT count() FROM Contact c, c.Account a WHERE a.name = 'Acme Corp'")["totalSize"]
        == 2
    )


def test_aliases_name_the_object_and_a_parent_path_in_every_clause(org):
    body = soql.query(
        org,
        "SELECT c.LastName, a.Name FROM Contact c, c.Account a WHERE a.Name = 'acme corp' ORDER BY c.LastName",
    )
    assert names(body, "LastName") == ["Jones", "Smith"]
    assert [r["Account"]["Name"] for r in body["records"]] == ["Acme Corp", "Acme Corp"]
    grouped = soql.query(
        org, "SELECT a.Name, COUNT(c.Id) n FROM Contact c, c.Account a GROUP BY a.Name ORDER BY a.Name"
    )
    assert [(r["Name"], r["n"]) for r in grouped["records"]] == [
        ("Acme Corp", 2),
        ("Globex", 1),
        ("Pat Lee", 1),
    ]


def test_an_alias_path_through_a_relationship_the_object_lacks_is_refused(org):
    err = error_of(org, "SELECT COUNT() FROM Contact c, c.Acount a")
    assert err.error_code == "INVALID_FIELD" and "Didn't understand relationship 'Acount'" in err.message


def test_using_is_a_keyword_no_alias_may_be(org):
    assert error_of(org, "SELECT Name FROM Account Using").message.endswith("unexpected token: 'Using'")


# ---------------------------------------------------------------------------- qualified child subqueries
def test_relationship_qualified_fields_and_from_in_a_child_subquery(org):
    body = soql.query(
        org,
        "SELECT Account.Name, (SELECT Contact.LastName FROM Account.Contacts ORDER BY Contact.LastName) FROM Account "
        "WHERE Name = 'Acme Corp'",
    )
    [acme] = body["records"]
    assert acme["Name"] == "Acme Corp" and names(acme["Contacts"], "LastName") == ["Jones", "Smith"]


def test_alias_qualified_child_relationship(org):
    body = soql.query(
        org,
        "SELECT a.Name, (SELECT c.LastName FROM a.Contacts c ORDER BY c.LastName) FROM Account a WHERE a.Name = 'Globex'",
    )
    assert names(body["records"][0]["Contacts"], "LastName") == ["Brown"]


def test_a_child_relationship_qualified_by_another_name_is_refused(org):
    err = error_of(org, "SELECT Name, (SELECT LastName FROM Contact.Contacts) FROM Account")
    assert err.error_code == "INVALID_TYPE"
    assert "Didn't understand relationship 'Contact' in FROM part of query call" in err.message


# ---------------------------------------------------------------------------- five levels
FIVE_LEVELS = (
    "SELECT Name, (SELECT LastName, (SELECT Subject, (SELECT Subject, (SELECT Subject FROM EmailMessages) "
    "FROM Cases) FROM Cases ORDER BY Subject) FROM Contacts ORDER BY LastName) FROM Account WHERE Name = 'Acme Corp'"
)


def test_child_subqueries_nest_five_levels_from_api_58(org):
    [acme] = soql.query(org, FIVE_LEVELS, api_version="58.0")["records"]
    jones, smith = acme["Contacts"]["records"]
    assert jones["LastName"] == "Jones" and names(jones["Cases"]) == ["sizing question"]
    assert jones["Cases"]["records"][0]["Cases"] is None
    assert names(smith["Cases"]) == ["Zipper broken", "Zipper follow-up"]
    broken, follow_up = smith["Cases"]["records"]
    assert names(broken["Cases"]) == ["Zipper follow-up"]
    assert names(broken["Cases"]["records"][0]["EmailMessages"]) == ["Re: zipper"]
    assert (
        broken["Cases"]["records"][0]["EmailMessages"]["records"][0]["attributes"]["type"] == "EmailMessage"
    )
    assert follow_up["Cases"] is None


def test_a_sixth_level_or_a_second_before_api_58_is_refused(org):
    six = FIVE_LEVELS.replace(
        "(SELECT Subject FROM EmailMessages)", "(SELECT Subject, (SELECT Id FROM Cases) FROM EmailMessages)"
    )
    assert error_of(org, six).message.endswith("unexpected token: 'SELECT'")
    err = error_of(org, "SELECT Name, (SELECT LastName, (SELECT Subject FROM Cases) FROM Contacts) FROM Account",
                   api_version="57.0")  # fmt: skip
    assert err.message.endswith("unexpected token: 'SELECT'")
    ok = "SELECT Name, (SELECT LastName FROM Contacts) FROM Account"
    assert soql.query(org, ok, api_version="57.0")["totalSize"] == 3


# ---------------------------------------------------------------------------- FIELDS() bounded by Ids
def test_fields_all_bounded_by_an_id_filter_instead_of_a_limit(org):
    ids_ = org.con.execute('SELECT "Id" FROM "Account" ORDER BY "Id" LIMIT 2').fetchall()
    listed = ", ".join(f"'{i}'" for (i,) in ids_)
    body = soql.query(org, f"SELECT FIELDS(ALL) FROM Account WHERE Id IN ({listed})")
    assert body["totalSize"] == 2 and "AnnualRevenue" in body["records"][0]
    body = soql.query(org, f"SELECT FIELDS(CUSTOM) FROM Account WHERE Name != null AND Id = '{ids_[0][0]}'")
    assert body["totalSize"] == 1
    err = error_of(org, f"SELECT FIELDS(ALL) FROM Account WHERE Id = '{ids_[0][0]}' OR Name = 'x'")
    assert err.message.endswith("The SOQL FIELDS function must have a LIMIT of at most 200")


# ---------------------------------------------------------------------------- FORMAT(convertCurrency())
def test_format_of_convert_currency_with_an_alias_like_the_format_reference_example(org):
    record = soql.query(
        org,
        "SELECT AnnualRevenue, FORMAT(AnnualRevenue) Amt, convertCurrency(AnnualRevenue) convertedAmount, "
        "FORMAT(convertCurrency(AnnualRevenue)) convertedCurrency FROM Account WHERE Name = 'Acme Corp'",
    )["records"][0]
    assert {k: v for k, v in record.items() if k != "attributes"} == {
        "AnnualRevenue": 1501.0,
        "Amt": "$1,501.00",
        "convertedAmount": 1501.0,
        "convertedCurrency": "$1,501.00",
    }


def test_sosl_returning_takes_format_of_convert_currency_with_an_alias(org):
    found = sosl.search(
        org, "FIND {Acme} RETURNING Account(Name, FORMAT(convertCurrency(AnnualRevenue)) revenue)"
    )
    [record] = found["searchRecords"]
    assert record["Name"] == "Acme Corp" and record["revenue"] == "$1,501.00"
