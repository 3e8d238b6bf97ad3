"""Location-based SOQL: DISTANCE(address, GEOLOCATION(lat, lon), 'mi' | 'km') in WHERE, ORDER BY and SELECT.

Source: SOQL and SOSL Reference, "Location-Based SOQL Queries"
(https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_soql_geolocate.htm):
``WHERE DISTANCE(Location__c, GEOLOCATION(37.775,-122.418), 'mi') < 20``, ``ORDER BY DISTANCE(...)``;
the location field comes first; only ``<`` and ``>`` compare a distance; a standard address is a
location once geocoded (its latitude and longitude); DISTANCE may also be selected.
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import soql
from crmarena_sf.emulator.errors import SalesforceError
from simple_salesforce.exceptions import SalesforceMalformedRequest

from crmarena_sf import connect
from crmarena_sf.connection.connect import emulated_org

SAN_FRANCISCO = "GEOLOCATION(37.775,-122.418)"


@pytest.fixture(scope="module")
def org(built):
    """The small org with three geocoded stores (the other accounts have no coordinates)."""
    org, _ = built
    for name, latitude, longitude in [("SF Store", 37.7793, -122.4193), ("Oakland Store", 37.8044, -122.2712),
                                      ("LA Store", 34.0522, -118.2437)]:  # fmt: skip
        org.insert("Account", {"Name": name, "BillingLatitude": latitude, "BillingLongitude": longitude})
    return org


def names(org, text: str) -> list[str]:
    return [r["Name"] for r in soql.query(org, text)["records"]]


def error_message(org, text: str) -> tuple[str, str]:
    with pytest.raises(SalesforceError) as info:
        soql.query(org, text)
    return info.value.error_code, info.value.message.splitlines()[-1]


def test_within_and_beyond_a_radius_like_the_warehouse_example(org):
    assert names(
        org, f"SELECT Name FROM Account WHERE DISTANCE(BillingAddress, {SAN_FRANCISCO}, 'mi') < 20"
    ) == [
        "SF Store",
        "Oakland Store",
    ]
    # Los Angeles is about 560 km away; accounts without coordinates have no distance at all.
    assert names(
        org, f"SELECT Name FROM Account WHERE DISTANCE(BillingAddress, {SAN_FRANCISCO}, 'km') > 20"
    ) == ["LA Store"]
    assert names(
        org, f"SELECT Name FROM Account WHERE DISTANCE(BillingAddress, {SAN_FRANCISCO}, 'km') < 550"
    ) == [
        "SF Store",
        "Oakland Store",
    ]
    assert names(
        org, f"SELECT Name FROM Account WHERE DISTANCE(BillingAddress, {SAN_FRANCISCO}, 'km') < 560"
    ) == [
        "SF Store",
        "Oakland Store",
        "LA Store",
    ]


def test_nearest_first_in_order_by(org):
    nearest = "SELECT Name FROM Account WHERE BillingLatitude != null ORDER BY DISTANCE(BillingAddress, {}, 'mi') LIMIT 2"
    assert names(org, nearest.format("GEOLOCATION(34.0,-118.0)")) == ["LA Store", "Oakland Store"]
    assert names(org, nearest.format(SAN_FRANCISCO)) == ["SF Store", "Oakland Store"]


@pytest.mark.parametrize(
    "where, token",
    [
        (f"DISTANCE(BillingAddress, {SAN_FRANCISCO}, 'mi') = 20", "="),
        (f"DISTANCE({SAN_FRANCISCO}, BillingAddress, 'mi') < 20", "GEOLOCATION(37.775, -122.418)"),
        (f"DISTANCE(BillingAddress, {SAN_FRANCISCO}, 'miles') < 20", "miles"),
        (f"DISTANCE(Name, {SAN_FRANCISCO}, 'mi') < 20", "Name"),
        ("DISTANCE(BillingAddress, GEOLOCATION(97.775,-122.418), 'mi') < 20", "97.775"),
        (f"{SAN_FRANCISCO} < 20", "("),
    ],
)
def test_what_location_queries_do_not_allow_is_refused(org, where, token):
    assert error_message(org, f"SELECT Name FROM Account WHERE {where}") == (
        "MALFORMED_QUERY",
        f"unexpected token: '{token}'",
    )


def test_distance_is_not_grouped(org):
    text = f"SELECT COUNT(Id) FROM Account GROUP BY DISTANCE(BillingAddress, {SAN_FRANCISCO}, 'mi')"
    assert error_message(org, text) == ("MALFORMED_QUERY", "unexpected token: '('")


# ---------------------------------------------------------------------------- DISTANCE in SELECT
@pytest.fixture(scope="module")
def sf():
    """simple-salesforce on a blank org with the three stores and one account without coordinates."""
    client = connect("blank")
    org = emulated_org(client)
    org.insert_many(
        "Account",
        [{"Name": "SF Store", "BillingLatitude": 37.7793, "BillingLongitude": -122.4193},
         {"Name": "Oakland Store", "BillingLatitude": 37.8044, "BillingLongitude": -122.2712},
         {"Name": "LA Store", "BillingLatitude": 34.0522, "BillingLongitude": -118.2437},
         {"Name": "Nowhere"}],
    )  # fmt: skip
    return client


def test_distance_in_select_is_a_number_keyed_expr0_when_unaliased(sf):
    """Location-Based SOQL Queries (sforce_api_calls_soql_geolocate.htm): DISTANCE may be selected.

    Decision (the page shows no such answer): an unaliased distance is keyed ``expr0``, ``expr1``
    ... in SELECT order, as every unaliased expression of a result is; the value is the full
    double (no rounding); a record without coordinates answers null.
    """
    body = sf.query(
        f"SELECT Name, DISTANCE(BillingAddress, {SAN_FRANCISCO}, 'mi') FROM Account "
        f"ORDER BY DISTANCE(BillingAddress, {SAN_FRANCISCO}, 'mi') NULLS LAST"
    )
    rows = [(r["Name"], r["expr0"]) for r in body["records"]]
    assert [name for name, _ in rows] == ["SF Store", "Oakland Store", "LA Store", "Nowhere"]
    assert list(body["records"][0]) == ["attributes", "Name", "expr0"]
    assert 0.2 < rows[0][1] < 0.4 and 8.0 < rows[1][1] < 9.0 and 345 < rows[2][1] < 350
    assert isinstance(rows[0][1], float) and rows[0][1] != round(rows[0][1], 6)
    assert rows[3][1] is None


def test_distance_in_select_takes_an_alias_and_counts_unaliased_ones_in_order(sf):
    """An alias names the distance, as Apex writes ``DISTANCE(...) dist`` in an ordinary query
    (https://github.com/aheber/tree-sitter-sfapex/issues/52); unaliased ones still count expr0, expr1."""
    body = sf.query(
        f"SELECT DISTANCE(BillingAddress, {SAN_FRANCISCO}, 'km') km, Name, "
        "DISTANCE(BillingAddress, GEOLOCATION(34.0522,-118.2437), 'mi'), "
        f"DISTANCE(BillingAddress, {SAN_FRANCISCO}, 'mi') FROM Account WHERE Name = 'LA Store'"
    )
    [record] = body["records"]
    assert list(record) == ["attributes", "km", "Name", "expr0", "expr1"]
    assert record["expr0"] == 0.0
    assert record["km"] == pytest.approx(record["expr1"] * 1.609344, rel=1e-4)


def test_distance_in_select_is_refused_where_salesforce_refuses_it(sf):
    """Not grouped: an aggregate query cannot select it; an alias may not repeat a field's name."""
    refusals = [
        (f"SELECT COUNT(Id), DISTANCE(BillingAddress, {SAN_FRANCISCO}, 'mi') FROM Account",
         "Field must be grouped or aggregated: BillingAddress"),
        (f"SELECT Name, DISTANCE(BillingAddress, {SAN_FRANCISCO}, 'mi') Name FROM Account",
         "duplicate field selected: Name"),
        (f"SELECT DISTANCE(Name, {SAN_FRANCISCO}, 'mi') FROM Account", "unexpected token: 'Name'"),
    ]  # fmt: skip
    for text, message in refusals:
        with pytest.raises(SalesforceMalformedRequest) as info:
            sf.query(text)
        [error] = info.value.content
        assert error["errorCode"] == "MALFORMED_QUERY"
        assert error["message"].splitlines()[-1] == message
