"""``crmarena-sf serve`` takes password logins only with the password it prints (the security token appended or not).

SOAP API Developer Guide, "login()": the password is the user's password, followed by the
security token where the org asks for one; Salesforce Help, "OAuth 2.0 Username-Password Flow":
``password`` likewise. Anything else is the SOAP fault ``INVALID_LOGIN`` "Invalid username,
password, security token; or user locked out." or the token endpoint's ``invalid_grant``
"authentication failure". In-process connections and ``mock_salesforce()`` stay lenient.
"""

from __future__ import annotations

import pytest
import requests
from crmarena_sf.emulator.store.seed import ADMIN_USERNAME
from serving import served
from simple_salesforce import Salesforce
from simple_salesforce.exceptions import SalesforceAuthenticationFailed

from crmarena_sf import mock_salesforce


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served(
        "--org",
        "blank",
        "--password",
        "s3cret",
        "--security-token",
        "TOKEN42",
        cert_dir=tmp_path_factory.mktemp("tls"),
    ) as printed:
        yield printed


def test_serve_prints_the_credentials_it_accepts(server):
    assert (server["username"], server["password"], server["security_token"]) == (
        ADMIN_USERNAME,
        "s3cret",
        "TOKEN42",
    )


def _soap(server, username: str, password: str) -> requests.Response:
    body = (
        '<?xml version="1.0" encoding="utf-8" ?><env:Envelope xmlns:xsd="http://www.w3.org/2001/XMLSchema" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:env="http://schemas.xmlsoap.org/soap/envelope/" '
        'xmlns:urn="urn:partner.soap.sforce.com"><env:Body><n1:login xmlns:n1="urn:partner.soap.sforce.com">'
        f"<n1:username>{username}</n1:username><n1:password>{password}</n1:password></n1:login></env:Body></env:Envelope>"
    )
    return requests.post(
        f"{server['instance_url']}/services/Soap/u/62.0",
        data=body,
        headers={"Content-Type": "text/xml", "SOAPAction": "login"},
        verify=server["certificate"],
        timeout=30,
    )


@pytest.mark.parametrize("password", ["s3cret", "s3cretTOKEN42"], ids=["password", "password and token"])
def test_soap_login_with_the_printed_password_with_or_without_the_token(server, password):
    answer = _soap(server, ADMIN_USERNAME, password)
    assert answer.status_code == 200 and "<sessionId>" in answer.text


@pytest.mark.parametrize(
    "username, password",
    [
        (ADMIN_USERNAME, "wrong"),
        (ADMIN_USERNAME, "TOKEN42"),
        ("nobody@example.com", "s3cret"),
        (ADMIN_USERNAME, ""),
    ],
    ids=["wrong password", "token alone", "unknown user", "no password"],
)
def test_soap_login_refuses_anything_else(server, username, password):
    answer = _soap(server, username, password)
    assert answer.status_code == 500
    assert "<faultcode>sf:INVALID_LOGIN</faultcode>" in answer.text
    assert "Invalid username, password, security token; or user locked out." in answer.text


def _oauth(server, password: str) -> requests.Response:
    return requests.post(
        f"{server['instance_url']}/services/oauth2/token",
        data={
            "grant_type": "password",
            "client_id": "cid",
            "client_secret": "secret",
            "username": ADMIN_USERNAME,
            "password": password,
        },
        verify=server["certificate"],
        timeout=30,
    )


def test_oauth_password_grant_checks_the_password(server):
    assert _oauth(server, "s3cretTOKEN42").json()["instance_url"] == server["instance_url"]
    assert _oauth(server, "s3cret").status_code == 200
    refused = _oauth(server, "guess")
    assert refused.status_code == 400
    assert refused.json() == {"error": "invalid_grant", "error_description": "authentication failure"}


def test_simple_salesforce_logs_in_to_serve_with_password_and_token(server, monkeypatch):
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", server["certificate"])
    host = server["instance_url"].split("://", 1)[1]
    # simple-salesforce's SOAP login goes to https://<domain>.salesforce.com; its own login code
    # builds the URL, so point it at serve through a session that rewrites the host.
    session = requests.Session()
    original = session.request

    def to_serve(method, url, *args, **kwargs):
        return original(
            method, url.replace("https://login.salesforce.com", f"https://{host}"), *args, **kwargs
        )

    session.request = to_serve
    sf = Salesforce(username=ADMIN_USERNAME, password="s3cret", security_token="TOKEN42", session=session)
    assert sf.query("SELECT Username FROM User")["records"][0]["Username"] == ADMIN_USERNAME
    with pytest.raises(SalesforceAuthenticationFailed, match="INVALID_LOGIN"):
        Salesforce(username=ADMIN_USERNAME, password="nope", security_token="", session=session)


def test_in_process_mock_stays_lenient():
    with mock_salesforce():
        sf = Salesforce(username="anyone@example.com", password="anything", security_token="")
        assert sf.query("SELECT COUNT() FROM Account")["totalSize"] == 0
