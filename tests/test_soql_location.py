"""Location-based SOQL: DISTANCE(address, GEOLOCATION(lat, lon), 'mi' | 'km') in WHERE and ORDER BY.

Source: SOQL and SOSL Reference, "Location-Based SOQL Queries"
(https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_soql_geolocate.htm):
``WHERE DISTANCE(Location__c, GEOLOCATION(37.775,-122.418), 'mi') < 20``, ``ORDER BY DISTANCE(...)``;
the location field comes first; only ``<`` and ``>`` compare a distance; a standard address is a
location once geocoded (its latitude and longitude).
"""

from __future__ import annotations

import pytest

from emulator import soql
from emulator.errors import SalesforceError

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
