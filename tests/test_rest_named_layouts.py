"""Named and approval layouts, as the REST API describes them.

References: REST API Developer Guide, "sObject Named Layouts"
(https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_sobject_named_layouts.htm):
the describe's ``namedLayoutInfos`` lists User's ``UserAlt``, read at
``describe/namedLayouts/UserAlt``; "Get Approval Layouts"
(resources_sobject_approvallayouts_get.htm): ``{"approvalLayouts": []}`` when no approval
process exists.
"""

from __future__ import annotations

import pytest
from simple_salesforce.exceptions import SalesforceResourceNotFound

from crmarena_sf import connect


@pytest.fixture
def sf():
    return connect("blank")


def test_user_describe_names_user_alt_and_its_url_reads_a_layout(sf):
    [info] = sf.User.describe()["namedLayoutInfos"]
    assert info["name"] == "UserAlt"
    assert (
        info["urls"]["layout"]
        == f"/services/data/v{sf.sf_version}/sobjects/User/describe/namedLayouts/UserAlt"
    )
    layout = sf.restful("sobjects/User/describe/namedLayouts/UserAlt")
    fields = {
        item["layoutComponents"][0]["value"]
        for section in layout["detailLayoutSections"]
        for row in section["layoutRows"]
        for item in row["layoutItems"]
    }
    assert {"Username", "Email"} <= fields
    assert layout["id"].startswith("00h")


def test_a_name_the_describe_does_not_list_is_not_found(sf):
    with pytest.raises(SalesforceResourceNotFound):
        sf.restful("sobjects/User/describe/namedLayouts/NoSuchLayout")
    with pytest.raises(SalesforceResourceNotFound):
        sf.restful("sobjects/Account/describe/namedLayouts/UserAlt")


def test_approval_layouts_are_empty_without_approval_processes(sf):
    assert sf.restful("sobjects/Account/describe/approvalLayouts") == {"approvalLayouts": []}
    with pytest.raises(SalesforceResourceNotFound):
        sf.restful("sobjects/Account/describe/approvalLayouts/MyProcess")
    with pytest.raises(SalesforceResourceNotFound):
        sf.restful("sobjects/NoSuchObject__c/describe/approvalLayouts")
