"""Fixed vocabulary of the synthetic org: the retailer, its issues, US states and the product words.

Shoes & Clothings is CRMArena's sporting-goods retailer (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db).
The ten issue names are the original org's Issue__c names, in its order.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

COMPANY = "Shoes & Clothings"
COMPANY_DOMAIN = "shoesandclothings.example.com"
CUSTOMER_DOMAINS = ("example.com", "example.net", "example.org", "mail.example.com")

ORG_START = dt.datetime(2019, 12, 2, 9, 0, 0)
"""When the retailer set up its org (a day after the new org itself, seed.ORG_CREATED)."""
FIRST_CASE = dt.datetime(2020, 1, 2, 8, 0, 0)
LAST_CASE = dt.datetime(2024, 5, 26, 20, 0, 0)
"""Case.CreatedDate runs from 2020-01-02 to 2024-05-26 in the original org (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db)."""
FIRST_ORDER = dt.date(2019, 12, 5)


@dataclass(frozen=True)
class IssueKind:
    name: str
    description: str
    base_hours: float
    """Typical time from opening to closing such a case, before agent and region effects."""
    high_priority: float
    """Share of these cases opened with High priority."""


ISSUES = (
    IssueKind(
        "Billing/Payment Issue",
        "Charges, refunds, payment failures and invoice questions on an order.",
        20,
        0.35,
    ),
    IssueKind(
        "Return Policy Issue",
        "Questions and disputes about returning purchased items and store credit.",
        30,
        0.15,
    ),
    IssueKind(
        "Product Defect",
        "An item arrived damaged or stopped working because of a manufacturing fault.",
        60,
        0.4,
    ),
    IssueKind(
        "Size Mismatch",
        "The size or fit received does not match the size chart or the size ordered.",
        26,
        0.1,
    ),
    IssueKind("Shipping Delay", "An order has not arrived within the promised delivery window.", 40, 0.3),
    IssueKind(
        "Product Availability",
        "An item is out of stock, back-ordered or not sold in a size or color.",
        16,
        0.1,
    ),
    IssueKind(
        "Order Cancellation", "A customer wants to cancel or change an order after placing it.", 12, 0.3
    ),
    IssueKind("Warranty Issue", "Claims under the product warranty for wear, failure or repair.", 72, 0.2),
    IssueKind(
        "Incorrect Item Received",
        "The package contained a different product, color or quantity than ordered.",
        34,
        0.25,
    ),
    IssueKind(
        "Loyalty Program Inquiry",
        "Points, tiers, rewards and member pricing in the loyalty program.",
        10,
        0.05,
    ),
)


@dataclass(frozen=True)
class State:
    code: str
    name: str
    weight: float
    """Relative number of customers (roughly the state's population share)."""
    area_code: str
    zip_prefix: str
    cities: tuple[str, ...]


STATES = (
    State(
        "CA",
        "California",
        39,
        "415",
        "94",
        ("San Francisco", "Los Angeles", "San Diego", "Sacramento", "Oakland"),
    ),
    State("TX", "Texas", 29, "512", "78", ("Austin", "Houston", "Dallas", "San Antonio")),
    State("FL", "Florida", 22, "305", "33", ("Miami", "Orlando", "Tampa", "Jacksonville")),
    State("NY", "New York", 20, "212", "10", ("New York", "Brooklyn", "Buffalo", "Rochester")),
    State("PA", "Pennsylvania", 13, "215", "19", ("Philadelphia", "Pittsburgh", "Allentown")),
    State("IL", "Illinois", 12.6, "312", "60", ("Chicago", "Naperville", "Springfield")),
    State("OH", "Ohio", 11.8, "614", "43", ("Columbus", "Cleveland", "Cincinnati")),
    State("GA", "Georgia", 10.8, "404", "30", ("Atlanta", "Savannah", "Athens")),
    State("NC", "North Carolina", 10.5, "704", "28", ("Charlotte", "Raleigh", "Durham")),
    State("MI", "Michigan", 10, "313", "48", ("Detroit", "Ann Arbor", "Grand Rapids")),
    State("NJ", "New Jersey", 9.3, "201", "07", ("Newark", "Jersey City", "Hoboken")),
    State("VA", "Virginia", 8.6, "804", "23", ("Richmond", "Arlington", "Norfolk")),
    State("WA", "Washington", 7.7, "206", "98", ("Seattle", "Spokane", "Tacoma", "Bellevue")),
    State("AZ", "Arizona", 7.3, "602", "85", ("Phoenix", "Tucson", "Scottsdale")),
    State("MA", "Massachusetts", 7, "617", "02", ("Boston", "Cambridge", "Worcester")),
    State("TN", "Tennessee", 7, "615", "37", ("Nashville", "Memphis", "Knoxville")),
    State("IN", "Indiana", 6.8, "317", "46", ("Indianapolis", "Fort Wayne", "Bloomington")),
    State("MD", "Maryland", 6.2, "410", "21", ("Baltimore", "Annapolis", "Rockville")),
    State("MO", "Missouri", 6.2, "314", "63", ("St. Louis", "Kansas City", "Springfield")),
    State("WI", "Wisconsin", 5.9, "414", "53", ("Milwaukee", "Madison", "Green Bay")),
    State("CO", "Colorado", 5.8, "303", "80", ("Denver", "Boulder", "Colorado Springs")),
    State("MN", "Minnesota", 5.7, "612", "55", ("Minneapolis", "St. Paul", "Duluth")),
    State("SC", "South Carolina", 5.2, "843", "29", ("Charleston", "Columbia", "Greenville")),
    State("AL", "Alabama", 5, "205", "35", ("Birmingham", "Montgomery", "Huntsville")),
    State("LA", "Louisiana", 4.6, "504", "70", ("New Orleans", "Baton Rouge", "Lafayette")),
    State("KY", "Kentucky", 4.5, "502", "40", ("Louisville", "Lexington")),
    State("OR", "Oregon", 4.2, "503", "97", ("Portland", "Eugene", "Salem", "Bend")),
    State("OK", "Oklahoma", 4, "405", "73", ("Oklahoma City", "Tulsa", "Norman")),
    State("CT", "Connecticut", 3.6, "203", "06", ("Hartford", "New Haven", "Stamford")),
    State("UT", "Utah", 3.3, "801", "84", ("Salt Lake City", "Provo", "Park City")),
    State("NV", "Nevada", 3.1, "702", "89", ("Las Vegas", "Reno", "Henderson")),
    State("NM", "New Mexico", 2.1, "505", "87", ("Albuquerque", "Santa Fe")),
    State("NE", "Nebraska", 2, "402", "68", ("Omaha", "Lincoln")),
    State("ID", "Idaho", 1.9, "208", "83", ("Boise", "Idaho Falls")),
    State("NH", "New Hampshire", 1.4, "603", "03", ("Manchester", "Concord", "Nashua")),
    State("ME", "Maine", 1.4, "207", "04", ("Portland", "Bangor")),
    State("HI", "Hawaii", 1.4, "808", "96", ("Honolulu", "Hilo")),
    State("MT", "Montana", 1.1, "406", "59", ("Bozeman", "Missoula", "Billings")),
    State("VT", "Vermont", 0.6, "802", "05", ("Burlington", "Montpelier")),
)

STREET_NAMES = (
    "Maple",
    "Oak",
    "Pine",
    "Cedar",
    "Elm",
    "Lake",
    "Hill",
    "Park",
    "Washington",
    "Lincoln",
    "Sunset",
    "Ridge",
    "Meadow",
    "River",
    "Forest",
    "Highland",
    "Valley",
    "Spring",
    "Willow",
    "Church",
    "Main",
    "Broad",
    "Mill",
    "Summit",
    "Harbor",
    "Canyon",
    "Aspen",
    "Birch",
    "Juniper",
    "Magnolia",
)
STREET_SUFFIXES = ("St", "Ave", "Rd", "Blvd", "Ln", "Dr", "Ct", "Way", "Pl", "Ter")

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

AGENT_TITLES = (
    ("Customer Service Agent", 8),
    ("Senior Customer Service Agent", 3),
    ("Customer Support Specialist", 3),
    ("Returns Specialist", 1),
    ("Billing Specialist", 1),
    ("Customer Service Team Lead", 1),
)
TIME_ZONES = ("America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles")
