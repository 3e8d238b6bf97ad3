"""FIND on a small org: field groups, operators, wildcards, phrases, ranking, RETURNING, limits, errors.

Sources: SOQL and SOSL Reference (sforce_api_calls_sosl_find.htm, _in.htm, _returning.htm,
_limit.htm, _offset.htm, _examples.htm); REST API Developer Guide, dome_search.htm (the
``searchRecords`` body); Salesforce Help, "How Search Works for Knowledge Articles"; the live
CRMArena org's behaviour (a live CRMArena org's answers in neulab/agent-data-protocol datasets/crmarena/sample_raw.json).
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import ids, sosl
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.dml import write_rows
from crmarena_sf.emulator.store.org import Org


def add_article(org: Org, number: int, title: str, body: str, status: str = "Online") -> str:
    """A published article row, written the way a loader writes CRMArena's (see specs/knowledge_kav.py)."""
    now = org.clock.now()
    record_id = ids.make_id("ka0", number)
    row = {
        "Id": record_id,
        "KnowledgeArticleId": ids.make_id("kA0", number),
        "Title": title,
        "UrlName": f"article-{number}",
        "FAQ_Answer__c": body,
        "PublishStatus": status,
        "Language": "en_US",
        "IsDeleted": False,
        "VersionNumber": 1,
        "IsLatestVersion": True,
        "ArticleNumber": f"{number:09d}",
        "ArticleType": "Knowledge__kav",
        "ValidationStatus": "Not Validated",
        "OwnerId": org.user_id,
        "CreatedDate": now,
        "CreatedById": org.user_id,
        "LastModifiedDate": now,
        "LastModifiedById": org.user_id,
        "SystemModstamp": now,
    }
    with org.transaction():
        org.before_write("Knowledge__kav")
        write_rows(org, org.schema.get("Knowledge__kav"), [row])
    return record_id


@pytest.fixture(scope="module")
def org():
    org = Org.new()
    r = {}
    r["acme"] = org.insert(
        "Account",
        {"Name": "Acme Corporation", "Website": "acme.com", "Phone": "(336) 555-1234", "Site": "Downtown"},
    )
    r["globex"] = org.insert("Account", {"Name": "Globex", "Description": "An acme partner"})
    gone = org.insert("Account", {"Name": "Acme Deleted"})
    org.delete("Account", gone)
    r["smith"] = org.insert(
        "Contact",
        {"FirstName": "Joe", "LastName": "Smith", "Email": "joe.smith@acme.com", "Phone": "415-555-0000"},
    )
    r["smythe"] = org.insert("Contact", {"FirstName": "Joe", "LastName": "Smythe", "Email": "joe@smythe.org"})
    r["mary"] = org.insert(
        "Contact", {"FirstName": "Mary", "LastName": "Jones", "AssistantName": "Joe Smith"}
    )
    r["case"] = org.insert(
        "Case",
        {
            "Subject": "Broken zipper on jacket",
            "Description": "The zipper broke after two days",
            "SuppliedName": "Pat Doe",
        },
    )
    r["leggings"] = org.insert(
        "Product2", {"Name": "Women's Fitness Leggings", "Description": "Stretchy and soft"}
    )
    r["shoes"] = org.insert("Product2", {"Name": "Trail Running Shoes", "Description": "For trail runners"})
    r["mens"] = org.insert("Product2", {"Name": "Men's Trail Jacket", "Description": "Waterproof shell"})
    r["kids"] = org.insert(
        "Product2", {"Name": "Kids' Rain Jacket", "Description": "A jacket for rainy days"}
    )
    r["anvil"] = org.insert("Product2", {"Name": "Acme Anvil"})
    r["returns"] = add_article(
        org,
        1,
        "Return Policy",
        "<p>Items can be returned within 30 days &amp; get a refund. Women&#39;s swimwear is <strong>final</strong> sale.</p>",
    )
    r["shipping"] = add_article(
        org, 2, "Shipping Times", "<p>Orders ship in 3-5 business days; acme freight too.</p>"
    )
    r["refunds"] = add_article(
        org,
        3,
        "Refund Guide",
        "<p>A refund goes to the original payment method. Refund requests take a day.</p>",
    )
    r["draft"] = add_article(org, 4, "Refund Draft", "<p>refund</p>", status="Draft")
    org.refs = r
    return org


def found(org, text: str) -> list[str]:
    return [rec["Id"] for rec in sosl.search(org, text)["searchRecords"]]


def names(org, text: str, key: str = "Name") -> list:
    return [rec[key] for rec in sosl.search(org, text)["searchRecords"]]


def error(org, text: str) -> SalesforceError:
    with pytest.raises(SalesforceError) as info:
        sosl.search(org, text)
    return info.value


# ---------------------------------------------------------------------------- shape and scope
def test_without_returning_every_default_searchable_object_answers_ids(org):
    """_returning.htm: the Ids of all searchable objects; products and articles only when named."""
    body = sosl.search(org, "FIND {acme}", api_version="58.0")
    assert body["searchRecords"] == [
        {"attributes": {"type": "Account", "url": f"/services/data/v58.0/sobjects/Account/{i}"}, "Id": i}
        for i in (org.refs["acme"], org.refs["globex"])
    ] + [
        {
            "attributes": {
                "type": "Contact",
                "url": f"/services/data/v58.0/sobjects/Contact/{org.refs['smith']}",
            },
            "Id": org.refs["smith"],
        }
    ]


def test_returning_without_fields_answers_ids_in_returning_order(org):
    body = sosl.search(org, "FIND {acme} RETURNING Product2, Account")
    assert [(r["attributes"]["type"], r["Id"]) for r in body["searchRecords"]] == [
        ("Product2", org.refs["anvil"]),
        ("Account", org.refs["acme"]),
        ("Account", org.refs["globex"]),
    ]


def test_returning_fields_come_back_as_soql_shapes_them(org):
    body = sosl.search(org, "FIND {leggings} RETURNING Product2(Id, Name, Description)")
    assert body == {
        "searchRecords": [
            {
                "attributes": {
                    "type": "Product2",
                    "url": f"/services/data/v62.0/sobjects/Product2/{org.refs['leggings']}",
                },
                "Id": org.refs["leggings"],
                "Name": "Women's Fitness Leggings",
                "Description": "Stretchy and soft",
            }
        ]
    }


def test_no_match_is_an_empty_list(org):
    assert sosl.search(org, "FIND {zebra} RETURNING Account(Name)") == {"searchRecords": []}


def test_deleted_records_never_match(org):
    assert "Acme Deleted" not in names(org, "FIND {acme} RETURNING Account(Name)")


# ---------------------------------------------------------------------------- field groups (sforce_api_calls_sosl_in.htm)
def test_all_fields_reads_every_text_field(org):
    assert names(org, "FIND {partner} IN ALL FIELDS RETURNING Account(Name)") == ["Globex"]


def test_name_fields_reads_name_fields_and_the_documented_extras(org):
    assert names(org, "FIND {acme} IN NAME FIELDS RETURNING Account(Name)") == ["Acme Corporation"]
    assert names(org, "FIND {downtown} IN NAME FIELDS RETURNING Account(Name)") == [
        "Acme Corporation"
    ]  # Site
    assert names(org, "FIND {zipper} IN NAME FIELDS RETURNING Case(Subject)", "Subject") == [
        "Broken zipper on jacket"
    ]
    assert names(org, "FIND {broke} IN NAME FIELDS RETURNING Case(Subject)", "Subject") == []
    # Contact's extras include AssistantName: Mary Jones's assistant is Joe Smith
    assert sorted(names(org, "FIND {Joe Smith} IN NAME FIELDS RETURNING Contact(Name)")) == [
        "Joe Smith",
        "Mary Jones",
    ]
    assert names(org, "FIND {smythe.org} IN NAME FIELDS RETURNING Contact(Name)") == []


def test_email_fields_read_email_fields_only(org):
    assert names(org, "FIND {joe.smith@acme.com} IN EMAIL FIELDS RETURNING Contact(Name)") == ["Joe Smith"]
    assert names(org, "FIND {acme} IN EMAIL FIELDS RETURNING Account(Name)") == []


def test_phone_fields_match_whatever_the_punctuation(org):
    for term in ("3365551234", "336\\-555\\-1234", '"(336) 555\\-1234"', "555\\-1234"):
        assert names(org, f"FIND {{{term}}} IN PHONE FIELDS RETURNING Account(Name)") == [
            "Acme Corporation"
        ], term
    assert names(org, "FIND {acme} IN PHONE FIELDS RETURNING Account(Name)") == []


def test_products_and_articles_ignore_the_search_group(org):
    """_in.htm: the IN clause "doesn't apply to articles, documents, ... products, and solutions"."""
    assert names(org, "FIND {stretchy} IN NAME FIELDS RETURNING Product2(Name)") == [
        "Women's Fitness Leggings"
    ]
    assert names(org, "FIND {freight} IN PHONE FIELDS RETURNING Knowledge__kav(Title)", "Title") == [
        "Shipping Times"
    ]


# ---------------------------------------------------------------------------- words, phrases, operators
def test_words_without_operator_must_all_match_on_products(org):
    assert names(org, "FIND {Trail Jacket} RETURNING Product2(Name)") == ["Men's Trail Jacket"]
    assert names(org, "FIND {trail zebra} RETURNING Product2(Name)") == []


def test_womens_does_not_find_women_apostrophe_s_as_on_the_live_org(org):
    """a live CRMArena org's answers in neulab/agent-data-protocol datasets/crmarena/sample_raw.json: FIND {Womens Fitness Leggings} on Product2 returned [] on the live org."""
    assert (
        names(org, "FIND {Womens Fitness Leggings} IN ALL FIELDS RETURNING Product2(Id, Name, Description)")
        == []
    )
    assert names(org, "FIND {Women\\'s Fitness Leggings} RETURNING Product2(Name)") == [
        "Women's Fitness Leggings"
    ]


def test_regular_plurals_and_singulars_find_each_other(org):
    """Salesforce Help, knowledge search: search uses lemmatization (here: regular noun plurals)."""
    assert names(org, "FIND {jackets} RETURNING Product2(Name ORDER BY Name)") == [
        "Kids' Rain Jacket",
        "Men's Trail Jacket",
    ]
    assert names(org, "FIND {policies} RETURNING Knowledge__kav(Title)", "Title") == ["Return Policy"]
    assert names(
        org, "FIND {refunds} RETURNING Knowledge__kav(Title WHERE PublishStatus = 'Online')", "Title"
    ) == [
        "Refund Guide",
        "Return Policy",
    ]
    assert names(org, 'FIND {"refunds"} RETURNING Knowledge__kav(Title)', "Title") == []  # quoted: exactly


def test_case_does_not_matter(org):
    assert names(org, "FIND {TRAIL jACKET} RETURNING Product2(Name)") == ["Men's Trail Jacket"]


def test_phrases_need_the_words_in_order_and_adjacent(org):
    assert names(org, 'FIND {"trail jacket"} RETURNING Product2(Name)') == ["Men's Trail Jacket"]
    assert names(org, 'FIND {"jacket trail"} RETURNING Product2(Name)') == []
    assert names(org, 'FIND {"running trail"} RETURNING Product2(Name)') == []


def test_or_and_and_not_and_parentheses(org):
    assert sorted(names(org, "FIND {leggings OR anvil} RETURNING Product2(Name)")) == [
        "Acme Anvil",
        "Women's Fitness Leggings",
    ]
    assert names(org, "FIND {jacket AND NOT rain} RETURNING Product2(Name)") == ["Men's Trail Jacket"]
    assert names(org, "FIND {jacket AND (rain OR waterproof)} RETURNING Product2(Name ORDER BY Name)") == [
        "Kids' Rain Jacket",
        "Men's Trail Jacket",
    ]
    assert names(org, "FIND {trail AND jacket} RETURNING Product2(Name)") == ["Men's Trail Jacket"]


def test_operators_are_evaluated_left_to_right(org):
    """(anvil OR leggings) AND stretchy, not anvil OR (leggings AND stretchy)."""
    assert names(org, "FIND {anvil OR leggings AND stretchy} RETURNING Product2(Name)") == [
        "Women's Fitness Leggings"
    ]


def test_wildcards(org):
    assert sorted(names(org, "FIND {jack*} RETURNING Product2(Name)")) == [
        "Kids' Rain Jacket",
        "Men's Trail Jacket",
    ]
    assert sorted(names(org, "FIND {jacket*} RETURNING Product2(Name)")) == [
        "Kids' Rain Jacket",
        "Men's Trail Jacket",
    ]
    # Mary Jones's assistant is Joe Smith: AssistantName is searchable text too
    assert sorted(names(org, "FIND {sm?th} RETURNING Contact(LastName)", "LastName")) == ["Jones", "Smith"]
    assert sorted(names(org, "FIND {sm*} RETURNING Contact(LastName)", "LastName")) == [
        "Jones",
        "Smith",
        "Smythe",
    ]
    assert names(org, 'FIND {"trail jack*"} RETURNING Product2(Name)') == ["Men's Trail Jacket"]


def test_rich_text_tags_and_entities_are_not_words(org):
    assert names(org, "FIND {amp} RETURNING Knowledge__kav(Title)", "Title") == []
    assert names(org, "FIND {strong} RETURNING Knowledge__kav(Title)", "Title") == []
    assert names(org, "FIND {women} RETURNING Knowledge__kav(Title)", "Title") == ["Return Policy"]
    assert names(org, "FIND {final sale} RETURNING Knowledge__kav(Title)", "Title") == ["Return Policy"]


# ---------------------------------------------------------------------------- articles and ranking
def test_articles_fall_back_to_or_when_no_article_has_every_word(org):
    """Salesforce Help, knowledge search: no article matching all terms -> OR, more terms ranked higher."""
    titles = names(
        org,
        "FIND {how long does shipping take for acme orders} RETURNING Knowledge__kav(Title)",
        "Title",
    )
    assert titles[0] == "Shipping Times"


def test_articles_keep_and_when_some_article_has_every_word(org):
    assert names(org, "FIND {refund payment} RETURNING Knowledge__kav(Title)", "Title") == ["Refund Guide"]


def test_the_obvious_best_match_ranks_first(org):
    """A title match and repeated body mentions beat a single mention in a body."""
    titles = names(
        org, "FIND {refund} RETURNING Knowledge__kav(Title WHERE PublishStatus = 'Online')", "Title"
    )
    assert titles == ["Refund Guide", "Return Policy"]


def test_ranking_is_deterministic_ties_go_to_the_smaller_id(org):
    fork = org.fork()
    twins = [fork.insert("Product2", {"Name": "Identical Twin Widget"}) for _ in range(3)]
    assert found(fork, "FIND {twin} RETURNING Product2") == sorted(twins)
    assert found(fork, "FIND {twin} RETURNING Product2") == sorted(twins)


# ---------------------------------------------------------------------------- RETURNING clauses
def test_the_crmarena_article_search(org):
    body = sosl.search(
        org,
        "FIND {refund} IN ALL FIELDS RETURNING Knowledge__kav(Id, Title, FAQ_Answer__c "
        "WHERE PublishStatus='Online' AND Language='en_US')",
    )
    records = body["searchRecords"]
    assert [r["Id"] for r in records] == [org.refs["refunds"], org.refs["returns"]]
    assert list(records[0]) == ["attributes", "Id", "Title", "FAQ_Answer__c"]
    assert org.refs["draft"] not in [r["Id"] for r in records]


def test_where_order_by_limit_and_offset(org):
    base = "FIND {jacket OR shoes OR leggings} RETURNING Product2(Name"
    assert names(org, base + " ORDER BY Name)") == [
        "Kids' Rain Jacket",
        "Men's Trail Jacket",
        "Trail Running Shoes",
        "Women's Fitness Leggings",
    ]
    assert names(org, base + " WHERE Name LIKE '%Trail%' ORDER BY Name DESC)") == [
        "Trail Running Shoes",
        "Men's Trail Jacket",
    ]
    assert names(org, base + " ORDER BY Name LIMIT 2)") == ["Kids' Rain Jacket", "Men's Trail Jacket"]
    assert names(org, base + " ORDER BY Name LIMIT 2 OFFSET 1)") == [
        "Men's Trail Jacket",
        "Trail Running Shoes",
    ]
    assert names(org, base + " LIMIT 0)") == []


def test_the_overall_limit_is_shared_evenly_between_objects(org):
    """_limit.htm: with an overall limit, "results are evenly distributed among the objects returned"."""
    # 2 accounts, 3 contacts and 3 products match; 4 rows: one each, the one left to the first object
    body = sosl.search(
        org, "FIND {acme OR joe OR jacket} RETURNING Account(Id), Contact(Id), Product2(Id) LIMIT 4"
    )
    assert [r["attributes"]["type"] for r in body["searchRecords"]] == [
        "Account",
        "Account",
        "Contact",
        "Product2",
    ]
    body = sosl.search(org, "FIND {acme OR joe} RETURNING Account(Id), Contact(Id) LIMIT 4")
    assert [r["attributes"]["type"] for r in body["searchRecords"]] == [
        "Account",
        "Account",
        "Contact",
        "Contact",
    ]
    assert (
        len(
            sosl.search(org, "FIND {acme OR joe} RETURNING Account(Id), Contact(Id) LIMIT 100")[
                "searchRecords"
            ]
        )
        == 5
    )


def test_an_object_limit_leaves_the_rest_to_the_others(org):
    body = sosl.search(org, "FIND {acme OR joe} RETURNING Account(Id LIMIT 1), Contact(Id) LIMIT 4")
    types = [r["attributes"]["type"] for r in body["searchRecords"]]
    assert types == ["Account", "Contact", "Contact", "Contact"]


# ---------------------------------------------------------------------------- errors
def test_unknown_object_is_soqls_invalid_type(org):
    err = error(org, "FIND {acme} RETURNING Acount(Id)")
    assert err.error_code == "INVALID_TYPE"
    assert err.message == (
        "\nFIND {acme} RETURNING Acount(Id)\n                      ^\nERROR at Row:1:Column:23\n"
        "sObject type 'Acount' is not supported. If you are attempting to use a custom object, be sure to "
        "append the '__c' after the entity name. Please reference your WSDL or the describe call for the "
        "appropriate names."
    )


def test_unknown_field_is_soqls_invalid_field(org):
    err = error(org, "FIND {acme} RETURNING Account(Id, Nmae)")
    assert err.error_code == "INVALID_FIELD"
    assert err.message.endswith(
        "ERROR at Row:1:Column:35\nNo such column 'Nmae' on entity 'Account'. If you are attempting to use a "
        "custom field, be sure to append the '__c' after the custom field name. Please reference your WSDL or "
        "the describe call for the appropriate names."
    )


def test_errors_in_where_are_the_soql_engines(org):
    err = error(org, "FIND {acme} RETURNING Account(Id WHERE Nmae = 'x')")
    assert err.error_code == "INVALID_FIELD"
    assert "No such column 'Nmae' on entity 'Account'" in err.message


def test_fields_are_checked_even_when_nothing_matches(org):
    assert error(org, "FIND {zebra} RETURNING Account(Nmae)").error_code == "INVALID_FIELD"


def test_an_object_that_is_not_searchable_cannot_be_returned(org):
    err = error(org, "FIND {acme} RETURNING OrderItem(Id)")
    assert err.error_code == "INVALID_TYPE"
    assert err.message.endswith("entity type OrderItem does not support search")


def test_a_non_string_statement_is_malformed(org):
    assert error(org, None).error_code == "MALFORMED_SEARCH"


def test_through_simple_salesforce(org):
    """The REST /search resource answers simple-salesforce's search() and quick_search() with these bodies."""
    import crmarena_sf

    sf = crmarena_sf.connect(org=org)
    body = sf.search("FIND {leggings} RETURNING Product2(Id, Name)")
    assert [r["Name"] for r in body["searchRecords"]] == ["Women's Fitness Leggings"]
    assert [
        r["Id"] for r in sf.quick_search("anvil")["searchRecords"]
    ] == []  # products must be named in RETURNING


PATH_QUERIES = [
    "FIND {jacket} RETURNING Product2(Name)",
    "FIND {jackets OR leggings} RETURNING Product2(Name)",
    'FIND {"trail jack*"} RETURNING Product2(Name)',
    "FIND {sm?th OR sm*e} RETURNING Contact(LastName)",
    "FIND {acme AND NOT partner} IN ALL FIELDS RETURNING Account(Name), Contact(Name)",
    "FIND {3365551234} IN PHONE FIELDS RETURNING Account(Name)",
    "FIND {joe.smith@acme.com} IN EMAIL FIELDS RETURNING Contact(Name)",
    "FIND {how long does shipping take for acme orders} RETURNING Knowledge__kav(Title)",
    "FIND {refund}",
]


@pytest.mark.parametrize("path", ["duckdb, one scan per object", "duckdb, one lookup per word"])
def test_duckdb_lookups_answer_as_the_in_memory_postings_do(org, monkeypatch, path):
    """Large indexes are matched in DuckDB, small ones in memory (emulator/sosl/postings.py): same answers."""
    from crmarena_sf.emulator.sosl import matcher, postings

    expected = [sosl.search(org, q) for q in PATH_QUERIES]
    monkeypatch.setattr(postings, "MAX_TOKENS", 0)
    monkeypatch.setattr(matcher, "SHARED_SCAN_BELOW", 10**9 if "scan" in path else 0)
    assert [sosl.search(org, q) for q in PATH_QUERIES] == expected


def test_a_token_index_answers_as_the_scan_does_and_follows_writes(org, monkeypatch):
    """Large token tables get an index on ``token`` (emulator/sosl/index.py): same answers, before and after a write."""
    from crmarena_sf.emulator.sosl import index, matcher, postings

    expected = [sosl.search(org, q) for q in PATH_QUERIES]
    monkeypatch.setattr(postings, "MAX_TOKENS", 0)
    monkeypatch.setattr(matcher, "SHARED_SCAN_BELOW", 0)
    monkeypatch.setattr(index, "TOKEN_INDEX_MIN", 1)
    indexed = org.fork()
    index.build_objects(
        indexed, [indexed.schema.get(name) for name in ("Contact", "Knowledge__kav", "Product2")]
    )
    tables = {row[0] for row in indexed.con.execute("SELECT table_name FROM duckdb_indexes()").fetchall()}
    assert {"_sf_search_tokens_Contact", "_sf_search_tokens_Product2"} <= tables
    assert [sosl.search(indexed, q) for q in PATH_QUERIES] == expected
    fork = indexed.fork()  # its write copies the token table, index included
    fork.insert("Product2", {"Name": "Indexed Jacket"})
    assert "Indexed Jacket" in names(fork, "FIND {jacket} RETURNING Product2(Name)")
    copies = fork.con.execute("SELECT database_name, table_name FROM duckdb_indexes()").fetchall()
    assert (fork.catalog, "_sf_search_tokens_Product2") in copies
    assert "Indexed Jacket" not in names(indexed, "FIND {jacket} RETURNING Product2(Name)")


def test_forks_share_the_in_memory_postings_until_they_write(org):
    from crmarena_sf.emulator.sosl import index, postings

    sosl.search(org, "FIND {jacket} RETURNING Product2")
    fork = org.fork()
    sosl.search(fork, "FIND {jacket} RETURNING Product2")
    parent_copy = postings.postings_of(org, org.schema.get("Product2"), 10)
    assert postings.postings_of(fork, fork.schema.get("Product2"), 10) is parent_copy
    fork.insert("Product2", {"Name": "Fork Jacket"})
    assert "Fork Jacket" in names(fork, "FIND {jacket} RETURNING Product2(Name)")
    # the fork's search indexed its write (writes in memory are indexed by the next search)
    assert index.version(fork, "Product2") != index.version(org, "Product2")
    assert "Fork Jacket" not in names(org, "FIND {jacket} RETURNING Product2(Name)")
