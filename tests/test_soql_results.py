"""The REST body of a query: record shapes, aggregate results, wire formats and paging.

REST API Developer Guide, "Query" / "Query Options Header" and the record shapes of
https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_query.htm: attributes first with the API version in the url; keys in SELECT
order; parents nested (or null); child subqueries ``{totalSize, done, records}`` or null;
``AggregateResult`` rows with ``expr0``... for unaliased aggregates; ``COUNT()`` in
totalSize; 2,000 records per batch and a query locator in nextRecordsUrl.
"""

from __future__ import annotations

import datetime as dt

import pytest
from crmarena_sf.emulator import ids, soql
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.dml import write_rows
from small_org import QUEUE_ID, names


def one(org, text: str, **options) -> dict:
    body = soql.query(org, text, **options)
    assert body["totalSize"] == 1 and body["done"] is True, body
    return body["records"][0]


# ---------------------------------------------------------------------------- records
def test_a_record_has_attributes_then_the_selected_fields_in_order(built):
    org, ids_ = built
    record = one(org, f"SELECT Subject, Id, Status FROM Case WHERE Id = '{ids_['c1']}'", api_version="59.0")
    assert record == {
        "attributes": {"type": "Case", "url": f"/services/data/v59.0/sobjects/Case/{ids_['c1']}"},
        "Subject": "Zipper broken",
        "Id": ids_["c1"],
        "Status": "New",
    }
    assert list(record) == ["attributes", "Subject", "Id", "Status"]


def test_wire_formats(built):
    org, ids_ = built
    record = one(
        org,
        f"SELECT CreatedDate, ClosedDate, IsClosed, IsEscalated FROM Case WHERE Id = '{ids_['c2']}'",
    )
    assert record["CreatedDate"] == "2024-05-10T23:30:00.000+0000"
    assert record["ClosedDate"] == "2024-05-12T10:00:00.000+0000"
    assert record["IsClosed"] is True and record["IsEscalated"] is False
    contact = one(org, "SELECT Birthdate FROM Contact WHERE LastName = 'Brown'")
    assert contact["Birthdate"] == "1990-05-20"
    survey = one(org, "SELECT Score__c FROM Survey__c WHERE Name = 'S1'")
    assert survey["Score__c"] == 87.5 and isinstance(survey["Score__c"], float)
    account = one(org, "SELECT NumberOfEmployees, AnnualRevenue FROM Account WHERE Name = 'Acme Corp'")
    assert account["NumberOfEmployees"] == 120 and isinstance(account["AnnualRevenue"], float)


def test_parents_nest_with_their_own_attributes_or_are_null(built):
    org, ids_ = built
    body = soql.query(
        org,
        "SELECT Subject, Account.Name, Contact.Account.Owner.Name, Account.Industry FROM Case ORDER BY Subject",
    )
    first, second = body["records"][:2]
    assert first["Subject"] is None and first["Account"] is None and first["Contact"] is None
    assert list(second) == ["attributes", "Subject", "Account", "Contact"]
    assert second["Account"] == {
        "attributes": {"type": "Account", "url": f"/services/data/v62.0/sobjects/Account/{ids_['globex']}"},
        "Name": "Globex",
        "Industry": None,
    }
    owner = second["Contact"]["Account"]["Owner"]
    assert owner["attributes"]["type"] == "User" and owner["Name"] == "Admin User"
    assert list(second["Contact"]) == ["attributes", "Account"]


def test_object_prefixed_paths_and_custom_relationships(built):
    org, ids_ = built
    record = one(org, "SELECT Survey__c.Name, Account__r.Name FROM Survey__c WHERE Survey__c.Name = 'S2'")
    assert record["Name"] == "S2" and record["Account__r"]["Name"] == "Globex"
    aliased = one(org, "SELECT s.Name FROM Survey__c s WHERE s.Name = 'S1'")
    assert aliased["Name"] == "S1"


def test_polymorphic_owner_and_typeof(built):
    org, ids_ = built
    body = soql.query(
        org, "SELECT Owner.Name, Owner.Type FROM Case WHERE Status = 'Closed' ORDER BY CreatedDate"
    )
    queue, user = (r["Owner"] for r in body["records"])
    assert queue == {
        "attributes": {"type": "Group", "url": f"/services/data/v62.0/sobjects/Group/{QUEUE_ID}"},
        "Name": "Support Queue",
        "Type": "Queue",
    }
    assert user["attributes"]["type"] == "User" and (user["Name"], user["Type"]) == ("Admin User", "User")
    body = soql.query(
        org,
        "SELECT TYPEOF Owner WHEN User THEN Username, Email WHEN Group THEN DeveloperName ELSE Name END "
        "FROM Case WHERE Status = 'Closed' ORDER BY CreatedDate",
    )
    queue, user = (r["Owner"] for r in body["records"])
    assert list(queue) == ["attributes", "DeveloperName"] and queue["DeveloperName"] == "Support_Queue"
    assert list(user) == ["attributes", "Username", "Email"]


def test_child_subqueries_are_query_results_or_null(built):
    org, ids_ = built
    body = soql.query(
        org,
        "SELECT Name, (SELECT LastName, Email FROM Contacts ORDER BY LastName) , Id FROM Account ORDER BY Name",
    )
    acme, globex, person = body["records"]
    assert list(acme) == ["attributes", "Name", "Contacts", "Id"]
    assert acme["Contacts"]["totalSize"] == 2 and acme["Contacts"]["done"] is True
    assert names(acme["Contacts"], "LastName") == ["Jones", "Smith"]
    assert acme["Contacts"]["records"][0]["attributes"]["type"] == "Contact"
    assert names(globex["Contacts"], "LastName") == ["Brown"]
    assert person["Name"] == "Pat Lee"


def test_child_subquery_filters_and_limits_per_parent(built):
    org, _ = built
    body = soql.query(
        org,
        "SELECT Name, (SELECT Subject FROM Cases WHERE IsClosed = false ORDER BY CreatedDate DESC LIMIT 1) "
        "FROM Account WHERE Name IN ('Acme Corp', 'Globex') ORDER BY Name",
    )
    acme, globex = body["records"]
    assert names(acme["Cases"]) == ["Zipper broken"]
    assert globex["Cases"] is None


def test_compound_address_is_built_from_its_components(built):
    org, _ = built
    record = one(org, "SELECT BillingAddress, ShippingAddress FROM Account WHERE Name = 'Acme Corp'")
    assert record["BillingAddress"] == {
        "city": "Paris",
        "country": "France",
        "geocodeAccuracy": None,
        "latitude": None,
        "longitude": None,
        "postalCode": None,
        "state": None,
        "street": None,
    }
    assert record["ShippingAddress"]["state"] == "CA"
    assert one(org, "SELECT BillingAddress FROM Account WHERE Name = 'Globex'")["BillingAddress"] is None


def test_fields_macro(built):
    org, _ = built
    standard = one(org, "SELECT FIELDS(STANDARD) FROM Survey__c WHERE Name = 'S1'")
    assert "Name" in standard and "Topics__c" not in standard
    custom = one(org, "SELECT FIELDS(CUSTOM) FROM Survey__c WHERE Name = 'S1' LIMIT 200")
    assert list(custom)[1:] == ["Topics__c", "Score__c", "Account__c"] and custom["Topics__c"] == "Fit;Price"


def test_tolabel_format_and_convert_currency(built):
    org, _ = built
    record = one(org, "SELECT toLabel(Status), FORMAT(CreatedDate) FROM Case WHERE Subject = 'Zipper broken'")
    assert record["Status"] == "New" and record["CreatedDate"] == "5/15/2024, 8:00 AM"
    record = one(org, "SELECT convertCurrency(AnnualRevenue), FORMAT(NumberOfEmployees) n FROM Account WHERE "
                 "Name = 'Acme Corp'")  # fmt: skip
    assert record["AnnualRevenue"] == 1501.0 and record["n"] == "120"


# ---------------------------------------------------------------------------- aggregates
def test_aggregate_rows_name_unaliased_expressions_expr0_expr1(built):
    org, _ = built
    body = soql.query(
        org, "SELECT Status, COUNT(Id), MAX(CreatedDate) latest, COUNT(Subject) FROM Case GROUP BY Status"
    )
    rows = {r["Status"]: r for r in body["records"]}
    assert rows["Closed"] == {
        "attributes": {"type": "AggregateResult"},
        "Status": "Closed",
        "expr0": 2,
        "latest": "2024-05-10T23:30:00.000+0000",
        "expr1": 1,
    }


def test_grouped_parent_fields_are_keyed_by_field_name_and_aggregates_order(built):
    org, _ = built
    body = soql.query(
        org, "SELECT Account.Name, COUNT(Id) n FROM Case WHERE AccountId != null GROUP BY Account.Name "
        "ORDER BY COUNT(Id) DESC",
    )  # fmt: skip
    assert [(r["Name"], r["n"]) for r in body["records"]] == [("Acme Corp", 2), ("Globex", 1)]


def test_count_star_answers_in_total_size(built):
    org, _ = built
    assert soql.query(org, "SELECT COUNT() FROM Case WHERE IsClosed = true") == {
        "totalSize": 2,
        "done": True,
        "records": [],
    }
    assert soql.query(org, "SELECT COUNT() FROM Case LIMIT 3")["totalSize"] == 3


def test_aggregate_functions(built):
    org, _ = built
    record = one(
        org,
        "SELECT COUNT(Id), COUNT_DISTINCT(Status), MIN(CreatedDate) FROM Case WHERE Status != 'Working'",
    )
    assert record["expr0"] == 3 and record["expr1"] == 2
    assert record["expr2"] == "2023-12-31T23:00:00.000+0000"
    money = one(org, "SELECT SUM(NumberOfEmployees) total, AVG(AnnualRevenue) avg FROM Account")
    assert money["total"] == 120 and money["avg"] == 1501.0


def test_having_rollup_and_grouping(built):
    org, _ = built
    body = soql.query(org, "SELECT Status, COUNT(Id) FROM Case GROUP BY Status HAVING COUNT(Id) > 1")
    assert [(r["Status"], r["expr0"]) for r in body["records"]] == [("Closed", 2)]
    body = soql.query(org, "SELECT Status, COUNT(Id) n, GROUPING(Status) g FROM Case GROUP BY ROLLUP(Status)")
    total = [r for r in body["records"] if r["g"] == 1]
    assert total == [{"attributes": {"type": "AggregateResult"}, "Status": None, "n": 4, "g": 1}]
    body = soql.query(org, "SELECT Status, Priority, COUNT(Id) n FROM Case GROUP BY CUBE(Status, Priority)")
    by_priority = {r["Priority"]: r["n"] for r in body["records"] if r["Status"] is None and r["Priority"]}
    assert by_priority == {"High": 1, "Medium": 2, "Low": 1}


def test_date_functions_in_utc_unless_converted(built):
    org, _ = built
    query = (
        "SELECT CALENDAR_YEAR(CreatedDate) y, CALENDAR_MONTH(CreatedDate) m, CALENDAR_QUARTER(CreatedDate) q, "
        "DAY_IN_MONTH(CreatedDate) d, DAY_IN_WEEK(CreatedDate) w, DAY_IN_YEAR(CreatedDate) yd, "
        "HOUR_IN_DAY(CreatedDate) h, WEEK_IN_MONTH(CreatedDate) wm, WEEK_IN_YEAR(CreatedDate) wy, "
        "DAY_ONLY(CreatedDate) day FROM Case WHERE Subject = 'Zipper broken' GROUP BY CALENDAR_YEAR(CreatedDate), "
        "CALENDAR_MONTH(CreatedDate), CALENDAR_QUARTER(CreatedDate), DAY_IN_MONTH(CreatedDate), "
        "DAY_IN_WEEK(CreatedDate), DAY_IN_YEAR(CreatedDate), HOUR_IN_DAY(CreatedDate), WEEK_IN_MONTH(CreatedDate), "
        "WEEK_IN_YEAR(CreatedDate), DAY_ONLY(CreatedDate)"
    )
    record = one(org, query)
    # Wednesday 2024-05-15 08:00 UTC: day 136 of the year, week 20, third week of May, Sunday = 1
    assert {k: v for k, v in record.items() if k != "attributes"} == {
        "y": 2024, "m": 5, "q": 2, "d": 15, "w": 4, "yd": 136, "h": 8, "wm": 3, "wy": 20, "day": "2024-05-15",
    }  # fmt: skip
    tokyo = org.fork()
    tokyo.timezone = "Asia/Tokyo"
    converted = one(tokyo, "SELECT HOUR_IN_DAY(convertTimezone(CreatedDate)) h, COUNT(Id) FROM Case "
                    "WHERE Subject = 'Zipper broken' GROUP BY HOUR_IN_DAY(convertTimezone(CreatedDate))")  # fmt: skip
    assert converted["h"] == 17
    assert one(tokyo, "SELECT CALENDAR_YEAR(CreatedDate) y FROM Case WHERE Subject = null "
               "GROUP BY CALENDAR_YEAR(CreatedDate)")["y"] == 2023  # fmt: skip


def test_date_function_in_where(built):
    org, _ = built
    body = soql.query(
        org, "SELECT Subject FROM Case WHERE CALENDAR_MONTH(CreatedDate) = 5 AND DAY_IN_WEEK(CreatedDate) = 4"
    )
    assert names(body) == ["Zipper broken"]


# ---------------------------------------------------------------------------- paging
@pytest.fixture(scope="module")
def many(built):
    """A fork of the small org with 2,500 more cases (sequential CaseNumbers) and 2,100 surveys."""
    org, _ = built
    big = org.fork()
    now = dt.datetime(2024, 5, 1)
    with big.transaction():
        big.before_write("Case")
        big.before_write("Survey__c")
        write_rows(
            big,
            big.schema.get("Case"),
            [
                {
                    "Id": ids.make_id("500", 1000 + i),
                    "CaseNumber": f"{10000 + i:08d}",
                    "Subject": f"bulk {i:05d}",
                    "Status": "New",
                    "IsDeleted": False,
                    "CreatedDate": now,
                    "OwnerId": org.user_id,
                }
                for i in range(2500)
            ],
        )
        write_rows(
            big,
            big.schema.get("Survey__c"),
            [{"Id": ids.make_id("a0S", 1000 + i), "Name": f"G{i}", "IsDeleted": False} for i in range(2100)],
        )
    return big


def test_results_come_in_batches_of_2000_with_a_locator(many):
    first = soql.query(many, "SELECT Subject FROM Case WHERE Subject LIKE 'bulk%' ORDER BY Subject")
    assert first["totalSize"] == 2500 and first["done"] is False and len(first["records"]) == 2000
    assert list(first) == ["totalSize", "done", "nextRecordsUrl", "records"]
    url = first["nextRecordsUrl"]
    assert url.startswith("/services/data/v62.0/query/01g") and url.endswith("-2000")
    rest = soql.query_more(many, url.rsplit("/", 1)[1])
    assert rest["done"] is True and "nextRecordsUrl" not in rest and rest["totalSize"] == 2500
    assert names(first) + names(rest) == [f"bulk {i:05d}" for i in range(2500)]


def test_batch_size_is_kept_within_200_and_2000(many):
    body = soql.query(many, "SELECT Id FROM Case", batch_size=500)
    assert len(body["records"]) == 500 and body["nextRecordsUrl"].endswith("-500")
    second = soql.query_more(many, body["nextRecordsUrl"].rsplit("/", 1)[1], api_version="59.0")
    assert len(second["records"]) == 500 and second["nextRecordsUrl"].startswith(
        "/services/data/v59.0/query/"
    )
    assert len(soql.query(many, "SELECT Id FROM Case", batch_size=10)["records"]) == 200
    assert len(soql.query(many, "SELECT Id FROM Case", batch_size=5000)["records"]) == 2000


def test_a_locator_stays_valid_while_the_client_pages(many):
    body = soql.query(many, "SELECT Id FROM Case ORDER BY Id", batch_size=1000)
    locator = body["nextRecordsUrl"].rsplit("/", 1)[1]
    assert soql.query_more(many, locator) == soql.query_more(many, locator)


def test_aggregates_beyond_one_batch_are_refused(many):
    with pytest.raises(SalesforceError) as info:
        soql.query(many, "SELECT Name, COUNT(Id) FROM Survey__c GROUP BY Name")
    assert info.value.error_code == "MALFORMED_QUERY"
    assert info.value.message == (
        "Aggregate query does not support queryMore(), use LIMIT to restrict the results to a single batch"
    )
    limited = soql.query(many, "SELECT Name, COUNT(Id) FROM Survey__c GROUP BY Name LIMIT 2000")
    assert limited["done"] is True and len(limited["records"]) == 2000


# ---------------------------------------------------------------------------- select_records (SOSL)
def test_select_records_runs_a_returning_clause_over_matched_ids(built):
    org, ids_ = built
    matched = [ids_["c3"], ids_["c1"], ids_["c2"]]
    records = soql.select_records(org, "Case", "Id, Subject", restrict_ids=matched)
    assert [r["Id"] for r in records] == matched
    assert records[0]["attributes"] == {
        "type": "Case",
        "url": f"/services/data/v62.0/sobjects/Case/{ids_['c3']}",
    }
    records = soql.select_records(
        org, "case", "Subject", where_text="Status != 'Closed'", order_by_text="Subject DESC", limit=1,
        restrict_ids=matched,
    )  # fmt: skip
    assert records == [
        {
            "attributes": {"type": "Case", "url": f"/services/data/v62.0/sobjects/Case/{ids_['c1']}"},
            "Subject": "Zipper broken",
        }
    ]
    with pytest.raises(SalesforceError) as info:
        soql.select_records(org, "Case", "Nope")
    assert info.value.error_code == "INVALID_FIELD" and info.value.message.startswith("No such column 'Nope'")
