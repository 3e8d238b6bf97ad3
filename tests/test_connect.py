"""``connect()``: org names, the in-process emulator, and the real-org backend (login mocked with ``responses``)."""

from __future__ import annotations

import re

import pytest
import responses
from crmarena_sf.emulator.rest.transport.messages import INSTANCE_URL as EMULATOR_INSTANCE_URL
from crmarena_sf.emulator.store.org import Org
from simple_salesforce import Salesforce

import crmarena_sf
from crmarena_sf.connection.connect import (
    MissingCredentials,
    connect,
    emulated_org,
    read_env_file,
)
from crmarena_sf.connection.orgs import OrgNotFound, resolve_org

CREDENTIAL_ENV = (
    "SALESFORCE_USERNAME",
    "SALESFORCE_PASSWORD",
    "SALESFORCE_SECURITY_TOKEN",
    "SALESFORCE_DOMAIN",
    "SALESFORCE_INSTANCE_URL",
    "SALESFORCE_SESSION_ID",
    "SALESFORCE_CONSUMER_KEY",
    "SALESFORCE_CONSUMER_SECRET",
)

LOGIN_RESPONSE = (
    '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" '
    'xmlns="urn:partner.soap.sforce.com"><soapenv:Body><loginResponse><result>'
    "<serverUrl>https://acme.my.salesforce.com/services/Soap/u/62.0/00D000000000001</serverUrl>"
    "<sessionId>00D000000000001!REALSESSION</sessionId></result></loginResponse></soapenv:Body></soapenv:Envelope>"
)


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch, tmp_path):
    for name in CREDENTIAL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env from the working directory


def test_package_exports_the_front_door():
    assert crmarena_sf.connect is connect
    assert callable(crmarena_sf.mock_salesforce)


def test_emulator_backend_is_an_unmodified_client_on_its_own_session():
    sf = connect("blank")
    assert type(sf) is Salesforce
    assert sf.sf_version == "62.0" and sf.base_url.startswith(EMULATOR_INSTANCE_URL)
    assert sf.Account.create({"Name": "Acme"})["success"] is True
    # Nothing global was patched: a plain session does not reach the emulator's adapter.
    import requests

    assert (
        "crmarena" not in type(requests.Session().get_adapter(EMULATOR_INSTANCE_URL + "/")).__name__.lower()
    )


def test_blank_is_a_new_org_every_call_and_an_org_object_is_used_as_is():
    first, second = connect("blank"), connect("blank")
    first.Account.create({"Name": "Only in first"})
    assert emulated_org(second).count("Account") == 0
    org = Org.new()
    sf1, sf2 = connect(org), connect(org)
    sf1.Account.create({"Name": "Shared"})
    assert emulated_org(sf2) is org and org.count("Account") == 1


def test_standard_org_has_no_custom_objects():
    sf = connect("standard")
    names = {o["name"] for o in sf.describe()["sobjects"]}
    assert "Account" in names and not any(n.endswith("__c") for n in names)


def test_an_org_file_gives_private_copies_unless_opened_writable(tmp_path):
    path = tmp_path / "org.duckdb"
    Org.new().save(path)
    sf = connect(str(path))
    sf.Account.create({"Name": "Only in this copy"})
    assert connect(str(path)).query("SELECT COUNT() FROM Account")["totalSize"] == 0
    del sf
    writer = connect(str(path), writable=True)
    writer.Account.create({"Name": "Persisted"})
    writer_org = emulated_org(writer)
    writer_org.close()
    assert Org.open(path, read_only=True).count("Account") == 1


def test_unknown_org_names_say_what_is_expected(tmp_path):
    with pytest.raises(OrgNotFound, match="unknown org 'nowhere'.*blank"):
        resolve_org("nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(OrgNotFound, match="without manifest.json"):
        resolve_org(tmp_path / "empty")
    with pytest.raises(ValueError, match="unknown backend"):
        connect("blank", backend="oracle")


def test_session_id_option_is_honoured():
    sf = connect("blank", session_id="my-session")
    assert sf.session_id == "my-session"
    assert sf.limits()["DailyApiRequests"]["Max"] == 15000


# ---------------------------------------------------------------------------- real org
@responses.activate
def test_real_org_login_with_username_password_token():
    login = responses.post(
        "https://login.salesforce.com/services/Soap/u/62.0", body=LOGIN_RESPONSE, status=200
    )
    sf = connect(backend="salesforce", username="u@example.com", password="pw", security_token="tok")
    assert sf.session_id == "00D000000000001!REALSESSION" and sf.sf_instance == "acme.my.salesforce.com"
    assert b"<n1:password>pwtok</n1:password>" in login.calls[0].request.body.encode()


@responses.activate
def test_real_org_credentials_from_environment_with_sandbox_domain(monkeypatch):
    monkeypatch.setenv("SALESFORCE_USERNAME", "u@example.com.sandbox")
    monkeypatch.setenv("SALESFORCE_PASSWORD", "pw")
    monkeypatch.setenv("SALESFORCE_SECURITY_TOKEN", "tok")
    monkeypatch.setenv("SALESFORCE_DOMAIN", "test")
    responses.post(re.compile(r"https://test\.salesforce\.com/services/Soap/u/.*"), body=LOGIN_RESPONSE)
    sf = connect(backend="salesforce")
    assert sf.sf_instance == "acme.my.salesforce.com"


@responses.activate
def test_real_org_credentials_from_a_dot_env_file(tmp_path):
    (tmp_path / ".env").write_text(
        "# credentials\nexport SALESFORCE_USERNAME=u@example.com\nSALESFORCE_PASSWORD='p w'\nSALESFORCE_SECURITY_TOKEN=\"t\"\n"
    )
    login = responses.post("https://login.salesforce.com/services/Soap/u/62.0", body=LOGIN_RESPONSE)
    connect(backend="salesforce")
    assert "<n1:password>p wt</n1:password>" in login.calls[0].request.body


def test_real_org_instance_url_and_session_id_need_no_login(monkeypatch):
    monkeypatch.setenv("SALESFORCE_INSTANCE_URL", "https://acme.my.salesforce.com")
    monkeypatch.setenv("SALESFORCE_SESSION_ID", "00D!abc")
    sf = connect(backend="salesforce")
    assert sf.session_id == "00D!abc" and sf.base_url == "https://acme.my.salesforce.com/services/data/v62.0/"


@pytest.mark.parametrize(
    "url", ["not a url", "http://", "https://exa mple.com", "ftp://x.my.salesforce.com", "https://[bad"]
)
def test_an_instance_url_that_is_not_a_url_is_refused_before_any_call(monkeypatch, url):
    # simple-salesforce would keep only its "host" (https://none for "not a url") or raise from urllib.
    monkeypatch.setenv("SALESFORCE_INSTANCE_URL", url)
    monkeypatch.setenv("SALESFORCE_SESSION_ID", "00D!abc")
    with pytest.raises(MissingCredentials) as refused:
        connect(backend="salesforce")
    assert str(refused.value) == (
        f"the instance URL (SALESFORCE_INSTANCE_URL) is not an org's URL: {url!r} "
        "(expected https://DOMAIN.my.salesforce.com)"
    )


def test_missing_credentials_name_the_variables_and_never_the_secrets(monkeypatch):
    monkeypatch.setenv("SALESFORCE_PASSWORD", "hunter2-secret")
    with pytest.raises(MissingCredentials) as missing:
        connect(backend="salesforce")
    message = str(missing.value)
    assert "SALESFORCE_USERNAME" in message and "SALESFORCE_SECURITY_TOKEN" in message
    assert "SALESFORCE_PASSWORD," not in message and "hunter2" not in message
    assert "SALESFORCE_INSTANCE_URL and SALESFORCE_SESSION_ID" in message


def test_read_env_file_ignores_comments_and_missing_files(tmp_path):
    path = tmp_path / "x.env"
    path.write_text("A=1\n\n# B=2\nnot a pair\nC = 'three'\n")
    assert read_env_file(path) == {"A": "1", "C": "three"}
    assert read_env_file(tmp_path / "absent.env") == {}


@pytest.mark.slow
def test_default_org_is_the_crmarena_org_and_each_connect_gets_a_private_copy():
    first, second = connect(), connect()
    cases = first.query("SELECT COUNT() FROM Case")["totalSize"]
    assert cases > 0
    first.Account.create({"Name": "Only in the first copy"})
    assert second.query("SELECT COUNT() FROM Account WHERE Name = 'Only in the first copy'")["totalSize"] == 0


@pytest.mark.slow
def test_a_dataset_directory_is_loaded_and_a_broken_one_is_refused(crmarena_dataset, tmp_path):
    sf = connect(str(crmarena_dataset))
    assert sf.query("SELECT COUNT() FROM Case")["totalSize"] > 0
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "manifest.json").write_text("{}")
    with pytest.raises(OrgNotFound, match="manifest"):
        connect(str(tmp_path / "broken"))
