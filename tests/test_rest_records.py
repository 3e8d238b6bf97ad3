"""Records, describes, limits, sessions and errors through the unmodified simple-salesforce client.

References: REST API Developer Guide resources_sobject_*.htm, dome_upsert.htm (upsert status
codes), errorcodes.htm (error bodies), resources_limits.htm; https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm.
"""

from __future__ import annotations

import json

import pytest
from crmarena_sf.emulator.rest import Request, Router
from simple_salesforce import Salesforce
from simple_salesforce.exceptions import (
    SalesforceExpiredSession,
    SalesforceMalformedRequest,
    SalesforceMoreThanOneRecord,
    SalesforceResourceNotFound,
)

from crmarena_sf import connect
from crmarena_sf.connection.connect import emulated_org


@pytest.fixture
def sf() -> Salesforce:
    return connect("blank")


def test_create_returns_201_save_result_and_get_returns_the_record_with_attributes(sf):
    created = sf.Account.create({"Name": "Acme", "Industry": "Apparel"})
    assert list(created) == ["id", "success", "errors"]
    assert created["success"] is True and created["errors"] == []
    record = sf.Account.get(created["id"])
    assert record["attributes"] == {
        "type": "Account",
        "url": f"/services/data/v62.0/sobjects/Account/{created['id']}",
    }
    assert record["Id"] == created["id"] and record["Name"] == "Acme" and record["Industry"] == "Apparel"
    # Every field of the describe, in describe order, after attributes.
    described = [f["name"] for f in sf.Account.describe()["fields"]]
    assert list(record)[1:] == described


def test_get_with_fields_parameter_narrows_the_record_and_15_char_ids_work(sf):
    record_id = sf.Contact.create({"LastName": "Lee", "Email": "lee@example.com"})["id"]
    record = sf.Contact.get(record_id[:15], params={"fields": "LastName,Email"})
    assert list(record) == ["attributes", "LastName", "Email"]
    assert record["attributes"]["url"].endswith(record_id)


def test_update_returns_204_and_changes_the_record(sf):
    record_id = sf.Account.create({"Name": "Old"})["id"]
    assert sf.Account.update(record_id, {"Name": "New"}) == 204
    assert sf.Account.get(record_id)["Name"] == "New"


def test_delete_returns_204_then_the_record_is_gone_and_deleting_again_is_entity_is_deleted(sf):
    record_id = sf.Account.create({"Name": "Doomed"})["id"]
    assert sf.Account.delete(record_id) == 204
    with pytest.raises(SalesforceResourceNotFound) as missing:
        sf.Account.get(record_id)
    assert missing.value.content[0]["errorCode"] == "NOT_FOUND"
    assert missing.value.content[0]["message"] == "The requested resource does not exist"
    with pytest.raises(SalesforceResourceNotFound) as again:
        sf.Account.delete(record_id)
    assert again.value.content[0]["errorCode"] == "ENTITY_IS_DELETED"


def test_a_refused_write_is_a_salesforce_error_array_and_leaves_nothing_behind(sf):
    with pytest.raises(SalesforceMalformedRequest) as refused:
        sf.Contact.create({"FirstName": "No last name"})
    assert refused.value.content == [
        {
            "message": "Required fields are missing: [LastName]",
            "errorCode": "REQUIRED_FIELD_MISSING",
            "fields": ["LastName"],
        }
    ]
    assert emulated_org(sf).count("Contact") == 0


def test_malformed_json_body_is_json_parser_error(sf):
    response = sf.session.post(
        sf.base_url + "sobjects/Account/", data="{'Name': 'single quotes'}", headers=sf.headers
    )
    assert response.status_code == 400
    [error] = response.json()
    assert error["errorCode"] == "JSON_PARSER_ERROR"
    assert error["message"].startswith("Unexpected character (''' (code 39))")


def test_a_segment_that_is_no_id_of_the_object_is_an_unknown_external_id_field(sf):
    with pytest.raises(SalesforceResourceNotFound) as bad:
        sf.Account.get("not-an-id")
    assert (
        bad.value.content[0]["message"]
        == "Provided external ID field does not exist or is not accessible: not-an-id"
    )


def test_unknown_object_and_unknown_version_are_404(sf):
    with pytest.raises(SalesforceResourceNotFound):
        sf.NoSuchObject__c.describe()
    response = sf.session.get(f"https://{sf.sf_instance}/services/data/v99.0/sobjects", headers=sf.headers)
    assert response.status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/services/datax",
        "/services/data/sobjects",
        "/services/data/v/sobjects",
        "/services/Soap/u/62.0/extra",
        "/services/oauth2/tokens",
        "/id/00DEm0000000001AAA",
        "/id/00DEm0000000001AAA/005Em0000000001AAA/more",
        "/services/ASYNC/62.0/job",
        "/services/apexrest/anything",
    ],
)
def test_a_path_no_api_answers_is_404_not_found(sf, path):
    """Each API answers its own URLs only (the mount table, emulator/rest/services.py); errorcodes.htm."""
    response = sf.session.get(f"https://{sf.sf_instance}{path}", headers=sf.headers)
    assert response.status_code == 404
    assert response.json()[0]["errorCode"] == "NOT_FOUND"


def test_wrong_method_is_405_with_salesforces_wording(sf):
    response = sf.session.put(sf.base_url + "sobjects", headers=sf.headers, data="{}")
    assert response.status_code == 405
    assert response.json()[0] == {
        "message": "HTTP Method 'PUT' not allowed. Allowed are HEAD,GET",
        "errorCode": "METHOD_NOT_ALLOWED",
    }


# ---------------------------------------------------------------------------- upsert by external id
def test_upsert_creates_201_then_updates_200_and_get_by_custom_id_finds_it(sf):
    response = sf.Product2.upsert("External_ID__c/SKU-1", {"Name": "Runner"}, raw_response=True)
    assert response.status_code == 201
    body = response.json()
    assert body["created"] is True and body["success"] is True
    again = sf.Product2.upsert("External_ID__c/SKU-1", {"Name": "Runner 2"}, raw_response=True)
    assert again.status_code == 200
    assert again.json() == {"id": body["id"], "success": True, "errors": [], "created": False}
    found = sf.Product2.get_by_custom_id("External_ID__c", "SKU-1")
    assert found["Id"] == body["id"] and found["Name"] == "Runner 2" and found["External_ID__c"] == "SKU-1"


def test_a_non_unique_custom_external_id_matches_case_sensitively(sf):
    # Apex Developer Guide, "Upserting Records": case-insensitive only for Unique, case-insensitive fields.
    sf.Product2.upsert("External_ID__c/SKU-1", {"Name": "Upper"})
    with pytest.raises(SalesforceResourceNotFound):
        sf.Product2.get_by_custom_id("External_ID__c", "sku-1")
    assert sf.Product2.upsert("External_ID__c/sku-1", {"Name": "Lower"}, raw_response=True).status_code == 201


def test_standard_id_lookup_fields_key_upserts_and_update_only_refuses_to_create(sf):
    contact_id = sf.Contact.create({"LastName": "Mail", "Email": "Mail@Example.com"})["id"]
    response = sf.Contact.upsert("Email/mail@example.com", {"Title": "Found"}, raw_response=True)
    assert response.status_code == 200 and response.json()["id"] == contact_id
    missing = sf.session.patch(
        sf.base_url + "sobjects/Contact/Email/nobody@example.com?updateOnly=true",
        json={"LastName": "x"},
        headers=sf.headers,
    )
    assert missing.status_code == 404 and emulated_org(sf).count("Contact") == 1


def test_upsert_before_api_46_answers_204_on_update():
    sf = connect("blank", version="45.0")
    sf.Product2.upsert("External_ID__c/A", {"Name": "x"})
    assert sf.Product2.upsert("External_ID__c/A", {"Name": "y"}) == 204


def test_several_matches_are_300_with_the_records_urls(sf):
    org = emulated_org(sf)
    ids = [org.insert("Product2", {"Name": n, "External_ID__c": "DUP"}) for n in ("a", "b")]
    with pytest.raises(SalesforceMoreThanOneRecord) as multiple:
        sf.Product2.get_by_custom_id("External_ID__c", "DUP")
    assert multiple.value.content == [f"/services/data/v62.0/sobjects/Product2/{i}" for i in sorted(ids)]


def test_upsert_on_a_field_that_is_not_an_external_id_is_404(sf):
    with pytest.raises(SalesforceResourceNotFound) as bad:
        sf.Product2.upsert("Name/x", {"Family": "Shoes"})
    assert (
        bad.value.content[0]["message"]
        == "Provided external ID field does not exist or is not accessible: Name"
    )


# ---------------------------------------------------------------------------- describes and limits
def test_global_describe_lists_every_object_with_urls_at_the_requested_version():
    sf = connect("blank", version="59.0")
    described = sf.describe()
    assert described["encoding"] == "UTF-8" and described["maxBatchSize"] == 200
    names = [o["name"] for o in described["sobjects"]]
    assert names == sorted(names, key=str.lower)
    account = next(o for o in described["sobjects"] if o["name"] == "Account")
    assert account["keyPrefix"] == "001" and account["queryable"] is True
    assert account["urls"]["sobject"] == "/services/data/v59.0/sobjects/Account"
    assert "fields" not in account


def test_sobject_describe_and_basic_info(sf):
    describe = sf.Case.describe()
    assert describe["name"] == "Case" and any(f["name"] == "Subject" for f in describe["fields"])
    assert describe["urls"]["describe"] == "/services/data/v62.0/sobjects/Case/describe"
    info = sf.Case.metadata()
    assert info["objectDescribe"]["name"] == "Case" and info["recentItems"] == []


def test_limits_and_sforce_limit_info_count_api_requests(sf):
    sf.describe()
    sf.limits()
    assert sf.api_usage["api-usage"].total == 15000
    used = sf.api_usage["api-usage"].used
    assert sf.limits()["DailyApiRequests"] == {"Max": 15000, "Remaining": 15000 - used - 1}


def test_versions_and_resource_list():
    router = Router.for_org(emulated_org(connect("blank")))
    versions = router.handle(Request.from_url("GET", "https://x/services/data/")).json()
    assert versions[-1] == {"label": "Winter '25", "url": "/services/data/v62.0", "version": "62.0"}
    assert {"label": "Winter '24", "url": "/services/data/v59.0", "version": "59.0"} in versions
    sid = router.issue_session()
    resources = router.handle(
        Request.from_url("GET", "https://x/services/data/v59.0/", headers={"Authorization": f"Bearer {sid}"})
    ).json()
    assert resources["query"] == "/services/data/v59.0/query"


# ---------------------------------------------------------------------------- sessions
def test_a_request_without_a_valid_session_is_401_invalid_session_id(sf):
    stranger = Salesforce(instance_url=f"https://{sf.sf_instance}", session_id="forged", session=sf.session)
    with pytest.raises(SalesforceExpiredSession) as expired:
        stranger.describe()
    assert expired.value.content == [
        {"message": "Session expired or invalid", "errorCode": "INVALID_SESSION_ID"}
    ]


def test_sessions_are_per_org():
    first, second = connect("blank"), connect("blank")
    intruder = Salesforce(
        instance_url=f"https://{first.sf_instance}", session_id=second.session_id, session=first.session
    )
    with pytest.raises(SalesforceExpiredSession):
        intruder.describe()


def test_every_error_is_json_even_an_unexpected_one(monkeypatch):
    sf = connect("blank")
    from crmarena_sf.emulator.rest.data import describe

    def explode(call):
        raise RuntimeError("bug")

    monkeypatch.setattr(describe.ROUTES[2], "handlers", {"GET": explode})
    response = sf.session.get(sf.base_url + "limits", headers=sf.headers)
    assert response.status_code == 500
    assert json.loads(response.content)[0]["errorCode"] == "UNKNOWN_EXCEPTION"
