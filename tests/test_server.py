"""The HTTPS server: plain ``requests`` (as curl would), simple-salesforce, logins, concurrency, the CLI's Ctrl-C.

simple-salesforce only speaks https (simple-salesforce's api.py), so the server makes a
self-signed certificate clients trust through ``REQUESTS_CA_BUNDLE`` or ``verify=``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import pytest
import requests
from crmarena_sf.emulator.rest.transport.router import Router
from crmarena_sf.emulator.rest.transport.server import serve
from crmarena_sf.emulator.store.org import Org
from crmarena_sf.emulator.store.seed import ADMIN_USERNAME
from simple_salesforce import Salesforce, SalesforceLogin


@pytest.fixture(scope="module")
def cert_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("tls")


@pytest.fixture
def server(cert_dir, monkeypatch):
    router = Router(Org.new())
    srv, cert = serve(router, "127.0.0.1", 0, cert_dir=cert_dir)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(cert))
    srv.start_background()
    srv.cert = cert
    srv.sid = router.issue_session()
    yield srv
    srv.stop()


def _auth(srv) -> dict[str, str]:
    return {"Authorization": f"Bearer {srv.sid}"}


def test_plain_requests_like_curl(server):
    base = f"{server.instance_url}/services/data/v62.0"
    assert requests.get(f"{server.instance_url}/services/data").json()[-1]["version"] == "62.0"
    created = requests.post(f"{base}/sobjects/Account/", json={"Name": "Over HTTPS"}, headers=_auth(server))
    assert created.status_code == 201
    record = requests.get(f"{base}/sobjects/Account/{created.json()['id']}", headers=_auth(server)).json()
    assert record["Name"] == "Over HTTPS"
    assert requests.head(f"{base}/limits", headers=_auth(server)).content == b""
    limits = requests.get(f"{base}/limits", headers=_auth(server))
    assert limits.headers["Sforce-Limit-Info"].startswith("api-usage=")


def test_requests_without_the_session_get_401(server):
    response = requests.get(f"{server.instance_url}/services/data/v62.0/sobjects")
    assert response.status_code == 401
    assert response.json() == [{"message": "Session expired or invalid", "errorCode": "INVALID_SESSION_ID"}]


def test_simple_salesforce_with_instance_url_and_session_id(server):
    sf = Salesforce(instance_url=server.instance_url, session_id=server.sid)
    assert sf.sf_instance == f"127.0.0.1:{server.port}"
    record_id = sf.Contact.create({"LastName": "Remote"})["id"]
    assert sf.Contact.get(record_id)["LastName"] == "Remote"
    sf.describe()
    assert sf.api_usage["api-usage"].total == 15000


def test_soap_login_and_oauth_password_grant_return_sessions(server):
    session_id, instance = SalesforceLogin(
        username=ADMIN_USERNAME, password="pw", security_token="tok", scratch_url=server.instance_url
    )
    assert instance == f"127.0.0.1:{server.port}"
    sf = Salesforce(instance=instance, session_id=session_id)
    assert sf.Account.create({"Name": "Logged in"})["success"]
    token = requests.post(
        f"{server.instance_url}/services/oauth2/token",
        data={
            "grant_type": "password",
            "client_id": "k",
            "client_secret": "s",
            "username": ADMIN_USERNAME,
            "password": "pw",
        },
    ).json()
    assert token["instance_url"] == server.instance_url and token["token_type"] == "Bearer"
    limits = requests.get(
        f"{server.instance_url}/services/data/v62.0/limits",
        headers={"Authorization": f"Bearer {token['access_token']}"},
    )
    assert limits.status_code == 200


def test_plain_http_mode():
    router = Router(Org.new())
    srv, cert = serve(router, "127.0.0.1", 0, tls=False)
    srv.start_background()
    try:
        assert cert is None and srv.instance_url.startswith("http://")
        response = requests.get(
            f"{srv.instance_url}/services/data/v62.0/sobjects/Account/describe",
            headers={"X-SFDC-Session": router.issue_session()},
        )
        assert response.json()["name"] == "Account"
    finally:
        srv.stop()


def test_concurrent_clients_lose_no_write(server):
    errors: list[BaseException] = []
    created: list[list[str]] = [[] for _ in range(4)]

    def client(number: int) -> None:
        try:
            sf = Salesforce(instance_url=server.instance_url, session_id=server.sid)
            for i in range(25):
                if i % 3 == 2:
                    sf.describe()
                    if created[number]:
                        sf.Account.get(created[number][-1])
                else:
                    record_id = sf.Account.create({"Name": f"client {number} #{i}"})["id"]
                    sf.Account.update(record_id, {"Description": f"updated by {number}"})
                    created[number].append(record_id)
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    org = server.router.org
    all_ids = [i for ids in created for i in ids]
    assert len(all_ids) == len(set(all_ids)) == 4 * 17
    assert org.count("Account") == len(all_ids)
    for number, ids in enumerate(created):
        for record_id in ids:
            assert org.get("Account", record_id, ["Description"])["Description"] == f"updated by {number}"


# ---------------------------------------------------------------------------- the CLI
def _start_cli(*args: str) -> tuple[subprocess.Popen, dict[str, str]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "crmarena_sf.cli.main", "serve", "--org", "blank", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    printed = {}
    for _ in range(3):
        line = process.stdout.readline()
        key, _, value = line.strip().partition(": ")
        printed[key] = value
    return process, printed


def test_cli_serve_prints_how_to_connect_and_stops_cleanly_on_ctrl_c(cert_dir):
    process, printed = _start_cli("--session-id", "cli-session", "--cert-dir", str(cert_dir))
    try:
        assert printed["session_id"] == "cli-session"
        assert printed["instance_url"].startswith("https://127.0.0.1:")
        response = requests.get(
            f"{printed['instance_url']}/services/data/v62.0/limits",
            headers={"Authorization": "Bearer cli-session"},
            verify=printed["certificate"],
        )
        assert response.status_code == 200
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == 0
        assert "Traceback" not in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()


def test_cli_serve_http_random_session_and_bad_org():
    process, printed = _start_cli("--http")
    try:
        assert printed["certificate"].startswith("none") and len(printed["session_id"]) > 40
        unauthorized = requests.get(f"{printed['instance_url']}/services/data/v62.0/limits")
        assert unauthorized.status_code == 401
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:  # a server that did not stop never outlives its test
            process.kill()
            process.wait()
    bad = subprocess.run(
        [sys.executable, "-m", "crmarena_sf.cli.main", "serve", "--org", "/no/such/org.duckdb"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stderr.startswith("crmarena-sf: unknown org")


def test_query_composite_and_bulk_over_https_with_plain_requests(server):
    base = f"{server.instance_url}/services/data/v62.0"
    auth = _auth(server)
    composite = requests.post(
        f"{base}/composite",
        json={
            "allOrNone": True,
            "compositeRequest": [
                {
                    "method": "POST",
                    "url": "/services/data/v62.0/sobjects/Account",
                    "referenceId": "a",
                    "body": {"Name": "Wire"},
                },
                {
                    "method": "GET",
                    "url": "/services/data/v62.0/query?q=SELECT+Name+FROM+Account",
                    "referenceId": "q",
                },
            ],
        },
        headers=auth,
    ).json()["compositeResponse"]
    assert [r["httpStatusCode"] for r in composite] == [201, 200]
    assert composite[1]["body"]["records"][0]["Name"] == "Wire"
    page = requests.get(f"{base}/query/", params={"q": "SELECT Id, Name FROM Account"}, headers=auth).json()
    assert page["totalSize"] == 1 and page["done"] is True
    job = requests.post(
        f"{base}/jobs/query", json={"operation": "query", "query": "SELECT Name FROM Account"}, headers=auth
    ).json()
    assert requests.get(f"{base}/jobs/query/{job['id']}", headers=auth).json()["state"] == "JobComplete"
    results = requests.get(f"{base}/jobs/query/{job['id']}/results", headers=auth)
    assert results.text == '"Name"\n"Wire"\n'
    assert results.headers["Sforce-NumberOfRecords"] == "1" and results.headers["Sforce-Locator"] == "null"


def test_chunked_request_bodies_are_read(server):
    def body():
        yield b'{"Name": '
        yield b'"Chunked"}'

    response = requests.post(
        f"{server.instance_url}/services/data/v62.0/sobjects/Account", data=body(), headers=_auth(server)
    )
    assert response.status_code == 201
    assert server.router.org.get("Account", response.json()["id"], ["Name"])["Name"] == "Chunked"
