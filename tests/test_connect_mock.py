"""``mock_salesforce()``: any simple-salesforce login inside it reaches an emulated org.

Login wire formats: simple-salesforce's login.py (SOAP partner login parsed by element name,
INVALID_LOGIN fault; OAuth token JSON), simple_salesforce/login.py.
"""

from __future__ import annotations

import pytest
import requests
from crmarena_sf.emulator.rest.transport.router import Router
from crmarena_sf.emulator.rest.transport.server import serve
from crmarena_sf.emulator.store.org import Org
from crmarena_sf.emulator.store.seed import ADMIN_USERNAME
from simple_salesforce import Salesforce
from simple_salesforce.exceptions import SalesforceAuthenticationFailed

from crmarena_sf import mock_salesforce


def test_username_password_login_reaches_the_emulated_org():
    with mock_salesforce(org="blank") as mock:
        sf = Salesforce(username="someone@example.com", password="pw", security_token="tok")
        assert sf.sf_instance == "crmarena-sf.my.salesforce.com"
        sf.Account.create({"Name": "Mocked"})
        assert mock.org.count("Account") == 1


def test_sandbox_domain_and_the_admin_username_log_in_too():
    with mock_salesforce() as mock:
        sf = Salesforce(username=ADMIN_USERNAME, password="pw", security_token="", domain="test")
        assert sf.Contact.create({"LastName": "Sandbox"})["success"]
        assert mock.org.count("Contact") == 1


def test_oauth_password_grant():
    with mock_salesforce():
        sf = Salesforce(username="u@example.com", password="pw", consumer_key="key", consumer_secret="secret")
        assert sf.limits()["DailyApiRequests"]["Max"] == 15000


def test_instance_url_and_any_session_id():
    with mock_salesforce() as mock:
        sf = Salesforce(instance_url="https://na1.salesforce.com", session_id="whatever")
        sf.Account.create({"Name": "Direct"})
        assert mock.org.count("Account") == 1


def test_a_refused_login_is_salesforces_invalid_login_fault():
    with mock_salesforce(strict_sessions=True), pytest.raises(SalesforceAuthenticationFailed) as refused:
        Salesforce(username="nobody@example.com", password="pw", security_token="")
    assert refused.value.code == "INVALID_LOGIN"
    assert refused.value.auth_message == "Invalid username, password, security token; or user locked out."


def test_strict_sessions_expire_and_the_client_logs_in_again():
    with mock_salesforce(strict_sessions=True) as mock:
        sf = Salesforce(username=ADMIN_USERNAME, password="pw", security_token="tok")
        first_session = sf.session_id
        mock.router._sessions.clear()  # the org forgets every session, as when one expires
        assert sf.Account.create({"Name": "After re-login"})["success"]
        assert sf.session_id != first_session


def test_decorator_forms_get_a_fresh_org_per_call():
    seen = []

    @mock_salesforce
    def bare():
        sf = Salesforce(instance_url="https://x.my.salesforce.com", session_id="s")
        sf.Account.create({"Name": "A"})
        seen.append(sf.describe()["sobjects"][0]["name"])

    org = Org.new()

    @mock_salesforce(org=org)
    def with_org():
        Salesforce(instance_url="https://x.my.salesforce.com", session_id="s").Account.create({"Name": "B"})

    bare()
    bare()
    with_org()
    with_org()
    assert seen == ["Account", "Account"]
    assert org.count("Account") == 2


def test_traffic_to_other_hosts_passes_through():
    server, _ = serve(Router(Org.new()), "127.0.0.1", 0, tls=False)
    server.start_background()
    try:
        with mock_salesforce():
            response = requests.get(f"{server.instance_url}/services/data", timeout=5)
        assert response.status_code == 200 and response.json()[-1]["version"] == "62.0"
    finally:
        server.stop()


def test_outside_the_mock_nothing_is_intercepted():
    with mock_salesforce():
        pass
    import responses

    assert not responses.mock.registered()


# ------------------------------------------------------------------ nesting with the test's own responses mocks
# responses intercepts by patching HTTPAdapter.send; the inner of two nested mocks answers what it
# registered and the rest goes to the one outside it (crmarena_sf.mock_nesting).
OTHER_API = "https://api.example.com/orders"


def test_the_emulator_inside_a_tests_responses_mock_leaves_its_registrations_to_it():
    import responses

    with responses.RequestsMock() as theirs:
        theirs.get(OTHER_API, json=[{"order": 1}])
        with mock_salesforce() as mock:
            sf = Salesforce(username="u@example.com", password="pw", security_token="tok")
            sf.Account.create({"Name": "Inside"})
            assert requests.get(OTHER_API, timeout=5).json() == [{"order": 1}]
            # what neither registered is refused by the outer mock, never sent to the network
            with pytest.raises(requests.ConnectionError, match="Connection refused by Responses"):
                requests.get("https://unmocked.example.com/", timeout=5)
        assert mock.org.count("Account") == 1
        # the outer mock saw its own call and the refused one, no Salesforce call
        assert [call.request.url for call in theirs.calls] == [OTHER_API, "https://unmocked.example.com/"]


def test_a_tests_responses_mock_inside_the_emulator_answers_its_own_and_passes_salesforce_on():
    import responses

    with mock_salesforce() as mock, responses.RequestsMock() as theirs:
        theirs.get(OTHER_API, json=[{"order": 2}])
        sf = Salesforce(username="u@example.com", password="pw", security_token="tok")
        sf.Contact.create({"LastName": "Inner"})
        assert requests.get(OTHER_API, timeout=5).json() == [{"order": 2}]
        with pytest.raises(requests.ConnectionError, match="Connection refused by Responses"):
            requests.get("https://unmocked.example.com/", timeout=5)
        assert mock.org.count("Contact") == 1
        assert [call.request.url for call in theirs.calls] == [OTHER_API, "https://unmocked.example.com/"]


def test_a_salesforce_endpoint_the_inner_mock_registered_is_answered_by_it():
    import responses
    from simple_salesforce.exceptions import SalesforceGeneralError

    with mock_salesforce() as mock, responses.RequestsMock() as theirs:
        sf = Salesforce(instance_url=mock.instance_url, session_id="s")
        theirs.post(
            f"{mock.instance_url}/services/data/v{sf.sf_version}/sobjects/Account/",
            status=503,
            json=[{"errorCode": "SERVER_UNAVAILABLE", "message": "down for maintenance"}],
        )
        with pytest.raises(SalesforceGeneralError):
            sf.Account.create({"Name": "Refused"})
        assert sf.Contact.create({"LastName": "Still emulated"})["success"]
        assert mock.org.count("Account") == 0 and mock.org.count("Contact") == 1


def test_decorators_compose_in_either_order():
    import responses

    @mock_salesforce
    @responses.activate
    def emulator_outside():
        responses.get(OTHER_API, json={"ok": "outside"})
        sf = Salesforce(instance_url="https://x.my.salesforce.com", session_id="s")
        assert sf.Account.create({"Name": "A"})["success"]
        return requests.get(OTHER_API, timeout=5).json()

    @responses.activate
    @mock_salesforce
    def emulator_inside():
        responses.get(OTHER_API, json={"ok": "inside"})
        sf = Salesforce(instance_url="https://x.my.salesforce.com", session_id="s")
        assert sf.Account.create({"Name": "B"})["success"]
        return requests.get(OTHER_API, timeout=5).json()

    assert emulator_outside() == {"ok": "outside"}
    assert emulator_inside() == {"ok": "inside"}
    assert not responses.mock.registered()


def test_an_org_object_is_shared_by_every_call_unless_forked():
    org = Org.new()

    @mock_salesforce(org=org, fork=True)
    def forked():
        sf = Salesforce(instance_url="https://x.my.salesforce.com", session_id="s")
        sf.Account.create({"Name": "Private"})
        return sf.query("SELECT COUNT() FROM Account")["totalSize"]

    assert [forked(), forked()] == [1, 1]
    assert org.count("Account") == 0
