"""SOQL semantics a plain SQL translation gets wrong, checked on the small org.

Sources: SOQL and SOSL Reference -- "Comparison Operators" (case-insensitive strings,
LIKE wildcards and escapes, INCLUDES/EXCLUDES), "Date Formats and Date Literals in WHERE"
(ranges from midnight in the user's time zone; LAST_N_DAYS includes today), "ORDER BY"
(case-insensitive; nulls first by default), "Semi-Joins and Anti-Joins"; two-valued null
logic as real orgs answer it (https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/; glade's ``matches()`` mirrors it).
The org's clock is frozen on Wednesday 2024-05-15 12:00 UTC.
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import soql
from crmarena_sf.emulator.errors import SalesforceError
from small_org import names


def subjects(org, where: str, **options) -> set:
    return set(names(soql.query(org, f"SELECT Subject FROM Case WHERE {where}", **options)))


def account_names(org, where: str) -> set:
    return set(names(soql.query(org, f"SELECT Name FROM Account WHERE {where}"), "Name"))


# ---------------------------------------------------------------------------- names and strings
def test_names_are_case_insensitive_and_answers_use_canonical_casing(built):
    org, _ = built
    body = soql.query(org, "select NAME, industry, billingcity from ACCOUNT where name = 'ACME CORP'")
    record = body["records"][0]
    assert list(record) == ["attributes", "Name", "Industry", "BillingCity"]
    assert record["attributes"]["type"] == "Account"
    assert record["Name"] == "Acme Corp"


def test_string_comparisons_ignore_case(built):
    org, _ = built
    assert subjects(org, "Subject = 'ZIPPER BROKEN'") == {"Zipper broken"}
    assert subjects(org, "Subject IN ('late DELIVERY', 'nothing')") == {"Late delivery"}
    assert subjects(org, "Status = 'closed' AND Subject != 'LATE DELIVERY'") == {None}
    assert account_names(org, "Name > 'b'") == {"Globex", "Pat Lee"}


def test_like_ignores_case_and_honours_wildcards_and_escapes(built):
    org, _ = built
    assert subjects(org, "Subject LIKE 'z%'") == {"Zipper broken"}
    assert subjects(org, "Subject LIKE '%ER%'") == {"Zipper broken", "Late delivery"}
    assert subjects(org, "Subject LIKE 'Lat_ delivery'") == {"Late delivery"}
    assert subjects(org, "Subject LIKE 'Lat\\_ delivery'") == set()
    assert subjects(org, "Subject LIKE '100\\%'") == set()


# ---------------------------------------------------------------------------- nulls
def test_not_equal_matches_null_and_equals_null_tests_for_null(built):
    org, _ = built
    assert account_names(org, "Industry != 'Retail'") == {"Globex", "Pat Lee"}
    assert account_names(org, "Industry = null") == {"Globex", "Pat Lee"}
    assert account_names(org, "Industry != null") == {"Acme Corp"}


def test_ordering_comparisons_against_null_are_false_and_not_is_two_valued(built):
    org, _ = built
    assert account_names(org, "NumberOfEmployees < 200") == {"Acme Corp"}
    assert account_names(org, "NumberOfEmployees >= 200") == set()
    assert account_names(org, "NOT NumberOfEmployees < 200") == {"Globex", "Pat Lee"}
    assert account_names(org, "NOT (Industry = 'Retail' OR NumberOfEmployees > 1000)") == {
        "Globex",
        "Pat Lee",
    }


def test_in_and_not_in_with_nulls(built):
    org, _ = built
    assert account_names(org, "Industry NOT IN ('Retail')") == {"Globex", "Pat Lee"}
    assert account_names(org, "Industry IN ('Retail', null)") == {"Acme Corp", "Globex", "Pat Lee"}


# ---------------------------------------------------------------------------- typed values
def test_ids_of_15_or_18_characters_both_match(built):
    org, ids_ = built
    acme = ids_["acme"]
    assert account_names(org, f"Id = '{acme[:15]}'") == {"Acme Corp"}
    assert account_names(org, f"Id IN ('{acme}', '{ids_['globex'][:15]}')") == {"Acme Corp", "Globex"}
    assert subjects(org, f"AccountId = '{acme}'") == {"Zipper broken", "sizing question"}


def test_booleans_numbers_and_currency_literals(built):
    org, _ = built
    assert subjects(org, "IsClosed = true") == {"Late delivery", None}
    assert subjects(org, "IsClosed = FALSE") == {"Zipper broken", "sizing question"}
    assert account_names(org, "AnnualRevenue > 1000.5") == {"Acme Corp"}
    assert account_names(org, "AnnualRevenue < USD2000") == {"Acme Corp"}
    assert account_names(org, "NumberOfEmployees = -1") == set()


def test_datetime_literals_with_offsets(built):
    org, _ = built
    assert subjects(org, "CreatedDate >= 2024-05-15T08:00:00Z") == {"Zipper broken"}
    assert subjects(org, "CreatedDate >= 2024-05-15T10:00:00+02:00") == {"Zipper broken"}
    assert subjects(org, "CreatedDate > 2024-05-15T10:00:00+02:00") == set()
    assert subjects(org, "CreatedDate < 2024-01-01T00:00:00.000Z") == {None}


# ---------------------------------------------------------------------------- date literals
@pytest.mark.parametrize(
    "literal, expected",
    [
        ("TODAY", {"Zipper broken"}),
        ("YESTERDAY", set()),
        ("LAST_N_DAYS:5", {"Zipper broken", "Late delivery"}),
        ("LAST_N_DAYS:4", {"Zipper broken"}),
        ("N_DAYS_AGO:5", {"Late delivery"}),
        ("THIS_WEEK", {"Zipper broken"}),
        ("LAST_WEEK", {"Late delivery"}),
        ("THIS_MONTH", {"Zipper broken", "Late delivery"}),
        ("LAST_MONTH", {"sizing question"}),
        ("LAST_N_MONTHS:6", {"sizing question", None}),
        ("THIS_QUARTER", {"Zipper broken", "Late delivery", "sizing question"}),
        ("LAST_QUARTER", set()),
        ("LAST_YEAR", {None}),
        ("N_YEARS_AGO:1", {None}),
        ("THIS_FISCAL_YEAR", {"Zipper broken", "Late delivery", "sizing question"}),
        ("NEXT_N_DAYS:30", set()),
    ],
)
def test_date_literals_are_ranges_from_midnight(built, literal, expected):
    org, _ = built
    assert subjects(org, f"CreatedDate = {literal}") == expected


def test_greater_means_after_the_range_and_less_before_it(built):
    org, _ = built
    assert subjects(org, "CreatedDate > LAST_MONTH") == {"Zipper broken", "Late delivery"}
    assert subjects(org, "CreatedDate < THIS_MONTH") == {"sizing question", None}
    assert subjects(org, "CreatedDate <= LAST_MONTH") == {"sizing question", None}
    assert subjects(org, "CreatedDate != THIS_YEAR") == {None}
    assert subjects(org, "CreatedDate IN (TODAY, LAST_YEAR)") == {"Zipper broken", None}


def test_date_fields_compare_dates(built):
    org, _ = built
    body = soql.query(org, "SELECT LastName FROM Contact WHERE Birthdate = 1990-05-20")
    assert names(body, "LastName") == ["Brown"]
    assert names(
        soql.query(org, "SELECT LastName FROM Contact WHERE Birthdate < LAST_N_YEARS:10"), "LastName"
    ) == ["Brown"]


def test_date_literals_start_at_midnight_in_the_running_users_time_zone(built):
    org, _ = built
    tokyo = org.fork()
    tokyo.timezone = "Asia/Tokyo"  # 2023-12-31T23:00Z is 2024-01-01 08:00 in Tokyo
    assert subjects(tokyo, "CreatedDate = THIS_YEAR") == {
        "Zipper broken",
        "Late delivery",
        "sizing question",
        None,
    }
    assert subjects(tokyo, "CreatedDate = LAST_YEAR") == set()
    assert subjects(org, "CreatedDate = LAST_YEAR") == {None}


def test_today_comes_from_the_orgs_own_clock(built):
    org, _ = built
    frozen = org.fork()
    frozen.clock.freeze("2024-04-02T18:00:00Z")
    assert subjects(frozen, "CreatedDate = TODAY") == {"sizing question"}
    assert subjects(org, "CreatedDate = TODAY") == {"Zipper broken"}


def test_fiscal_literals_follow_the_organizations_fiscal_year(built):
    org, _ = built
    april = org.fork()
    with april.transaction():
        april.before_write("Organization")
        april.con.execute('UPDATE "Organization" SET "FiscalYearStartMonth" = 4')
    # FY2025 runs 2024-04-01 .. 2025-03-31, named after the year it ends in
    assert subjects(april, "CreatedDate = THIS_FISCAL_YEAR") == {
        "Zipper broken",
        "Late delivery",
        "sizing question",
    }
    assert subjects(april, "CreatedDate = LAST_FISCAL_QUARTER") == set()
    assert subjects(april, "CreatedDate = N_FISCAL_QUARTERS_AGO:2") == {None}
    body = soql.query(april, "SELECT FISCAL_YEAR(CreatedDate) fy, FISCAL_QUARTER(CreatedDate) fq, COUNT(Id) n "
                      "FROM Case GROUP BY FISCAL_YEAR(CreatedDate), FISCAL_QUARTER(CreatedDate) "
                      "ORDER BY FISCAL_YEAR(CreatedDate)")  # fmt: skip
    assert [(r["fy"], r["fq"], r["n"]) for r in body["records"]] == [(2024, 3, 1), (2025, 1, 3)]


# ---------------------------------------------------------------------------- other operators
def test_includes_and_excludes_on_multi_select_picklists(built):
    org, _ = built
    surveys = lambda where: set(names(soql.query(org, f"SELECT Name FROM Survey__c WHERE {where}"), "Name"))  # noqa: E731
    assert surveys("Topics__c INCLUDES ('fit;PRICE')") == {"S1"}
    assert surveys("Topics__c INCLUDES ('fit;delivery')") == set()
    assert surveys("Topics__c INCLUDES ('fit;delivery', 'Delivery')") == {"S2"}
    assert surveys("Topics__c EXCLUDES ('Price')") == {"S2", "S3"}


def test_semi_join_and_anti_join(built):
    org, _ = built
    open_cases = "(SELECT AccountId FROM Case WHERE IsClosed = false)"
    assert account_names(org, f"Id IN {open_cases}") == {"Acme Corp"}
    assert account_names(org, f"Id NOT IN {open_cases}") == {"Globex", "Pat Lee"}
    closed_by_acme = soql.query(
        org,
        "SELECT LastName FROM Contact WHERE AccountId IN (SELECT Id FROM Account WHERE Name LIKE 'acme%')",
    )
    assert set(names(closed_by_acme, "LastName")) == {"Smith", "Jones"}


def test_recycle_bin_rows_only_in_query_all(built):
    org, ids_ = built
    assert "Gone" not in subjects(org, "Status = 'New'")
    every = soql.query(org, "SELECT Subject, IsDeleted FROM Case WHERE Status = 'New'", include_deleted=True)
    assert {(r["Subject"], r["IsDeleted"]) for r in every["records"]} == {
        ("Zipper broken", False),
        ("Gone", True),
    }


def test_derived_fields_behave_as_in_a_real_org_also_through_relationships(built):
    org, ids_ = built
    assert account_names(org, "Name = 'pat lee'") == {"Pat Lee"}
    body = soql.query(
        org, "SELECT Contact.Name, Contact.Account.Name FROM Case WHERE Contact.Name LIKE 'ann%'"
    )
    record = body["records"][0]
    assert record["Contact"]["Name"] == "Ann Smith" and record["Contact"]["Account"]["Name"] == "Acme Corp"
    assert subjects(org, "Owner.Name = 'support queue'") == {None}
    assert subjects(
        org, "Account.Name = 'Globex' AND (Owner.FirstName = 'Admin' OR Owner.LastName = 'x')"
    ) == {"Late delivery"}


def test_using_scope_mine_keeps_the_running_users_records(built):
    org, _ = built
    mine = set(names(soql.query(org, "SELECT Subject FROM Case USING SCOPE mine")))
    assert mine == {"Zipper broken", "Late delivery", "sizing question"}
    assert (
        soql.query(org, "SELECT Id FROM Case USING SCOPE everything WITH SECURITY_ENFORCED FOR VIEW")[
            "totalSize"
        ]
        == 4
    )


# ---------------------------------------------------------------------------- ORDER BY
def test_order_by_ignores_case_and_puts_nulls_first_ascending_last_descending(built):
    org, _ = built
    ordered = lambda q: names(soql.query(org, "SELECT Subject FROM Case ORDER BY " + q))  # noqa: E731
    assert ordered("Subject") == [None, "Late delivery", "sizing question", "Zipper broken"]
    assert ordered("Subject DESC") == ["Zipper broken", "sizing question", "Late delivery", None]
    assert ordered("Subject ASC NULLS LAST") == ["Late delivery", "sizing question", "Zipper broken", None]
    assert ordered("Subject DESC NULLS FIRST") == [None, "Zipper broken", "sizing question", "Late delivery"]


def test_order_by_picklist_follows_the_picklist_order(built):
    org, _ = built
    body = soql.query(org, "SELECT Status FROM Case ORDER BY Status, CreatedDate DESC")
    assert names(body, "Status") == ["New", "Working", "Closed", "Closed"]
    assert names(
        soql.query(org, "SELECT Subject FROM Case ORDER BY Account.Name DESC NULLS LAST, Subject")
    ) == [
        "Late delivery",
        "sizing question",
        "Zipper broken",
        None,
    ]


def test_limit_and_offset(built):
    org, _ = built
    body = soql.query(org, "SELECT Subject FROM Case ORDER BY CreatedDate LIMIT 2 OFFSET 1")
    assert names(body) == ["sizing question", "Late delivery"]
    assert body["totalSize"] == 2


# ---------------------------------------------------------------------------- aggregates
def test_min_and_max_of_a_picklist_follow_its_defined_order(built):
    """Aggregate Functions (sforce_api_calls_soql_select_agg_functions.htm): MIN()/MAX() on picklists use the
    picklist's sort order. Case.Priority is High, Medium, Low; Status is New, Working, Escalated, Closed."""
    org, _ = built
    [row] = soql.query(
        org, "SELECT MIN(Priority) lo, MAX(Priority) hi, MIN(Status) s, MAX(Status) t FROM Case"
    )["records"]
    assert (row["lo"], row["hi"], row["s"], row["t"]) == ("High", "Low", "New", "Closed")
    per_status = soql.query(org, "SELECT Status, MAX(Priority) p FROM Case GROUP BY Status ORDER BY Status")
    assert [(r["Status"], r["p"]) for r in per_status["records"]] == [
        ("New", "High"),
        ("Working", "Medium"),
        ("Closed", "Low"),
    ]


def test_rollup_subtotals_follow_their_groups_and_the_grand_total_comes_last(built):
    """GROUP BY ROLLUP (sforce_api_calls_soql_select_groupby_rollup.htm): each group's rows, its subtotal, the
    grand total last; groups in the field's ORDER BY order (picklists in their defined order)."""
    org, _ = built
    body = soql.query(org, "SELECT Status, Priority, COUNT(Id) n FROM Case GROUP BY ROLLUP(Status, Priority)")
    assert [(r["Status"], r["Priority"], r["n"]) for r in body["records"]] == [
        ("New", "High", 1),
        ("New", None, 1),
        ("Working", "Medium", 1),
        ("Working", None, 1),
        ("Closed", "Medium", 1),
        ("Closed", "Low", 1),
        ("Closed", None, 2),
        (None, None, 4),
    ]


def test_cube_lists_subtotals_of_each_field_and_the_grand_total_last(built):
    """GROUP BY CUBE (sforce_api_calls_soql_select_groupby_cube.htm)."""
    org, _ = built
    body = soql.query(org, "SELECT Status, Priority, COUNT(Id) n FROM Case GROUP BY CUBE(Status, Priority)")
    rows = [(r["Status"], r["Priority"], r["n"]) for r in body["records"]]
    assert rows[-1] == (None, None, 4)
    assert rows[-4:-1] == [(None, "High", 1), (None, "Medium", 2), (None, "Low", 1)]
    assert rows.index(("Closed", None, 2)) == rows.index(("Closed", "Low", 1)) + 1


def test_group_by_text_that_differs_only_in_case_is_one_group(built):
    """Comparison Operators: SOQL compares text ignoring case; it groups it the same way."""
    org, _ = built
    fork = org.fork()
    fork.insert("Account", {"Name": "ACME CORP", "Industry": "RETAIL"})
    fork.insert("Account", {"Name": "acme corp"})
    body = soql.query(fork, "SELECT Name, COUNT(Id) n FROM Account GROUP BY Name ORDER BY Name")
    rows = [(r["Name"], r["n"]) for r in body["records"]]
    assert [n for _, n in rows] == [3, 1, 1] and rows[0][0].lower() == "acme corp"
    industries = soql.query(
        fork, "SELECT Industry, COUNT(Id) n FROM Account WHERE Industry != null GROUP BY Industry"
    )
    assert [r["n"] for r in industries["records"]] == [2]
    assert soql.query(fork, "SELECT COUNT() FROM Account GROUP BY Name")["totalSize"] == 3
    fork.close()


@pytest.mark.parametrize("rollup", [False, True])
def test_a_group_of_spellings_shows_the_same_one_whatever_order_they_were_written_in(built, rollup):
    """Decision (the reference does not say which spelling a case-insensitive group shows): the least
    in code-point order, upper case first, so the answer never depends on the order rows were written."""
    org, _ = built
    spellings = ["zeta labs", "Zeta Labs", "ZETA LABS", "zeta Labs"]
    group_by = "ROLLUP(Name)" if rollup else "Name"
    text = f"SELECT Name, COUNT(Id) n FROM Account WHERE Name LIKE 'zeta%' GROUP BY {group_by}"
    shown = []
    for order in (spellings, spellings[::-1], spellings[1:] + spellings[:1]):
        fork = org.fork()
        for name in order:
            fork.insert("Account", {"Name": name})
        shown.append([(r["Name"], r["n"]) for r in soql.query(fork, text)["records"]])
        fork.close()
    expected = [("ZETA LABS", 4), (None, 4)] if rollup else [("ZETA LABS", 4)]
    assert shown == [expected] * 3


# ---------------------------------------------------------------------------- polymorphic paths
def test_a_polymorphic_path_continues_through_the_name_entitys_relationships(built):
    """Understanding Polymorphic Keys and Relationships; Object Reference, "Name" (ProfileId, UserRoleId):
    ``Owner.Profile.Name`` and ``Owner.UserRole.Name`` on Case; a queue owner has no profile."""
    org, _ = built
    body = soql.query(
        org, "SELECT Owner.Name, Owner.Profile.Name, Owner.UserRole.Name FROM Case WHERE Status = 'Closed' "
        "ORDER BY CreatedDate",
    )  # fmt: skip
    queue, user = (r["Owner"] for r in body["records"])
    assert queue["attributes"]["type"] == "Group" and queue["Profile"] is None and queue["UserRole"] is None
    assert user["attributes"]["type"] == "User"
    assert (
        user["Profile"]["attributes"]["type"] == "Profile"
        and user["Profile"]["Name"] == "System Administrator"
    )
    assert (
        soql.query(org, "SELECT COUNT() FROM Case WHERE Owner.Profile.Name = 'system administrator'")[
            "totalSize"
        ]
        == 3
    )
    with pytest.raises(SalesforceError) as info:
        soql.query(org, "SELECT Owner.Account.Name FROM Case")
    assert "Didn't understand relationship 'Account'" in info.value.message


# ---------------------------------------------------------------------------- batches
def test_child_subquery_rows_count_toward_the_batch_size(built):
    """Developer Limits, "SOQL and SOSL Limits for Search Queries": 2,000 results per request, including results
    from child objects; REST "Query Options Header" (batchSize at least 200)."""
    org, _ = built
    fork = org.fork()
    for n in range(3):
        account = fork.insert("Account", {"Name": f"Busy {n}"})
        for i in range(150):
            fork.insert("Contact", {"LastName": f"C{n}-{i:03d}", "AccountId": account})
    text = "SELECT Name, (SELECT LastName FROM Contacts) FROM Account WHERE Name LIKE 'Busy%' ORDER BY Name"
    first = soql.query(fork, text, batch_size=200)
    assert first["totalSize"] == 3 and first["done"] is False
    assert [r["Name"] for r in first["records"]] == ["Busy 0"]
    assert first["records"][0]["Contacts"]["totalSize"] == 150
    second = soql.query_more(fork, first["nextRecordsUrl"].rsplit("/", 1)[1])
    assert [r["Name"] for r in second["records"]] == ["Busy 1"] and second["done"] is False
    everything = soql.query(fork, text, batch_size=2000)
    assert len(everything["records"]) == 3 and everything["done"] is True
    fork.close()
