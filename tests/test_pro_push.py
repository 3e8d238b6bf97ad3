"""``crmarena-sf push`` of CRMArena-Pro's B2B org into ``crmarena-sf serve`` over HTTPS.

A new org without Sales Territories and with a new org's opportunity stages is refused before
anything is written, each reason saying what to change in Setup (Object Reference, Territory2:
"Available if Sales Territories has been enabled"). The same org with Sales Territories enabled
and the five stages added (served with those describe documents, as a user's Setup changes
would show) takes the whole ``b2b`` org at ``--scale 0.1``: VoiceCallTranscript__c and
Opportunity.ContractID__c deployed like Issue__c, activities' polymorphic WhatId and the calls'
lookups resolved to the org's Ids, territory assignments matched on user and territory (they
take no custom field). A second push changes nothing; ``--teardown`` removes what carries the key.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from crmarena_sf.loaders.dataset import Dataset
from crmarena_sf.loaders.pro.generate import generate_pro
from crmarena_sf.metadata import DESCRIBE_DIR
from simple_salesforce import Salesforce

pytestmark = pytest.mark.slow

CLI = [sys.executable, "-m", "crmarena_sf.cli.main"]
STAGES = ["Qualification", "Discovery", "Quote", "Negotiation", "Closed"]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    return generate_pro(tmp_path_factory.mktemp("pro-push") / "b2b", profile="b2b", scale=0.1)


def serve(tmp_path: Path, *describes: Path):
    """``crmarena-sf serve --org standard`` on a free port; returns the process and the environment a user sets."""
    extra = [arg for d in describes for arg in ("--describes", str(d))]
    proc = subprocess.Popen(
        [*CLI, "serve", "--org", "standard", "--port", "0", "--cert-dir", str(tmp_path / "certs"), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines = {}
    while len(lines) < 3:
        line = proc.stdout.readline()
        assert line, proc.stderr.read()
        key, _, value = line.strip().partition(": ")
        lines[key] = value
    return proc, {
        "SALESFORCE_INSTANCE_URL": lines["instance_url"],
        "SALESFORCE_SESSION_ID": lines["session_id"],
        "REQUESTS_CA_BUNDLE": lines["certificate"],
    }


def push(env: dict, *args: str, state: Path) -> subprocess.CompletedProcess:
    full = {**os.environ, **env, "CRMARENA_SF_CACHE": str(state.parent / "cache")}
    for name in ("SALESFORCE_USERNAME", "SALESFORCE_PASSWORD", "SALESFORCE_SECURITY_TOKEN"):
        full.pop(name, None)
    return subprocess.run(
        [*CLI, "push", *args, "--state", str(state), "--json", "--quiet", "--bulk-poll", "0.05"],
        capture_output=True,
        text=True,
        env=full,
        cwd=state.parent,
        timeout=600,
    )


@pytest.fixture(scope="module")
def territories_enabled(tmp_path_factory):
    """Describe documents standing for the Setup changes: Sales Territories enabled, the five stages added."""
    root = tmp_path_factory.mktemp("setup")
    for name in ("Territory2", "Territory2Model", "Territory2Type", "UserTerritory2Association"):
        (root / f"{name}.json").write_text((DESCRIBE_DIR / f"{name}.json").read_text())
    values = [
        {"value": s, "label": s, "active": True, "defaultValue": False, "validFor": None} for s in STAGES
    ]
    (root / "Opportunity.json").write_text(
        json.dumps(
            {
                "name": "Opportunity",
                "fields": [{"name": "StageName", "type": "picklist", "picklistValues": values}],
            }
        )
    )
    return root


def test_an_org_without_sales_territories_or_the_stages_is_refused_and_untouched(dataset, tmp_path):
    proc, env = serve(tmp_path)
    try:
        result = push(env, str(dataset), "--dry-run", state=tmp_path / "ids.duckdb")
        assert result.returncode == 1
        assert "Sales Territories (Enterprise Territory Management) is not enabled" in result.stderr
        assert "Territory Settings, click Enable Sales Territories" in result.stderr
        assert "--skip Territory2,Territory2Model,Territory2Type,UserTerritory2Association" in result.stderr
        assert "opportunity stages lack Closed, Discovery, Negotiation, Quote" in result.stderr
        os.environ["REQUESTS_CA_BUNDLE"] = env["REQUESTS_CA_BUNDLE"]
        sf = Salesforce(instance_url=env["SALESFORCE_INSTANCE_URL"], session_id=env["SALESFORCE_SESSION_ID"])
        names = {o["name"] for o in sf.describe()["sobjects"]}
        assert "VoiceCallTranscript__c" not in names and "Issue__c" not in names
        assert sf.query("SELECT COUNT() FROM Opportunity")["totalSize"] == 0
    finally:
        os.environ.pop("REQUESTS_CA_BUNDLE", None)
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def pushed(dataset, territories_enabled, tmp_path_factory):
    root = tmp_path_factory.mktemp("pushed")
    proc, env = serve(root, territories_enabled)
    os.environ["REQUESTS_CA_BUNDLE"] = env["REQUESTS_CA_BUNDLE"]
    try:
        sf = Salesforce(instance_url=env["SALESFORCE_INSTANCE_URL"], session_id=env["SALESFORCE_SESSION_ID"])
        state = root / "ids.duckdb"
        first = push(env, str(dataset), state=state)
        second = push(env, str(dataset), state=state)
        yield {"first": first, "second": second, "sf": sf, "env": env, "state": state}
    finally:
        os.environ.pop("REQUESTS_CA_BUNDLE", None)
        proc.terminate()
        proc.wait(timeout=10)


def test_the_push_loads_every_pro_object(pushed, dataset):
    first = pushed["first"]
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert report["failed"] == 0
    counts = Dataset(dataset).manifest["counts"]
    for name in (
        "Lead",
        "Opportunity",
        "Quote",
        "QuoteLineItem",
        "Task",
        "Event",
        "Territory2",
        "UserTerritory2Association",
        "VoiceCallTranscript__c",
    ):
        assert report["objects"][name]["loaded"] == counts[name], name
    assert set(report["schema_created"]) >= {
        "VoiceCallTranscript__c",
        "Opportunity.ContractID__c",
        "VoiceCallTranscript__c.Body__c",
    }
    assert not any(created.startswith("UserTerritory2Association.") for created in report["schema_created"])


def test_lookups_are_resolved_to_the_orgs_ids(pushed, dataset):
    sf = pushed["sf"]
    counts = Dataset(dataset).manifest["counts"]
    on_deals = sf.query(
        "SELECT COUNT() FROM Task WHERE WhatId IN (SELECT Id FROM Opportunity) AND WhoId IN (SELECT Id FROM Contact)"
    )
    assert on_deals["totalSize"] == counts["Task"]
    calls = sf.query_all(
        "SELECT LeadId__c, LeadId__r.Name, OpportunityId__c, OpportunityId__r.Name FROM VoiceCallTranscript__c"
    )["records"]
    assert len(calls) == counts["VoiceCallTranscript__c"]
    assert all(c["LeadId__r"] or c["OpportunityId__r"] for c in calls)
    deals = sf.query_all("SELECT StageName, ContractID__r.CompanySignedDate FROM Opportunity")["records"]
    assert {d["StageName"] for d in deals} == set(STAGES)
    assert sum(1 for d in deals if d["ContractID__r"]) == counts["Contract"]
    rows = sf.query_all("SELECT User.Name, Territory2.Description FROM UserTerritory2Association")["records"]
    assert len(rows) == counts["UserTerritory2Association"] and all(
        r["User"] and r["Territory2"] for r in rows
    )


def test_a_second_push_changes_nothing(pushed, dataset):
    second = pushed["second"]
    assert second.returncode == 0, second.stderr
    report = json.loads(second.stdout)
    assert all(o["loaded"] == 0 for o in report["objects"].values())
    assert report["failed"] == 0
    sf = pushed["sf"]
    assert (
        sf.query("SELECT COUNT() FROM UserTerritory2Association")["totalSize"]
        == Dataset(dataset).manifest["counts"]["UserTerritory2Association"]
    )


def test_teardown_removes_what_the_push_loaded(pushed):
    result = subprocess.run(
        [*CLI, "push", "--teardown", "--state", str(pushed["state"]), "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, **pushed["env"]},
        cwd=pushed["state"].parent,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    sf = pushed["sf"]
    for name in (
        "Territory2",
        "UserTerritory2Association",
        "VoiceCallTranscript__c",
        "Opportunity",
        "Task",
        "Lead",
    ):
        assert sf.query(f"SELECT COUNT() FROM {name}")["totalSize"] == 0, name
