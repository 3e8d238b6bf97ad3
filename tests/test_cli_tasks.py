"""``crmarena-sf tasks build`` and ``crmarena-sf run``: files, the printed table, exit codes and one-line errors."""

from __future__ import annotations

import json

import pytest
from crmarena_sf.tasks.families import FAMILIES

from crmarena_sf.cli.main import main


@pytest.fixture(scope="module")
def dataset(tiny_dataset):
    return tiny_dataset


def test_tasks_build_writes_json_lines(dataset, tmp_path, capsys):
    out = tmp_path / "tasks.jsonl"
    assert (
        main(["tasks", "build", "--org", str(dataset), "--per-task", "4", "--out", str(out), "--quiet"]) == 0
    )
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 36 and {r["task"] for r in records} == set(FAMILIES)
    assert f"wrote 36 tasks to {out}" in capsys.readouterr().out


def test_run_scores_a_task_file_and_writes_results(dataset, tmp_path, capsys):
    tasks = tmp_path / "tasks.jsonl"
    main(["tasks", "build", "--org", str(dataset), "--per-task", "3", "--out", str(tasks), "--quiet"])
    capsys.readouterr()
    out = tmp_path / "results.json"
    code = main(
        [
            "run",
            "--agent",
            "reference",
            "--tasks",
            str(tasks),
            "--org",
            str(dataset),
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "overall" in printed and "100.0" in printed and f"results: {out}" in printed
    body = json.loads(out.read_text())
    assert body["overall"] == 100.0 and body["scores"] == {task: 100.0 for task in FAMILIES}
    assert body["settings"]["agent"] == "reference" and body["settings"]["tasks_file"] == str(tasks)
    episode = body["episodes"][0]
    assert set(episode) == {"idx", "task", "question", "answer", "gold", "reward", "trajectory", "end_reason"}
    assert episode["end_reason"] == "answered"
    records = {r["idx"]: r for r in map(json.loads, tasks.read_text().splitlines())}
    assert all(e["question"] == records[e["idx"]]["query"] for e in body["episodes"])
    assert None not in body["settings"].values() and "limit" not in body["settings"]
    # Beside the run, "always None" on the same task set: for an exact-match task, its share of None answers.
    none = body["baselines"]["always_none"]
    for task, score in none["scores"].items():
        golds = [r["answer"] for r in records.values() if r["task"] == task]
        if task != "knowledge_qa":  # token F1 of "None" against a text answer
            assert score == round(100 * golds.count(None) / len(golds), 2)
    assert (
        none["overall"] == round(sum(none["scores"].values()) / len(FAMILIES), 2)
        and 0 < none["overall"] < 100
    )
    assert printed.splitlines()[0].split() == ["task", "episodes", "score", "always", "None"]
    assert printed.splitlines()[len(FAMILIES) + 1].split()[-1] == f"{none['overall']:.1f}"


def test_run_without_a_task_file_builds_the_orgs_tasks(dataset, tmp_path, capsys):
    out = tmp_path / "results.json"
    args = [
        "run",
        "--agent",
        "reference",
        "--org",
        str(dataset),
        "--per-task",
        "2",
        "--out",
        str(out),
        "--quiet",
    ]
    assert main(args) == 0
    body = json.loads(out.read_text())
    assert sum(body["counts"].values()) == 18 and body["settings"]["per_task"] == 2


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (
            ["run", "--agent", "reference", "--tasks", "missing.jsonl"],
            2,
            "--tasks missing.jsonl: no such task file",
        ),
        (
            ["run", "--agent", "reference", "--org", "/no/such/org", "--tasks", "{tasks}"],
            2,
            "unknown org '/no/such/org'",
        ),
        (["tasks", "build", "--org", "blank", "--out", "{out}", "--quiet"], 1, "the org has no cases"),
        (["run", "--agent", "reference", "--tasks", "{bad}"], 2, "bad.jsonl line 1: not JSON Lines"),
        (["run", "--agent", "reference", "--tasks", "{official}", "--org", "blank"], 2, "have none"),
    ],
)
def test_bad_input_ends_with_one_line_and_a_meaningful_exit_code(tmp_path, capsys, args, code, message):
    (tmp_path / "bad.jsonl").write_text("{oops", encoding="utf-8")
    record = {"idx": 0, "task": "knowledge_qa", "query": "q", "answer": "a", "reward_metric": "fuzzy_match"}
    (tmp_path / "official.json").write_text(json.dumps([record]), encoding="utf-8")
    (tmp_path / "tasks.jsonl").write_text(
        json.dumps({**record, "params": {"article_id": "x", "question": "q"}}) + "\n"
    )
    names = {
        "tasks": tmp_path / "tasks.jsonl",
        "out": tmp_path / "t.jsonl",
        "bad": tmp_path / "bad.jsonl",
        "official": tmp_path / "official.json",
    }
    assert main([a.format(**names) for a in args]) == code
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "t.jsonl").exists()


def test_per_task_must_be_positive(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["tasks", "build", "--per-task", "0", "--out", "x.jsonl"])
    assert exit_info.value.code == 2 and "must be 1 or more" in capsys.readouterr().err


def test_run_on_a_real_org_backend_logs_in_and_scores_the_same(dataset, tmp_path, monkeypatch, capsys):
    """--backend salesforce: credentials from the environment, a username/password login (answered here by
    mock_salesforce), tasks built and run on that org through the same client code."""
    import crmarena_sf

    monkeypatch.chdir(tmp_path)  # no .env file here
    monkeypatch.setenv("SALESFORCE_USERNAME", "manager@example.com")
    monkeypatch.setenv("SALESFORCE_PASSWORD", "secret-password")
    monkeypatch.setenv("SALESFORCE_SECURITY_TOKEN", "secret-token")
    with crmarena_sf.mock_salesforce(org=str(dataset)):
        args = ["run", "--agent", "reference", "--backend", "salesforce", "--per-task", "2", "--quiet"]
        assert main([*args, "--out", "real.json"]) == 0
    body = json.loads((tmp_path / "real.json").read_text())
    assert body["overall"] == 100.0 and body["settings"]["backend"] == "salesforce"
    emulated = tmp_path / "emulated.json"
    main(
        [
            "run",
            "--agent",
            "reference",
            "--org",
            str(dataset),
            "--per-task",
            "2",
            "--quiet",
            "--out",
            str(emulated),
        ]
    )
    assert [e["gold"] for e in body["episodes"]] == [
        e["gold"] for e in json.loads(emulated.read_text())["episodes"]
    ]
    printed = capsys.readouterr()
    assert "secret" not in printed.out + printed.err


def test_an_llm_run_without_a_key_or_endpoint_stops_before_any_episode(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    out = tmp_path / "results.json"
    assert main(["run", "--agent", "react", "--model", "gpt-x", "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert (
        "needs an API key: set OPENAI_API_KEY, or give --base-url" in err
        and len(err.strip().splitlines()) == 1
    )
    assert not out.exists()
