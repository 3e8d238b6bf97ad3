"""The text-to-SOQL track: graded instances with gold queries, the reference agent at 100, soql-eval on a
predictions file, and the pytest plugin used by a user's own test file (run in a subprocess pytest)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections import Counter

import pytest
from crmarena_sf.tasks.build import build_tasks
from crmarena_sf.tasks.families.soql_generation import LEVELS

import crmarena_sf
from crmarena_sf.cli.main import main


@pytest.fixture(scope="module")
def dataset(tiny_dataset):
    return tiny_dataset


@pytest.fixture(scope="module")
def task_file(tiny_soql_task_file):
    return tiny_soql_task_file


def records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_track_spans_eight_levels_of_the_language(task_file):
    tasks = records(task_file)
    assert len(tasks) == 48 and Counter(t["params"]["level"] for t in tasks) == {level: 6 for level in LEVELS}
    assert all(t["task"] == "soql_generation" and t["reward_metric"] == "soql_execution" for t in tasks)
    assert all(t["answer"] == t["params"]["soql"] for t in tasks)
    by_level = {level: [t["answer"] for t in tasks if t["params"]["level"] == level] for level in LEVELS}
    assert all("." in q.split("FROM")[0] or "." in q.split("WHERE")[-1] for q in by_level[2])
    assert all("(SELECT" in q.split("FROM")[0] for q in by_level[3])
    assert all("GROUP BY" in q or "MIN(" in q for q in by_level[4])
    assert all(" IN (SELECT" in q for q in by_level[6])
    assert all("TYPEOF" in q or "Owner." in q for q in by_level[7])
    assert all(q.startswith("FIND {") for q in by_level[8])
    literal = [t for t in tasks if "LAST_" in t["answer"]]
    assert all(t["params"]["now"] in t["query"] or t["params"]["now"][:10] in t["query"] for t in literal)


def test_the_default_track_has_at_least_300_instances():
    built = build_tasks(crmarena_sf.connect(), suite="soql")
    assert len(built.records) >= 300 and len({r.answer for r in built.records}) >= 290


def test_the_reference_agent_scores_100_on_the_track(task_file, dataset, tmp_path):
    out = tmp_path / "results.json"
    assert (
        main(
            [
                "run",
                "--agent",
                "reference",
                "--tasks",
                str(task_file),
                "--org",
                str(dataset),
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    body = json.loads(out.read_text())
    assert body["scores"] == {"soql_generation": 100.0}
    assert all(
        e["trajectory"][-1] == {"action": "evaluation", "match": True, "reason": ""} for e in body["episodes"]
    )


def test_soql_eval_scores_a_predictions_file_by_level(task_file, dataset, tmp_path, capsys):
    tasks = records(task_file)
    predictions = tmp_path / "predictions.jsonl"
    lines = []
    for n, t in enumerate(tasks):
        if n % 3 == 0:
            continue  # no prediction: scores 0
        query = t["answer"] if n % 3 == 1 else "SELECT Id FROM Nowhere__c"
        lines.append(json.dumps({"idx": t["idx"], "soql": query}))
    predictions.write_text("\n".join(lines) + "\n")
    out = tmp_path / "scored.json"
    assert (
        main(
            [
                "soql-eval",
                str(predictions),
                "--tasks",
                str(task_file),
                "--org",
                str(dataset),
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "1 single-object filters" in printed and "8 SOSL search" in printed
    expected = sum(1 for n in range(len(tasks)) if n % 3 == 1)
    body = json.loads(out.read_text())
    assert sum(e["reward"] for e in body["episodes"]) == expected
    assert any("INVALID_TYPE" in e["trajectory"][-1]["reason"] for e in body["episodes"])
    overall = next(line for line in printed.splitlines() if line.startswith("overall")).split()
    assert overall[1:3] == [str(len(tasks)), str(expected)]


def test_soql_eval_refuses_a_bad_predictions_file(task_file, dataset, tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"idx": 99999, "soql": "SELECT Id FROM Case"}\n')
    assert main(["soql-eval", str(bad), "--tasks", str(task_file), "--org", str(dataset), "--quiet"]) == 2
    assert "idx 99999 is not a task of the task set" in capsys.readouterr().err


USER_TESTS = """
import pytest


def test_the_crmarena_org_is_there(sf_org):
    assert sf_org.query("SELECT COUNT() FROM Case WHERE Status = 'Closed'")["totalSize"] > 0


def test_writes_stay_in_their_test(sf_blank):
    sf_blank.Account.create({"Name": "Acme"})
    assert sf_blank.query("SELECT COUNT() FROM Account WHERE Name = 'Acme'")["totalSize"] == 1


def test_a_new_test_gets_a_new_org(sf_blank):
    assert sf_blank.query("SELECT COUNT() FROM Account WHERE Name = 'Acme'")["totalSize"] == 0


@pytest.mark.sf_now("2024-05-27T12:00:00Z")
def test_date_literals_follow_the_frozen_clock(sf_org):
    relative = sf_org.query("SELECT COUNT() FROM Case WHERE CreatedDate = LAST_N_DAYS:30")["totalSize"]
    absolute = sf_org.query(
        "SELECT COUNT() FROM Case WHERE CreatedDate >= 2024-04-27T00:00:00Z AND CreatedDate < 2024-05-28T00:00:00Z"
    )["totalSize"]
    assert relative == absolute > 0


@pytest.mark.crmarena_org(r"DATASET")
def test_another_org_by_marker(sf_org):
    assert sf_org.query("SELECT COUNT() FROM Account")["totalSize"] == ACCOUNTS
"""


def test_the_pytest_plugin_works_in_a_users_own_suite(dataset, tmp_path):
    """Installed crmarena-sf enables the plugin by entry point: a user's test file needs no configuration."""
    accounts = crmarena_sf.connect(org=str(dataset)).query("SELECT COUNT() FROM Account")["totalSize"]
    (tmp_path / "test_mine.py").write_text(
        textwrap.dedent(USER_TESTS).replace("DATASET", str(dataset)).replace("ACCOUNTS", str(accounts))
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_mine.py")],
        cwd=tmp_path,
        env={**os.environ},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 passed" in done.stdout
