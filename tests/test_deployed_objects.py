"""Apex, Visualforce, static resources, reports and dashboards: queryable objects, empty in a new org.

References: Object Reference, "ApexClass", "ApexTrigger", "ApexPage", "ApexComponent",
"StaticResource", "Report", "Dashboard"
(https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_apexclass.htm
and neighbours: supported calls query and retrieve through the data API; the Metadata and Tooling
APIs create them); Tooling API Developer Guide, "ApexClass".
"""

from __future__ import annotations

import pytest
from simple_salesforce.exceptions import SalesforceMalformedRequest

from crmarena_sf import connect

DEPLOYED = {
    "ApexClass": ("01p", "Name"),
    "ApexTrigger": ("01q", "Name"),
    "ApexPage": ("066", "Name"),
    "ApexComponent": ("099", "Name"),
    "StaticResource": ("081", "Name"),
    "Report": ("00O", "Name"),
    "Dashboard": ("01Z", "Title"),
}


@pytest.fixture(scope="module")
def sf():
    return connect("blank")


@pytest.mark.parametrize("name", sorted(DEPLOYED))
def test_each_is_described_queryable_read_only_and_empty_in_a_new_org(sf, name):
    prefix, name_field = DEPLOYED[name]
    described = getattr(sf, name).describe()
    assert (described["keyPrefix"], described["queryable"], described["createable"]) == (prefix, True, False)
    assert described["updateable"] is False and described["deletable"] is False
    assert sf.query(f"SELECT Id, {name_field} FROM {name}")["totalSize"] == 0
    with pytest.raises(SalesforceMalformedRequest):
        getattr(sf, name).create({name_field: "New"})


def test_the_tooling_api_reads_the_same_apex_objects(sf):
    answer = sf.restful("tooling/query", params={"q": "SELECT Id, Name, Body, Status FROM ApexClass"})
    assert (answer["entityTypeName"], answer["totalSize"], answer["records"]) == ("ApexClass", 0, [])
