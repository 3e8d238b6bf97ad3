"""Salesforce DX against ``crmarena-sf serve``: ``sf project deploy start`` / ``retrieve start`` of a small
DX project, and Salesforce's DX MCP server (``@salesforce/mcp``) unmodified.

References: Salesforce CLI Command Reference, "project deploy start" and "project retrieve start"
(https://developer.salesforce.com/docs/atlas.en-us.sfdx_cli_reference.meta/sfdx_cli_reference/cli_reference_project_commands_unified.htm):
the CLI converts the project's source (``objects/Widget__c/fields/Size__c.field-meta.xml`` ...) to
Metadata API files, deploys the zip with the Metadata API's ``deploy()`` and polls
``checkDeployStatus()``, and retrieves with ``retrieve()`` / ``checkRetrieveStatus()``, writing
the files back as source. The DX MCP server's README setup (``--orgs DEFAULT_TARGET_ORG
--toolsets orgs,metadata,data,users``) uses the org the CLI authorised; its ``run_soql_query``,
``assign_permission_set``, ``deploy_metadata`` and ``retrieve_metadata`` are called over stdio
(:mod:`mcp_stdio`).

The CLI (``@salesforce/cli@2`` with ``node@22``) and the MCP server are installed for the tests
only, into the session's crmarena-sf cache, with HOME and every CLI folder in a temporary folder
(:mod:`npm_installs`); without an npm registry that answers, the tests say so
and are skipped. One serve and one install per module; every process is ended.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from crmarena_sf.emulator.store.seed import ADMIN_USERNAME
from mcp_stdio import McpStdioClient
from npm_installs import end as _end
from npm_installs import node_base_env as _node_base_env
from npm_installs import npm_install
from serving import served

pytestmark = [
    pytest.mark.npm("sf-cli", "mcp-dx"),
    pytest.mark.slow,  # installs the sf CLI and an MCP server from npm
    pytest.mark.skipif(
        shutil.which("node") is None or shutil.which("npm") is None, reason="node and npm are needed"
    ),
]

NS = "http://soap.sforce.com/2006/04/metadata"
XML = '<?xml version="1.0" encoding="UTF-8"?>\n'
SF_TIMEOUT = 300


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return tmp_path_factory.mktemp("dx-home")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served("--org", "blank", cert_dir=tmp_path_factory.mktemp("tls")) as printed:
        yield printed


@pytest.fixture(scope="module")
def sf_bin(home):
    prefix = npm_install("sf-cli", home)
    return prefix / "node_modules" / ".bin"


@pytest.fixture(scope="module")
def project(home, server, sf_bin):
    """A DX project with a custom object, its field and an Apex class, logged in to serve as its default org."""
    root = home / "project"
    objects = root / "force-app" / "main" / "default" / "objects" / "Widget__c"
    (objects / "fields").mkdir(parents=True)
    classes = root / "force-app" / "main" / "default" / "classes"
    classes.mkdir(parents=True)
    (root / "sfdx-project.json").write_text(
        json.dumps(
            {"packageDirectories": [{"path": "force-app", "default": True}], "sourceApiVersion": "62.0"}
        )
    )
    (objects / "Widget__c.object-meta.xml").write_text(
        f'{XML}<CustomObject xmlns="{NS}"><deploymentStatus>Deployed</deploymentStatus><label>Widget</label>'
        "<nameField><label>Widget Name</label><type>Text</type></nameField><pluralLabel>Widgets</pluralLabel>"
        "<sharingModel>ReadWrite</sharingModel></CustomObject>\n"
    )
    (objects / "fields" / "Size__c.field-meta.xml").write_text(
        f'{XML}<CustomField xmlns="{NS}"><fullName>Size__c</fullName><label>Size</label>'
        "<precision>18</precision><scale>0</scale><type>Number</type></CustomField>\n"
    )
    (classes / "Hello.cls").write_text(
        "public class Hello {\n    public static String hi() { return 'hi'; }\n}\n"
    )
    (classes / "Hello.cls-meta.xml").write_text(
        f'{XML}<ApexClass xmlns="{NS}"><apiVersion>62.0</apiVersion><status>Active</status></ApexClass>\n'
    )
    login = _sf(
        sf_bin, server, home, root, "org", "login", "access-token", "--instance-url", server["instance_url"],
        "--no-prompt", "--alias", "emu", "--set-default", "--json", SF_ACCESS_TOKEN=server["session_id"],
    )  # fmt: skip
    assert login["username"] == ADMIN_USERNAME
    return root


def _env(server, home: Path, sf_bin: Path, **extra: str) -> dict[str, str]:
    path = f"{sf_bin}{os.pathsep}{os.environ.get('PATH', '')}"
    return {**_node_base_env(home), "NODE_EXTRA_CA_CERTS": server["certificate"], "PATH": path, **extra}


def _sf(sf_bin: Path, server, home: Path, cwd: Path, *args: str, **extra: str) -> dict:
    """Run ``sf args --json`` in ``cwd`` (a process group of its own, ended after); its ``result``."""
    process = subprocess.Popen(
        [str(sf_bin / "sf"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(server, home, sf_bin, **extra),
        cwd=cwd,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=SF_TIMEOUT)
    finally:
        _end(process.pid, group=True)
        process.wait()
    assert process.returncode == 0, out[-3000:] + err[-3000:]
    return json.loads(out)["result"]


def test_sf_project_deploy_start_and_retrieve_start(sf_bin, server, home, project):
    deployed = _sf(sf_bin, server, home, project, "project", "deploy", "start", "--source-dir", "force-app", "--wait", "5", "--json")  # fmt: skip
    assert (deployed["status"], deployed["success"]) == ("Succeeded", True)
    assert {(f["type"], f["fullName"], f["state"]) for f in deployed["files"]} == {
        ("CustomObject", "Widget__c", "Created"),
        ("CustomField", "Widget__c.Size__c", "Created"),
        ("ApexClass", "Hello", "Created"),
    }
    queried = _sf(
        sf_bin, server, home, project, "data", "query", "-q", "SELECT Name, Status FROM ApexClass", "--json"
    )
    assert [(r["Name"], r["Status"]) for r in queried["records"]] == [("Hello", "Active")]
    created = _sf(sf_bin, server, home, project, "data", "create", "record", "-s", "Widget__c", "-v", "Name='Bolt' Size__c=3", "--json")  # fmt: skip
    assert created["success"] is True

    shutil.rmtree(project / "force-app" / "main" / "default")
    retrieved = _sf(
        sf_bin, server, home, project, "project", "retrieve", "start",
        "--metadata", "CustomObject:Widget__c", "--metadata", "ApexClass:Hello", "--wait", "5", "--json",
    )  # fmt: skip
    assert retrieved["success"] is True
    assert {(f["type"], f["fullName"]) for f in retrieved["files"]} >= {
        ("CustomObject", "Widget__c"),
        ("CustomField", "Widget__c.Size__c"),
        ("ApexClass", "Hello"),
    }
    default = project / "force-app" / "main" / "default"
    assert (
        "<label>Size</label>"
        in (default / "objects" / "Widget__c" / "fields" / "Size__c.field-meta.xml").read_text()
    )
    assert "return 'hi';" in (default / "classes" / "Hello.cls").read_text()


def test_the_dx_mcp_server_queries_assigns_a_permission_set_and_deploys(sf_bin, server, home, project):
    prefix = npm_install("mcp-dx", home)
    _sf(
        sf_bin, server, home, project, "data", "create", "record", "-s", "PermissionSet",
        "-v", "Name='Widget_Editors' Label='Widget Editors'", "--json",
    )  # fmt: skip
    command = [
        "node", str(prefix / "node_modules" / "@salesforce" / "mcp" / "bin" / "run.js"),
        "--orgs", "DEFAULT_TARGET_ORG", "--toolsets", "orgs,metadata,data,users", "--allow-non-ga-tools", "--no-telemetry",
    ]  # fmt: skip
    client = McpStdioClient(command, _env(server, home, sf_bin), cwd=str(project))
    where = {"usernameOrAlias": "emu", "directory": str(project)}
    try:
        client.initialize()
        assert {"run_soql_query", "assign_permission_set", "deploy_metadata", "retrieve_metadata"} <= set(
            client.tools()
        )
        failed, text = client.call(
            "run_soql_query", {"query": "SELECT Name FROM Profile ORDER BY Name", **where}
        )
        assert not failed and "System Administrator" in text and "Standard User" in text
        failed, text = client.call("assign_permission_set", {"permissionSetName": "Widget_Editors", **where})
        assert not failed, text
        failed, text = client.call(
            "run_soql_query",
            {
                "query": "SELECT Assignee.Username FROM PermissionSetAssignment WHERE PermissionSet.Name = 'Widget_Editors'",
                **where,
            },
        )
        assert not failed and ADMIN_USERNAME in text
        default = project / "force-app" / "main" / "default"
        (default / "classes").mkdir(parents=True, exist_ok=True)
        (default / "classes" / "Greeter.cls").write_text("public class Greeter { }\n")
        (default / "classes" / "Greeter.cls-meta.xml").write_text(
            f'{XML}<ApexClass xmlns="{NS}"><apiVersion>62.0</apiVersion><status>Active</status></ApexClass>\n'
        )
        failed, text = client.call(
            "deploy_metadata", {"sourceDir": [str(default / "classes" / "Greeter.cls")], **where}, timeout=300
        )
        assert not failed, text
        failed, text = client.call(
            "run_soql_query", {"query": "SELECT Name FROM ApexClass WHERE Name = 'Greeter'", **where}
        )
        assert not failed and "Greeter" in text
        (default / "classes" / "Greeter.cls").write_text(
            "// changed locally\n"
        )  # the retrieve brings the org's back
        failed, text = client.call(
            "retrieve_metadata", {"sourceDir": [str(default / "classes")], **where}, timeout=300
        )
        assert not failed, text
        assert (default / "classes" / "Greeter.cls").read_text() == "public class Greeter { }\n"
    finally:
        client.close()
