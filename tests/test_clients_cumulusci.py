"""CumulusCI 4.10.1 and Snowfakery 4.2.1, unmodified, load and extract an emulated org: served and in-process.

An org is connected to CumulusCI as its documentation describes for CI systems: the environment
variable ``CUMULUSCI_ORG_<name>`` holds the org's JSON (instance URL and access token), and
``CUMULUSCI_DISABLE_REFRESH`` keeps CumulusCI from refreshing the token through a connected app
(CumulusCI docs, "Continuous Integration", https://cumulusci.readthedocs.io/en/stable/continuous-integration.html).
Then ``snowfakery`` generates and loads records, ``query`` and ``extract_dataset`` read them
over Bulk API 1.0, ``delete_data`` deletes them, and ``load_dataset`` (with rollback enabled)
loads the extract back. Each test's CumulusCI home is its own temporary folder; the version
check against PyPI is marked done so nothing leaves the machine.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from crmarena_sf.emulator.store.seed import ADMIN_USERNAME, ORGANIZATION_ID
from serving import served

from crmarena_sf.connection.mock import mock_salesforce

pytestmark = pytest.mark.filterwarnings(
    "ignore::DeprecationWarning", "ignore::sqlalchemy.exc.MovedIn20Warning"
)
pytest.importorskip("cumulusci", reason="CumulusCI is not installed (pip install -e '.[test]')")
pytest.importorskip("snowfakery", reason="Snowfakery is not installed (pip install -e '.[test]')")

RECIPE = """
- object: Account
  count: 5
  fields:
    Name:
      fake: Company
    BillingState: CA
  friends:
    - object: Contact
      count: 2
      fields:
        LastName:
          fake: last_name
        AccountId:
          reference: Account
"""
MAPPING = """
Insert Account:
    sf_object: Account
    api: bulk
    fields:
        - Name
        - BillingState
Insert Contact:
    sf_object: Contact
    api: bulk
    fields:
        - LastName
    lookups:
        AccountId:
            table: Account
"""
TASKS = [
    ["snowfakery", "--recipe", "recipe.yml"],
    [
        "query",
        "--object",
        "Account",
        "--query",
        "SELECT Id, Name FROM Account",
        "--result_file",
        "accounts.csv",
    ],
    ["extract_dataset", "--mapping", "mapping.yml", "--sql_path", "extract.sql"],
    ["delete_data", "--objects", "Contact,Account", "--api", "bulk"],
    ["load_dataset", "--mapping", "mapping.yml", "--sql_path", "extract.sql", "--enable_rollback", "True"],
]


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A CumulusCI project folder, and a home of its own with the version check already done."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "cumulusci.yml").write_text(
        'project:\n    name: Emulated\n    package:\n        api_version: "62.0"\n'
    )
    (root / "recipe.yml").write_text(RECIPE)
    (root / "mapping.yml").write_text(MAPPING)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    home = tmp_path / "home"
    (home / ".cumulusci").mkdir(parents=True)
    (home / ".cumulusci" / "cumulus_timestamp").write_text(str(time.time()))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CUMULUSCI_DISABLE_REFRESH", "1")
    monkeypatch.chdir(root)
    return root


def _org_variable(instance_url: str, access_token: str) -> str:
    return json.dumps(
        {
            "instance_url": instance_url,
            "access_token": access_token,
            "org_id": ORGANIZATION_ID,
            "username": ADMIN_USERNAME,
        }
    )


def _count(sf, soql: str) -> int:
    """A COUNT() query's totalSize, through queryAll when it asks for deleted records (simple-salesforce's
    query_all counts the records it received, none for COUNT())."""
    return sf.restful("queryAll" if "IsDeleted" in soql else "query", params={"q": soql})["totalSize"]


def _check(project: Path, count) -> None:
    """What the task sequence must leave: the extract, the query's file, and the reloaded records."""
    extract = (project / "extract.sql").read_text()
    assert extract.count('INSERT INTO "Account"') == 5 and extract.count('INSERT INTO "Contact"') == 10
    assert len((project / "accounts.csv").read_text().strip().splitlines()) == 1 + 5
    assert count("SELECT COUNT() FROM Account") == 5
    assert count("SELECT COUNT() FROM Contact WHERE AccountId != null") == 10
    assert (
        count("SELECT COUNT() FROM Contact WHERE IsDeleted = true") == 10
    )  # delete_data's, in the recycle bin


def test_cumulusci_against_serve(project, tmp_path):
    with served("--org", "blank", cert_dir=tmp_path / "tls") as printed:
        env = {
            **os.environ,
            "REQUESTS_CA_BUNDLE": printed["certificate"],
            "CUMULUSCI_ORG_emu": _org_variable(printed["instance_url"], printed["session_id"]),
        }
        cci = str(Path(sys.executable).with_name("cci"))
        for task in TASKS:
            done = subprocess.run(
                [cci, "task", "run", *task, "--org", "emu"],
                capture_output=True,
                text=True,
                env=env,
                timeout=300,
            )
            assert done.returncode == 0, f"{task[0]}: {done.stdout[-3000:]}{done.stderr[-2000:]}"
        import crmarena_sf

        sf = crmarena_sf.connect(
            backend="salesforce",
            instance_url=printed["instance_url"],
            session_id=printed["session_id"],
            verify=printed["certificate"],
            env_file=None,
        )

        def count(soql):
            return _count(sf, soql)

        _check(project, count)


def test_cumulusci_in_process_through_the_mock(project, monkeypatch):
    from cumulusci.cli.cci import main

    with mock_salesforce(org="blank") as mock:
        monkeypatch.setenv("CUMULUSCI_ORG_emu", _org_variable(mock.instance_url, mock.session_id))
        for task in TASKS:
            with contextlib.suppress(SystemExit):  # cci's main ends with sys.exit(0)
                code = main(["cci", "task", "run", *task, "--org", "emu"])
                assert not code, task[0]
        import crmarena_sf

        sf = crmarena_sf.connect(org=mock.org)

        def count(soql):
            return _count(sf, soql)

        _check(project, count)
