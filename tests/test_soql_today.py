"""TODAY is the running user's day at the org's clock, however often it is asked.

Date literals are ranges in the running user's time zone ("Date Formats and Date Literals",
SOQL and SOSL Reference: TODAY "starts 00:00:00 of the current day"). Every query asks for the
day, so the engine keeps it for the quarter hour of UTC it holds for (emulator.soql.dates.today):
a zone whose midnight falls on a quarter hour's edge (Asia/Kathmandu, UTC+05:45) must see the
new day at the first instant of it, and the old one again when the clock goes back.
"""

from __future__ import annotations

import pytest
from crmarena_sf.emulator import soql


@pytest.fixture
def kathmandu(tiny_org):
    fork = tiny_org.fork()
    fork.timezone = "Asia/Kathmandu"
    yield fork
    fork.close()


def subjects(org, literal: str) -> set[str]:
    body = soql.query(org, f"SELECT Subject FROM Case WHERE CreatedDate = {literal}")
    return {record["Subject"] for record in body["records"]}


def test_today_turns_at_the_users_midnight_to_the_instant_and_back(kathmandu):
    kathmandu.clock.freeze("2024-06-01T18:10:00Z")  # 23:55 on June 1st in Kathmandu
    kathmandu.insert("Case", {"Subject": "just before midnight"})
    assert "just before midnight" in subjects(kathmandu, "TODAY")
    kathmandu.clock.freeze("2024-06-01T18:14:59.999Z")  # the same quarter hour: the day kept
    assert "just before midnight" in subjects(kathmandu, "TODAY")
    kathmandu.clock.freeze("2024-06-01T18:15:00Z")  # 00:00 on June 2nd there
    assert "just before midnight" not in subjects(kathmandu, "TODAY")
    assert "just before midnight" in subjects(kathmandu, "YESTERDAY")
    kathmandu.clock.freeze("2024-06-01T18:14:00Z")  # the clock set back
    assert "just before midnight" in subjects(kathmandu, "TODAY")


def test_today_follows_a_change_of_the_users_time_zone(kathmandu):
    kathmandu.clock.freeze("2024-06-01T18:20:00Z")  # June 2nd in Kathmandu, June 1st in UTC
    kathmandu.insert("Case", {"Subject": "late in UTC"})
    assert "late in UTC" in subjects(kathmandu, "TODAY")
    kathmandu.clock.freeze("2024-06-01T18:25:00Z")  # the same quarter hour, another zone
    kathmandu.timezone = "UTC"
    assert "late in UTC" in subjects(kathmandu, "TODAY")
    kathmandu.timezone = "America/Los_Angeles"  # still June 1st there, 11:25
    assert "late in UTC" in subjects(kathmandu, "TODAY")
    kathmandu.clock.freeze("2024-06-02T07:00:00Z")  # June 2nd, 00:00 in Los Angeles
    assert "late in UTC" in subjects(kathmandu, "YESTERDAY")
