"""``crmarena-sf metadata pull`` against a mocked org (``responses``): login, describes, failures."""

from __future__ import annotations

import json
import re

import pytest
import responses
from crmarena_sf.metadata import API_VERSION, DESCRIBE_DIR, load_schema, read_describes
from crmarena_sf.metadata.build import build_describes
from crmarena_sf.metadata.pull import CRMARENA_OBJECTS
from crmarena_sf.metadata.spec import field, sobject

from crmarena_sf.cli.main import main

INSTANCE = "https://acme.my.salesforce.com"
SOAP_LOGIN = f"https://login.salesforce.com/services/Soap/u/{API_VERSION}"
DESCRIBE = re.compile(
    rf"{re.escape(INSTANCE)}/services/data/v{re.escape(API_VERSION)}/sobjects/(\w+)/describe"
)
ENV_VARS = (
    "SALESFORCE_USERNAME",
    "SALESFORCE_PASSWORD",
    "SALESFORCE_SECURITY_TOKEN",
    "SALESFORCE_DOMAIN",
    "SALESFORCE_INSTANCE_URL",
    "SALESFORCE_SESSION_ID",
)
SECRET = "s3cret-pa55"

# Login response shape: simple-salesforce's login.py (simple-salesforce reads the unprefixed
# sessionId and serverUrl elements).
LOGIN_OK = f"""<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>
<loginResponse><result><serverUrl>{INSTANCE.replace(".my.", "-api.my.")}/services/Soap/u/{API_VERSION}/00D000000000001</serverUrl>
<sessionId>00D000000000001!SESSION</sessionId></result></loginResponse></soapenv:Body></soapenv:Envelope>"""
LOGIN_FAULT = """<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:sf="urn:fault.partner.soap.sforce.com">
<soapenv:Body><soapenv:Fault><faultcode>sf:INVALID_LOGIN</faultcode>
<faultstring>INVALID_LOGIN: Invalid username, password, security token; or user locked out.</faultstring>
<detail><sf:LoginFault><sf:exceptionCode>INVALID_LOGIN</sf:exceptionCode>
<sf:exceptionMessage>Invalid username, password, security token; or user locked out.</sf:exceptionMessage>
</sf:LoginFault></detail></soapenv:Fault></soapenv:Body></soapenv:Envelope>"""


def _widget_describe() -> dict:
    """A user's own custom object, as their org would describe it."""
    spec = sobject(
        "Widget__c",
        "Widget",
        "Widgets",
        "a0W",
        fields=[
            field("Id", "id", "Record ID"),
            field("Name", "string", "Widget Name", length=80, nameField=True),
            field("Case__c", "reference", "Case", to="Case", child="Widgets__r"),
        ],
    )
    return build_describes([spec])["Widget__c"]


@pytest.fixture
def org_documents():
    docs = read_describes(DESCRIBE_DIR)
    docs["Widget__c"] = _widget_describe()
    return docs


@pytest.fixture
def env(monkeypatch, tmp_path):
    """A clean environment with password credentials, run from an empty directory (no .env)."""
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SALESFORCE_USERNAME", "agent@acme.example")
    monkeypatch.setenv("SALESFORCE_PASSWORD", SECRET)
    monkeypatch.setenv("SALESFORCE_SECURITY_TOKEN", "TOKEN123")
    return monkeypatch


@pytest.fixture
def org(org_documents):
    """A mocked org: SOAP login succeeds, every describe the project knows (plus Widget__c) is served."""
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add(responses.POST, SOAP_LOGIN, body=LOGIN_OK, status=200, content_type="text/xml")

        def serve(request):
            name = DESCRIBE.match(request.url).group(1)
            if name == "Broken__c":  # a describe the org fails to answer
                body = [{"errorCode": "UNKNOWN_EXCEPTION", "message": "An unexpected error occurred."}]
                return 500, {}, json.dumps(body)
            if name not in org_documents:
                body = [{"errorCode": "NOT_FOUND", "message": "The requested resource does not exist"}]
                return 404, {}, json.dumps(body)
            return 200, {}, json.dumps(org_documents[name])

        mock.add_callback(responses.GET, DESCRIBE, callback=serve, content_type="application/json")
        yield mock


def _describe_calls(mock) -> list[str]:
    return [DESCRIBE.match(c.request.url).group(1) for c in mock.calls if DESCRIBE.match(c.request.url)]


def test_pull_writes_describes_that_extend_the_schema(env, org, tmp_path, capsys):
    out = tmp_path / "pulled"
    code = main(["metadata", "pull", "--out", str(out), "--objects", "Widget__c, Case", "--quiet"])
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == ["Case.json", "Widget__c.json"]
    assert "wrote 2 describe documents" in capsys.readouterr().out
    schema = load_schema(extra_dirs=(out,))
    widget = schema.get("widget__c")
    assert widget.keyPrefix == "a0W" and widget.parent_relationship("Case__r").referenceTo == ["Case"]
    assert schema.get("Case").field("OrderItemId__c") is not None


def test_pull_defaults_to_the_crmarena_objects(env, org, tmp_path):
    out = tmp_path / "crm"
    assert main(["metadata", "pull", "--out", str(out), "--quiet"]) == 0
    assert _describe_calls(org) == list(CRMARENA_OBJECTS)
    assert {p.stem for p in out.glob("*.json")} == set(CRMARENA_OBJECTS)
    assert read_describes(out)["Account"] == read_describes(DESCRIBE_DIR)["Account"]


def test_a_new_org_without_crmarenas_custom_objects_gets_the_others_and_is_told(
    env, org, org_documents, tmp_path, capsys
):
    """A fresh org has no Issue__c or CaseHistory__c until crmarena-sf push creates them (issue 25)."""
    del org_documents["Issue__c"], org_documents["CaseHistory__c"]
    out = tmp_path / "crm"
    assert main(["metadata", "pull", "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr()
    assert {p.stem for p in out.glob("*.json")} == set(CRMARENA_OBJECTS) - {"Issue__c", "CaseHistory__c"}
    assert printed.out == f"wrote 14 describe documents to {out}\n"
    assert printed.err == (
        "not in this org, so not pulled: Issue__c, CaseHistory__c (crmarena-sf push creates CRMArena's "
        "custom objects; --objects A,B,... chooses the objects to pull)\n"
    )


def test_an_object_asked_for_that_the_org_lacks_is_named_and_the_others_written(env, org, tmp_path, capsys):
    out = tmp_path / "pulled"
    assert main(["metadata", "pull", "--out", str(out), "--objects", "Account,NoSuch__c", "--quiet"]) == 1
    printed = capsys.readouterr()
    assert (
        printed.err
        == "crmarena-sf: not in this org: NoSuch__c (the others were written; --objects chooses)\n"
    )
    assert [p.name for p in out.iterdir()] == ["Account.json"]


def test_failed_login_is_one_clear_line_and_exit_1(env, tmp_path, capsys):
    out = tmp_path / "never"
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, SOAP_LOGIN, body=LOGIN_FAULT, status=500, content_type="text/xml")
        code = main(["metadata", "pull", "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.count("\n") == 1
    assert "INVALID_LOGIN" in err and "Invalid username, password, security token" in err
    assert SECRET not in err and "TOKEN123" not in err
    assert not out.exists()


def test_missing_variables_are_named_and_nothing_is_sent(monkeypatch, tmp_path, capsys):
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SALESFORCE_USERNAME", "agent@acme.example")
    with responses.RequestsMock() as mock:
        code = main(["metadata", "pull", "--out", str(tmp_path / "x")])
        assert len(mock.calls) == 0
    err = capsys.readouterr().err
    assert code == 2
    assert "SALESFORCE_PASSWORD" in err and "SALESFORCE_SECURITY_TOKEN" in err
    assert "SALESFORCE_USERNAME," not in err


def test_a_failed_describe_leaves_the_output_directory_untouched(env, org, tmp_path, capsys):
    out = tmp_path / "existing"
    out.mkdir()
    (out / "Case.json").write_text("{}", encoding="utf-8")
    code = main(["metadata", "pull", "--out", str(out), "--objects", "Account,Broken__c", "--quiet"])
    assert code == 1
    assert "Broken__c: UNKNOWN_EXCEPTION" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["Case.json"]
    assert (out / "Case.json").read_text(encoding="utf-8") == "{}"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no staging left


def test_pull_into_an_existing_directory_replaces_files(env, org, tmp_path):
    out = tmp_path / "existing"
    out.mkdir()
    (out / "Case.json").write_text("{}", encoding="utf-8")
    (out / "Mine.json").write_text("{}", encoding="utf-8")
    assert main(["metadata", "pull", "--out", str(out), "--objects", "Case", "--quiet"]) == 0
    assert json.loads((out / "Case.json").read_text(encoding="utf-8"))["name"] == "Case"
    assert (out / "Mine.json").exists()


def test_a_session_id_skips_the_password_login(monkeypatch, tmp_path, org):
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SALESFORCE_INSTANCE_URL", INSTANCE)
    monkeypatch.setenv("SALESFORCE_SESSION_ID", "00D!TOKEN")
    assert main(["metadata", "pull", "--out", str(tmp_path / "o"), "--objects", "Case", "--quiet"]) == 0
    assert [c.request.method for c in org.calls] == ["GET"]
    assert org.calls[0].request.headers["Authorization"] == "Bearer 00D!TOKEN"


def test_sandbox_domain_logs_in_at_test_salesforce_com(env, tmp_path):
    env.setenv("SALESFORCE_DOMAIN", "test")
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, SOAP_LOGIN.replace("login.", "test."), body=LOGIN_FAULT, status=500)
        assert main(["metadata", "pull", "--out", str(tmp_path / "o"), "--quiet"]) == 1
        assert mock.calls[0].request.url.startswith("https://test.salesforce.com/")


def test_credentials_come_from_dotenv_and_the_environment_wins(monkeypatch, tmp_path, org):
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(
        "# org\nexport SALESFORCE_USERNAME='file@acme.example'\nSALESFORCE_PASSWORD=\"pw\"\n"
        "SALESFORCE_SECURITY_TOKEN=tok\n\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("SALESFORCE_PASSWORD", "from-env")
    assert main(["metadata", "pull", "--out", str(tmp_path / "o"), "--objects", "Case", "--quiet"]) == 0
    login = org.calls[0].request.body
    login = login.decode() if isinstance(login, bytes) else login
    assert "<n1:username>file@acme.example</n1:username>" in login
    assert "<n1:password>from-envtok</n1:password>" in login


def test_metadata_without_action_prints_usage(capsys):
    assert main(["metadata"]) == 2
    assert "pull" in capsys.readouterr().err
