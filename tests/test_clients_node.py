"""jsforce 3 and the Salesforce CLI (``sf``), unmodified, against ``crmarena-sf serve`` over HTTPS.

The npm packages are installed for the tests (:mod:`npm_installs`, which the session starts
installing while the other tests run), into ``npm/`` of the crmarena-sf cache
(``loaders.default_org.cache_root``; in the test suite the session's private cache, see
conftest.py, so every run installs afresh): ``jsforce@3`` and ``@salesforce/cli@2`` with
``node@22`` (the CLI needs Node 22; the ``node`` package brings that binary). Without ``node`` and ``npm`` on the PATH the tests are skipped, and so they are when
the npm registry cannot be reached (``npm ping``), both saying so; an install from a registry
that answers and fails is an error, never a skip.

Nothing reaches the user's home or outlives the tests: npm, node and sf run with ``HOME``, npm's
cache and user config, and the XDG directories inside a temporary folder; the sf
CLI's self-update is off (``SF_AUTOUPDATE_DISABLE`` and ``SF_DISABLE_AUTOUPDATE``, "either
variable works": Salesforce CLI Environment Variables,
https://developer.salesforce.com/docs/atlas.en-us.sfdx_setup.meta/sfdx_setup/sfdx_dev_cli_env_variables.htm;
an npm install with only the first set still started ``sf update --autoupdate`` in the
background); every command runs in a process group of its own that is ended after it, and the
module fails if any process started from its install is still running at the end.
The client calls are the ones users reported broken (issue 13): Bulk API 1.0, identity,
multi-record retrieve, SOAP and OAuth logins and logouts, ``sf org login access-token`` and
``sfdx-url``, and ``sf data query`` with its ``columns=true`` follow-up.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from crmarena_sf.emulator.store.seed import ADMIN_USERNAME, ORGANIZATION_ID
from crmarena_sf.loaders.default_org import cache_root
from npm_installs import end as _end
from npm_installs import node_base_env as _node_base_env
from npm_installs import npm_install
from npm_installs import processes_from as _processes_from
from npm_installs import run as _run

CLIENTS = Path(__file__).parent / "clients"
SESSION_ID = "00DEm0000000001!node-clients"

pytestmark = [
    pytest.mark.npm("jsforce3", "sf-cli"),
    pytest.mark.skipif(
        shutil.which("node") is None or shutil.which("npm") is None,
        reason="node and npm are needed to run jsforce and the sf CLI (the README's install has them on CI)",
    ),
]


@pytest.fixture(scope="module")
def node_home(tmp_path_factory):
    """HOME, npm's cache and config and the XDG directories for every node process: a temporary folder.

    At the end, any process still running from the module's npm installs is ended, and fails the module.
    """
    home = tmp_path_factory.mktemp("node-home")
    yield home
    left = _processes_from(cache_root() / "npm")
    for pid, _ in left:
        _end(pid)
    assert left == [], f"processes left running: {left}"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``crmarena-sf serve --org blank`` on a free port, with a known session id."""
    certs = tmp_path_factory.mktemp("tls")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "crmarena_sf.cli.main",
            "serve",
            "--org",
            "blank",
            "--port",
            "0",
            "--session-id",
            SESSION_ID,
            "--password",
            "any-password",  # what jsforce_calls.js logs in with
            "--cert-dir",
            str(certs),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    printed: dict[str, str] = {}
    try:
        for _ in range(20):
            line = process.stdout.readline()
            if not line:
                break
            key, _, value = line.strip().partition(": ")
            printed[key] = value
            if {"instance_url", "session_id", "certificate", "sfdx_auth_url"} <= set(printed):
                break
        assert "instance_url" in printed, f"serve printed {printed}: {process.stderr.read()[-2000:]}"
        yield printed
    finally:
        process.terminate()
        process.wait(timeout=30)


def _node_env(server, home: Path, **extra: str) -> dict[str, str]:
    return {**_node_base_env(home), "NODE_EXTRA_CA_CERTS": server["certificate"], **extra}


# ---------------------------------------------------------------------------- jsforce
def test_jsforce_calls_users_reported_broken(server, node_home, tmp_path):
    prefix = npm_install("jsforce3", node_home)
    env = _node_env(
        server,
        tmp_path,
        INSTANCE_URL=server["instance_url"],
        SESSION_ID=SESSION_ID,
        USERNAME=ADMIN_USERNAME,
        NODE_PATH=str(prefix / "node_modules"),
    )
    done = _run(["node", str(CLIENTS / "jsforce_calls.js")], env, 300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = json.loads(done.stdout)
    failed = {step: value for step, value in out.items() if isinstance(value, dict) and "error" in value}
    assert not failed, failed
    assert out["identity_by_token"]["organization_id"] == ORGANIZATION_ID
    assert (
        out["soap_login"]["url"] == f"{server['instance_url']}/id/{ORGANIZATION_ID}/{out['soap_login']['id']}"
    )
    assert out["identity_after_login"] == ADMIN_USERNAME
    assert out["query_parent_reference"] == [["Trail Shoe", 42]]
    assert [r["success"] for r in out["bulk_insert"]] == [True, True, False]
    assert out["bulk_insert"][2]["errors"] == [
        "REQUIRED_FIELD_MISSING:Required fields are missing: [Name]:Name --"
    ]
    assert out["bulk_update"] == [True] and out["bulk_delete"] == [True]
    assert out["bulk_upsert"] == [{"success": True, "created": False}, {"success": True, "created": True}]
    assert out["bulk_query"] == [
        {"Name": "Bulk One Updated", "NumberOfEmployees": "10"},
        {"Name": "Bulk Two", "NumberOfEmployees": ""},
    ]
    assert out["retrieve_many"] == ["Bulk One Updated", None]
    assert out["retrieve_many_all_fields"] == ["Bulk One Updated"]
    assert out["describe_layouts"] == 1 and out["compact_layouts"] == "SYSTEM"
    assert out["updated"] >= 1 and len(out["deleted"]) == 1
    assert out["recent"] == 0 and out["limits"] is True and out["tooling_query"] == 0
    assert out["logout_soap"] is True
    assert out["oauth_login"] == ORGANIZATION_ID
    assert out["oauth_logout"] == "INVALID_SESSION_ID"


# ---------------------------------------------------------------------------- sf CLI
@pytest.fixture(scope="module")
def sf_cli(node_home):
    prefix = npm_install("sf-cli", node_home)
    return prefix / "node_modules" / ".bin"


def _sf(sf_cli: Path, server, home: Path, *args: str, **extra: str) -> subprocess.CompletedProcess:
    env = _node_env(server, home, PATH=f"{sf_cli}{os.pathsep}{os.environ.get('PATH', '')}", **extra)
    return _run([str(sf_cli / "sf"), *args], env, 180)


def _json(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout)["result"]


def test_sf_cli_logs_in_with_an_access_token_and_queries(sf_cli, server, tmp_path):
    login = _json(
        _sf(
            sf_cli,
            server,
            tmp_path,
            "org",
            "login",
            "access-token",
            "--instance-url",
            server["instance_url"],
            "--no-prompt",
            "--alias",
            "emu",
            "--json",
            SF_ACCESS_TOKEN=SESSION_ID,
        )
    )
    assert (login["username"], login["orgId"]) == (ADMIN_USERNAME, ORGANIZATION_ID)
    created = _json(
        _sf(
            sf_cli,
            server,
            tmp_path,
            "data",
            "create",
            "record",
            "-o",
            "emu",
            "-s",
            "Account",
            "-v",
            "Name='CLI Co'",
            "--json",
        )
    )
    assert created["success"] is True
    queried = _json(
        _sf(
            sf_cli,
            server,
            tmp_path,
            "data",
            "query",
            "-o",
            "emu",
            "-q",
            "SELECT Id, Name, Owner.Name FROM Account WHERE Name = 'CLI Co'",
            "--json",
        )
    )
    assert [(r["Name"], r["Owner"]["Name"]) for r in queried["records"]] == [("CLI Co", "Admin User")]
    table = _sf(
        sf_cli,
        server,
        tmp_path,
        "data",
        "query",
        "-o",
        "emu",
        "-q",
        "SELECT Name, Owner.Name FROM Account WHERE Name = 'CLI Co'",
    )
    assert table.returncode == 0, table.stderr
    assert "OWNER.NAME" in table.stdout and "CLI Co" in table.stdout and "Admin User" in table.stdout
    counted = _sf(
        sf_cli, server, tmp_path, "data", "query", "-o", "emu", "-q", "SELECT COUNT(Id) total FROM Account"
    )
    assert counted.returncode == 0 and "TOTAL" in counted.stdout.upper(), counted.stderr


def test_sf_cli_logs_in_with_an_sfdx_url_through_the_refresh_token_grant(sf_cli, server, tmp_path):
    url_file = tmp_path / "auth-url.txt"
    url_file.write_text(server["sfdx_auth_url"] + "\n")  # the refresh token serve issued and printed
    login = _json(
        _sf(
            sf_cli,
            server,
            tmp_path,
            "org",
            "login",
            "sfdx-url",
            "--sfdx-url-file",
            str(url_file),
            "--alias",
            "emu2",
            "--json",
        )
    )
    assert login["orgId"] == ORGANIZATION_ID and login["instanceUrl"] == server["instance_url"]
    shown = _json(_sf(sf_cli, server, tmp_path, "org", "display", "-o", "emu2", "--json"))
    assert shown["connectedStatus"] == "Connected"
    queried = _json(
        _sf(
            sf_cli,
            server,
            tmp_path,
            "data",
            "query",
            "-o",
            "emu2",
            "-q",
            "SELECT Username FROM User",
            "--json",
        )
    )
    assert queried["records"][0]["Username"] == ADMIN_USERNAME
