"""What only a real org does to a push, played with ``responses`` (tests/push_faults.py): a refused login,
an expired password, the API switched off, API requests running out midway, full storage, rows a
Bulk API 2.0 job or a collection refuses. Each ends with a clear message and a non-zero exit, never
shows a credential, and leaves a state the same command resumes from: nothing doubles, nothing is lost.
Preflight refusals and ``--dry-run`` write nothing at all."""

from __future__ import annotations

import json

import pytest
import requests
from crmarena_sf.emulator import soql
from crmarena_sf.loaders.generate import generate
from crmarena_sf.loaders.push.keys import KEY_FIELD
from push_faults import (
    API_DISABLED,
    EXPIRED_PASSWORD,
    REQUEST_LIMIT,
    STORAGE_FULL,
    FaultyOrg,
    after_writes,
    bulk_rows_refused,
    collection_rows_refused,
    every_data_call,
    rewrite_json,
)

from crmarena_sf.cli.main import main

PUSH_OPTIONS = ["--quiet", "--bulk-poll", "0"]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    return generate(tmp_path_factory.mktemp("faults") / "tiny", profile="tiny", seed=1)


@pytest.fixture
def cli(tmp_path, monkeypatch, capsys):
    """Run ``crmarena-sf`` in-process against a FaultyOrg; returns (exit code, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)  # no .env of the repository
    monkeypatch.setenv("CRMARENA_SF_CACHE", str(tmp_path / "cache"))
    for name in ("SALESFORCE_USERNAME", "SALESFORCE_PASSWORD", "SALESFORCE_SECURITY_TOKEN", "SALESFORCE_DOMAIN",
                 "SALESFORCE_INSTANCE_URL", "SALESFORCE_SESSION_ID"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)

    def run(org: FaultyOrg | None, *args: str, env: dict | None = None):
        for key, value in {**(org.env() if org else {}), **(env or {})}.items():
            monkeypatch.setenv(key, value)
        code = main(["push", *args])
        out, err = capsys.readouterr()
        if org is not None:
            assert org.session_id not in out + err
        return code, out, err

    return run


def _keyed(org: FaultyOrg, name: str) -> list[str]:
    if org.org.schema.get(name) is None or org.org.schema.get(name).field(KEY_FIELD) is None:
        return []
    rows = soql.query(org.org, f"SELECT {KEY_FIELD} FROM {name} WHERE {KEY_FIELD} != null", batch_size=2000)
    return [r[KEY_FIELD] for r in rows["records"]]


def _nothing_written(org: FaultyOrg) -> None:
    assert org.org.schema.get("Issue__c") is None
    assert org.org.schema.get("Account").field(KEY_FIELD) is None
    # a new org's admin, and its two profiles' own permission sets
    for name in ("Account", "Case", "User", "PermissionSet"):
        assert org.org.count(name) == {"User": 1, "PermissionSet": 2}.get(name, 0), name
    assert not [c for c in org.calls if c[0] != "GET"]  # reads only


# ---------------------------------------------------------------------------- logins and access
def test_a_refused_login_is_one_line_and_shows_no_secret(cli, dataset):
    with FaultyOrg() as org:
        code, out, err = cli(
            None, str(dataset),
            env={"SALESFORCE_USERNAME": "nobody@example.com", "SALESFORCE_PASSWORD": "s3cret-pw",
                 "SALESFORCE_SECURITY_TOKEN": "t0ken-xyz"},
        )  # fmt: skip
    assert code == 1
    assert err.strip().startswith("crmarena-sf: login failed: INVALID_LOGIN:")
    assert "s3cret-pw" not in out + err and "t0ken-xyz" not in out + err
    assert org.org.schema.get("Issue__c") is None


@pytest.mark.parametrize(
    ("fault", "code", "advice"),
    [
        (EXPIRED_PASSWORD, "INVALID_OPERATION_WITH_EXPIRED_PASSWORD", "set a new password"),
        (API_DISABLED, "API_CURRENTLY_DISABLED", "'API Enabled' permission"),
    ],
)
def test_an_org_that_refuses_the_api_stops_the_push_before_anything_is_written(
    cli, dataset, fault, code, advice
):
    with FaultyOrg() as org:
        org.rules.append(every_data_call(fault))
        exit_code, out, err = cli(org, str(dataset))
    assert exit_code == 1
    assert f"reading the org: {code}: " in err and advice in err
    _nothing_written(org)


# ---------------------------------------------------------------------------- preflight
def test_preflight_says_what_to_change_and_writes_nothing(cli, dataset):
    with FaultyOrg() as org:
        gone = {"Knowledge__kav", "LiveChatTranscript", "LiveChatVisitor"}
        org.rules += [
            rewrite_json(r"/sobjects/?$", lambda d: {**d, "sobjects": [o for o in d["sobjects"] if o["name"] not in gone]}),
            rewrite_json(r"/limits/?$", lambda d: {**d, "DataStorageMB": {"Max": 5, "Remaining": 1}}),
            rewrite_json(
                r"/sobjects/Case/describe$",
                lambda d: {**d, "fields": [{**f, "createable": False} if f["name"] == "CreatedDate" else f for f in d["fields"]]},
            ),
            rewrite_json(
                r"/sobjects/Account/describe$",
                lambda d: {**d, "fields": [f for f in d["fields"] if f["name"] != "IsPersonAccount"]},
            ),
        ]  # fmt: skip
        code, out, err = cli(org, str(dataset))
    assert code == 1
    assert "the push cannot start (nothing was written)" in err
    assert "enable Lightning Knowledge" in err and "--skip Knowledge__kav" in err
    assert "--skip LiveChatTranscript" in err
    assert "Person Accounts are not enabled" in err
    assert "Set Audit Fields upon Record Creation" in err and "Case.CreatedDate" in err
    assert "MB of data storage and the org has 1 MB left" in err and "--profile dev-org" in err
    _nothing_written(org)


def test_dry_run_prints_the_plan_and_writes_nothing(cli, dataset):
    with FaultyOrg() as org:
        code, out, err = cli(org, str(dataset), "--dry-run", "--bulk-threshold", "400")
        assert code == 0, err
        case_fields = next(line for line in out.splitlines() if line.startswith("  fields on Case: "))
        assert "object Issue__c (Issue)" in out and {"IssueId__c", KEY_FIELD} <= set(
            case_fields[18:].split(", ")
        )
        assert "CaseHistory__c" in out and "via bulk" in out and "via collections" in out
        assert "agents are loaded as inactive users" in out
        code, out, err = cli(org, str(dataset), "--dry-run", "--json")
        plan = json.loads(out)
        assert plan["create_objects"] == ["CaseHistory__c", "Issue__c"]
        assert [s["object"] for s in plan["steps"]].index("Account") < [
            s["object"] for s in plan["steps"]
        ].index("Case")
    _nothing_written(org)


def test_another_datasets_push_is_refused(cli, dataset, tmp_path):
    other = generate(tmp_path / "other", profile="tiny", seed=2)
    with FaultyOrg() as org:
        org.org.insert(
            "PermissionSet",
            {"Name": "CRMArena_Push", "Label": "CRMArena push", "Description": "crmarena-sf push of dataset 0123456789abcdef"},
        )  # fmt: skip
        org.calls.clear()
        code, out, err = cli(org, str(other))
    assert code == 1 and "already holds the push of another dataset (0123456789abcdef)" in err
    assert "--teardown" in err


# ---------------------------------------------------------------------------- midway
@pytest.mark.parametrize(
    ("fault", "exit_code", "said"),
    [
        (
            REQUEST_LIMIT,
            1,
            ["REQUEST_LIMIT_EXCEEDED: TotalRequests Limit exceeded.", "run the same command again"],
        ),
        (
            requests.ConnectionError("connection reset"),
            1,
            ["NETWORK: cannot reach the org at https://", " (ConnectionError)"],  # names where it went
        ),
        (KeyboardInterrupt(), 130, ["interrupted"]),  # Ctrl-C, or a process killed midway
    ],
    ids=["request-limit", "network-drop", "killed"],
)
def test_a_push_stopped_midway_resumes_with_the_same_command(cli, dataset, fault, exit_code, said):
    with FaultyOrg() as org:
        org.rules.append(after_writes(8, fault))
        code, out, err = cli(org, str(dataset), *PUSH_OPTIONS)
        assert code == exit_code
        assert all(text in err for text in said), err
        if exit_code == 1:
            assert "nothing loaded is lost" in err
        names = ("Account", "Issue__c", "Product2", "User", "Case", "CaseHistory__c")
        before = {name: len(_keyed(org, name)) for name in names}
        assert before["Account"] == 40 and before["Issue__c"] == 10 and before["Case"] == 0
        org.rules.clear()
        code, out, err = cli(org, str(dataset), *PUSH_OPTIONS, "--json")
        assert code == 0, err
        report = json.loads(out)
        for name in names:  # what the stopped push loaded is kept and not loaded again
            assert report["objects"][name]["skipped"] == before[name], name
        for name in ("User", "Account", "Case", "CaseHistory__c", "EmailMessage"):
            keys = _keyed(org, name)
            assert len(keys) == len(set(keys)) > 0, name
        assert len(_keyed(org, "Case")) == 160


def test_full_storage_stops_at_once_and_resumes(cli, dataset):
    with FaultyOrg() as org:
        seen = []

        def refuse(record):  # the org fills up after 100 cases
            seen.append(record[KEY_FIELD])
            return STORAGE_FULL if len(seen) > 100 else None

        org.rules.append(collection_rows_refused("Case", refuse))
        code, out, err = cli(org, str(dataset), *PUSH_OPTIONS)
        assert code == 1
        assert (
            "loading Case: STORAGE_LIMIT_EXCEEDED: storage limit exceeded" in err
            and "--profile dev-org" in err
        )
        assert "nothing loaded is lost" in err
        assert len(_keyed(org, "Case")) == 100 and _keyed(org, "CaseHistory__c") == []
        org.rules.clear()
        code, out, err = cli(org, str(dataset), *PUSH_OPTIONS, "--json")
        assert code == 0, err
        keys = _keyed(org, "Case")
        assert len(keys) == len(set(keys)) == 160


def test_refused_bulk_rows_are_retried_reported_one_by_one_and_loaded_later(cli, dataset):
    attempts: dict[str, int] = {}

    def refuse(row):
        key = row.get(KEY_FIELD, "")
        attempts[key] = attempts.get(key, 0) + 1
        if key == "a1NEm0000000001MAA" and attempts[key] == 1:
            return ("UNABLE_TO_LOCK_ROW", "unable to obtain exclusive access to this record")
        if key == "a1NEm0000000002MAA":
            return ("FIELD_CUSTOM_VALIDATION_EXCEPTION", "Old Value must name a user")
        return None

    with FaultyOrg() as org:
        org.rules.append(bulk_rows_refused("CaseHistory__c", refuse))
        code, out, err = cli(org, str(dataset), *PUSH_OPTIONS, "--bulk-threshold", "300", "--retries", "2")
        assert code == 1
        assert "failed rows (1), each with Salesforce's error:" in out
        assert (
            "CaseHistory__c a1NEm0000000002MAA: FIELD_CUSTOM_VALIDATION_EXCEPTION: Old Value must name a user"
            in out
        )
        assert "1 row failed" in err and "run the same command again" in err
        assert attempts["a1NEm0000000002MAA"] == 3  # the first try and two retries
        assert "a1NEm0000000001MAA" in _keyed(org, "CaseHistory__c")  # a lock is gone on retry
        assert len(_keyed(org, "CaseHistory__c")) == 487
        org.rules.clear()
        code, out, err = cli(org, str(dataset), *PUSH_OPTIONS, "--json")
        assert code == 0, err
        assert json.loads(out)["objects"]["CaseHistory__c"] == {"loaded": 1, "skipped": 487, "failed": 0}
        keys = _keyed(org, "CaseHistory__c")
        assert len(keys) == len(set(keys)) == 488


def test_usage_errors_are_said_before_any_login(cli, tmp_path):
    code, out, err = cli(None, str(tmp_path / "nowhere"))
    assert code == 2 and "no dataset at" in err
    code, out, err = cli(None)
    assert code == 2 and "push needs a DATASET directory" in err


def test_missing_credentials_are_named(cli, dataset):
    code, out, err = cli(None, str(dataset))
    assert code == 2 and "set SALESFORCE_USERNAME, SALESFORCE_PASSWORD, SALESFORCE_SECURITY_TOKEN" in err
