"""Two MCP servers agent builders use to reach Salesforce, unmodified, against ``crmarena-sf serve``.

``@tsmztech/mcp-server-salesforce`` (npm, on jsforce) logs in as its README's username/password
setup says (``SALESFORCE_CONNECTION_TYPE=User_Password``, ``SALESFORCE_USERNAME``,
``SALESFORCE_PASSWORD``, ``SALESFORCE_TOKEN``, ``SALESFORCE_INSTANCE_URL``: a SOAP login with the
password and security token serve printed); ``mcp-salesforce-connector`` (PyPI, on
simple-salesforce) connects with its README's access-token setup (``SALESFORCE_ACCESS_TOKEN``,
``SALESFORCE_INSTANCE_URL``). Each is driven over stdio as an agent's MCP client drives it
(:mod:`mcp_stdio`): data, describe, DML, permission-set and metadata-read calls. Both trust serve's
self-signed certificate through their runtime's usual variable (``NODE_EXTRA_CA_CERTS``,
``REQUESTS_CA_BUNDLE``).

The packages are installed for these tests only: npm into the session's crmarena-sf cache with
HOME, npm's cache and config in a temporary folder (:mod:`npm_installs`), pip
into a temporary virtual environment; without a registry that answers, the test says so and is
skipped. One serve and one install per module; every process is ended.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mcp_stdio import McpStdioClient
from npm_installs import node_base_env as _node_base_env
from npm_installs import npm_install
from npm_installs import run as _run
from serving import served

pytestmark = [pytest.mark.slow, pytest.mark.npm("mcp-tsmztech")]  # installs an MCP server from a registry

PYPI_TIMEOUT = 120


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served("--org", "blank", cert_dir=tmp_path_factory.mktemp("tls")) as printed:
        yield printed


def _tool(client: McpStdioClient, name: str, arguments: dict) -> str:
    failed, text = client.call(name, arguments)
    assert not failed, f"{name}: {text}"
    return text


# ---------------------------------------------------------------------------- @tsmztech/mcp-server-salesforce
@pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None, reason="node and npm are needed"
)
def test_tsmztech_server_queries_describes_writes_and_changes_metadata(server, tmp_path_factory):
    home = tmp_path_factory.mktemp("tsmztech-home")
    prefix = npm_install("mcp-tsmztech", home)
    env = {
        **_node_base_env(home),
        "NODE_EXTRA_CA_CERTS": server["certificate"],
        "SALESFORCE_CONNECTION_TYPE": "User_Password",
        "SALESFORCE_USERNAME": server["username"],
        "SALESFORCE_PASSWORD": server["password"],
        "SALESFORCE_TOKEN": server["security_token"],
        "SALESFORCE_INSTANCE_URL": server["instance_url"],
    }
    entry = prefix / "node_modules" / "@tsmztech" / "mcp-server-salesforce" / "dist" / "index.js"
    client = McpStdioClient(["node", str(entry)], env)
    try:
        client.initialize()
        assert {"salesforce_query_records", "salesforce_manage_field"} <= set(client.tools())
        assert "Account" in _tool(client, "salesforce_search_objects", {"searchPattern": "Account"})
        described = _tool(client, "salesforce_describe_object", {"objectName": "Account"})
        assert "Account Name" in described and "Type: reference" in described
        inserted = _tool(
            client,
            "salesforce_dml_records",
            {"operation": "insert", "objectName": "Account", "records": [{"Name": "Acme MCP"}]},
        )
        assert "Successful: 1" in inserted
        queried = _tool(
            client,
            "salesforce_query_records",
            {
                "objectName": "Account",
                "fields": ["Id", "Name", "Owner.Name"],
                "whereClause": "Name = 'Acme MCP'",
            },
        )
        assert "Acme MCP" in queried and "Admin User" in queried
        counted = _tool(
            client,
            "salesforce_aggregate_query",
            {"objectName": "Account", "selectFields": ["Name", "COUNT(Id) total"], "groupByFields": ["Name"]},
        )
        assert "total: 1" in counted
        assert "Acme MCP" in _tool(
            client,
            "salesforce_search_all",
            {"searchTerm": "Acme", "objects": [{"name": "Account", "fields": ["Name"]}]},
        )
        # a field through the Metadata API, then field-level security on the System Administrator
        # profile's own permission set (PermissionSet WHERE IsOwnedByProfile = true AND ProfileId = ...)
        created = _tool(
            client,
            "salesforce_manage_field",
            {
                "operation": "create",
                "objectName": "Account",
                "fieldName": "Tier",
                "label": "Tier",
                "type": "Text",
                "length": 20,
            },
        )
        assert "Field Level Security granted to: System Administrator" in created
        updated = _tool(
            client,
            "salesforce_manage_field",
            {"operation": "update", "objectName": "Account", "fieldName": "Tier", "label": "Service Tier"},
        )
        assert "Successfully updated" in updated
        granted = _tool(
            client,
            "salesforce_manage_field_permissions",
            {
                "operation": "grant",
                "objectName": "Account",
                "fieldName": "Tier__c",
                "profileNames": ["Standard User"],
            },
        )
        assert "Standard User" in granted
        made = _tool(
            client,
            "salesforce_manage_object",
            {"operation": "create", "objectName": "Gizmo", "label": "Gizmo", "pluralLabel": "Gizmos"},
        )
        assert "Gizmo__c" in made
        assert "Gizmo" in _tool(client, "salesforce_describe_object", {"objectName": "Gizmo__c"})
        assert "No Apex classes found" in _tool(client, "salesforce_read_apex", {})
    finally:
        client.close()


# ---------------------------------------------------------------------------- mcp-salesforce-connector
def _connector(tmp_path: Path) -> Path:
    """A virtual environment holding mcp-salesforce-connector (skipped without PyPI)."""
    venv = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=PYPI_TIMEOUT
    )
    pip = venv / "bin" / "pip"
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "PIP_CACHE_DIR": str(tmp_path / "pip-cache"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    probe = _run(
        [str(pip), "download", "--no-deps", "-d", str(tmp_path / "probe"), "mcp-salesforce-connector"],
        env,
        PYPI_TIMEOUT,
    )
    if probe.returncode != 0:
        pytest.skip(
            f"PyPI cannot be reached, so mcp-salesforce-connector cannot be installed: {probe.stderr.strip()[-300:]}"
        )
    done = _run([str(pip), "install", "-q", "mcp-salesforce-connector"], env, 600)
    assert done.returncode == 0, done.stderr[-3000:]
    return venv


def test_mcp_salesforce_connector_queries_describes_writes_and_reads_metadata(server, tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("connector")
    venv = _connector(tmp_path)
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "REQUESTS_CA_BUNDLE": server["certificate"],
        "SALESFORCE_ACCESS_TOKEN": server["session_id"],
        "SALESFORCE_INSTANCE_URL": server["instance_url"],
    }
    client = McpStdioClient([str(venv / "bin" / "salesforce")], env, cwd=str(tmp_path))
    try:
        client.initialize()
        assert {"run_soql_query", "create_record", "tooling_execute"} <= set(client.tools())
        created = _tool(
            client,
            "create_record",
            {"object_name": "Contact", "data": {"LastName": "Doe", "Email": "doe@example.com"}},
        )
        assert "003" in created
        queried = _tool(
            client, "run_soql_query", {"query": "SELECT LastName, Email FROM Contact WHERE LastName = 'Doe'"}
        )
        assert "doe@example.com" in queried
        assert "Email" in _tool(client, "get_object_fields", {"object_name": "Contact"})
        assert "Doe" in _tool(
            client, "run_sosl_search", {"search": "FIND {Doe} IN NAME FIELDS RETURNING Contact(LastName)"}
        )
        # permission sets as every org has them, and the Tooling API's reading of the schema
        sets = _tool(
            client,
            "run_soql_query",
            {"query": "SELECT Name, Profile.Name FROM PermissionSet WHERE IsOwnedByProfile = true"},
        )
        assert "System Administrator" in sets
        fields = _tool(
            client,
            "tooling_execute",
            {
                "action": "query?q=SELECT+QualifiedApiName+FROM+FieldDefinition+WHERE+EntityDefinition.QualifiedApiName='Contact'+AND+QualifiedApiName='Email'"
            },
        )
        assert "Email" in fields
    finally:
        client.close()
