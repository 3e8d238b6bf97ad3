"""Inputs that belong together, and wrong ones, through the CLI (issue 25).

Each wrong input is refused before any work with one line in crmarena-sf's words (no bare
``[Errno N]``, no DuckDB error, no traceback) and leaves nothing written; task files built on
one org are refused on another; a resume says what it reuses and refuses a log of another
agent; soql-eval refuses lines it cannot read and counts the tasks it has no prediction for;
every suite's results report, as a table and as a page.
"""

from __future__ import annotations

import json
import os

import pytest
from crmarena_sf.loaders.generate import generate
from crmarena_sf.tasks.families import FAMILIES

from crmarena_sf.cli.main import main


@pytest.fixture(scope="module")
def task_file(tiny_task_file):
    return tiny_task_file


@pytest.fixture(scope="module")
def other_seed(tmp_path_factory):
    """The tiny profile with another seed: as many records of each object as the tasks' org, other data."""
    return generate(tmp_path_factory.mktemp("other-seed") / "ds", profile="tiny", seed=1)


def refused(capsys, args: list[str], code: int = 2) -> str:
    """Run ``args``; it must exit ``code`` with exactly one line on stderr and nothing on stdout."""
    assert main(args) == code
    printed = capsys.readouterr()
    assert printed.out == "" and len(printed.err.splitlines()) == 1 and "Traceback" not in printed.err
    assert "Errno" not in printed.err and "Error:" not in printed.err, (
        printed.err
    )  # no bare OSError or DuckDB error
    return printed.err.removeprefix("crmarena-sf: ").rstrip("\n")


# ---------------------------------------------------------------------------- paths, before any work
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "--agent", "reference", "--tasks", "{tasks}", "--out", "{tasks}/r.json"], "--out {tasks}/r.json: {tasks} is a file, not a directory"),
        (["run", "--agent", "reference", "--tasks", "{tasks}", "--out", "{dir}"], "--out {dir}: is a directory; name a file, such as {dir}/results.json"),
        (["run", "--agent", "reference", "--tasks", "{here}/missing.jsonl"], "--tasks {here}/missing.jsonl: no such task file"),
        (["run", "--agent", "reference", "--tasks", "{dir}"], "--tasks {dir}: is a directory, not a task file"),
        (["tasks", "build", "--org", "{org}", "--out", "{dir}"], "--out {dir}: is a directory; name a file, such as {dir}/tasks.jsonl"),
        (["tasks", "build", "--org", "{org}", "--out", "{tasks}/t.jsonl"], "--out {tasks}/t.jsonl: {tasks} is a file, not a directory"),
        (["generate", "--profile", "tiny", "--out", "{tasks}/ds"], "--out {tasks}/ds: {tasks} is a file, not a directory"),
        (["generate", "--profile", "tiny", "--out", "{dir}"], "--out {dir}: already exists; choose another directory or remove it first"),
        (["load", "{org}", "--org", "{dir}"], "--org {dir}: is a directory; name a file, such as {dir}/crm.duckdb"),
        (["soql-eval", "{here}/missing.jsonl", "--org", "{org}"], "{here}/missing.jsonl: no such predictions file"),
        (["report", "{here}/missing.json"], "{here}/missing.json: no such results file"),
        (["query", "SELECT Id FROM Case", "--org", "{tasks}"], "{tasks} is not a crmarena-sf org file: it is not a DuckDB database at all"),
    ],
)  # fmt: skip
def test_wrong_paths_are_refused_before_any_work(task_file, tiny_dataset, tmp_path, capsys, args, message):
    (tmp_path / "adir").mkdir()
    names = {"tasks": task_file, "dir": tmp_path / "adir", "here": tmp_path, "org": tiny_dataset}
    assert refused(capsys, [a.format(**names) for a in args]) == message.format(**names)
    assert os.listdir(tmp_path) == ["adir"] and os.listdir(tmp_path / "adir") == []


# ---------------------------------------------------------------------------- contradictory options
@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--parallel", "processes", "--ray"], "--parallel and --ray both say how episodes run"),
        (["--workers", "2", "--ray", "auto"], "--workers and --ray both say how episodes run"),
        (["--tasks", "{tasks}", "--per-task", "3"], "--per-task says which task set run builds, and --tasks gives"),
        (["--tasks", "{tasks}", "--seed", "1"], "--seed says which task set run builds, and --tasks gives"),
        (["--tasks", "{tasks}", "--suite", "soql"], "--suite says which task set run builds, and --tasks gives"),
        (["--backend", "salesforce", "--org", "blank"], "--org blank names an emulated org, and --backend salesforce"),
    ],
)  # fmt: skip
def test_contradictory_options_are_refused(task_file, tmp_path, capsys, extra, message):
    args = ["run", "--agent", "reference", "--out", str(tmp_path / "r.json")]
    assert message in refused(capsys, [*args, *(a.format(tasks=task_file) for a in extra)])
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------------------- task files and their org
def test_a_task_file_built_on_another_org_is_refused_unless_allowed(task_file, other_seed, tmp_path, capsys):
    out = tmp_path / "r.json"
    args = ["run", "--agent", "reference", "--tasks", str(task_file), "--org", str(other_seed)]
    message = refused(capsys, [*args, "--out", str(out), "--quiet"])
    assert message.startswith(
        f"the tasks in {task_file} were built on another org than --org {other_seed} (org fingerprint "
    )
    assert message.endswith("run them on the org they were built on, or give --allow-org-mismatch")
    assert os.listdir(tmp_path) == []
    assert main([*args, "--out", str(out), "--quiet", "--allow-org-mismatch"]) == 0
    assert json.loads(out.read_text())["overall"] < 100  # the gold answers are not this org's


def test_a_task_file_runs_on_the_org_it_was_built_on_and_results_say_which(task_file, tiny_dataset, tmp_path):
    fingerprints = {json.loads(line)["org_fingerprint"] for line in task_file.read_text().splitlines()}
    assert len(fingerprints) == 1
    out = tmp_path / "r.json"
    args = ["run", "--agent", "reference", "--tasks", str(task_file), "--org", str(tiny_dataset)]
    assert main([*args, "--out", str(out), "--quiet"]) == 0
    body = json.loads(out.read_text())
    assert body["overall"] == 100.0 and body["settings"]["org_fingerprint"] == fingerprints.pop()


def test_a_truncated_line_is_named_by_its_line_number(task_file, tmp_path, capsys):
    lines = task_file.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join([*lines[:5], lines[5][:40]]) + "\n")
    message = refused(
        capsys, ["run", "--agent", "reference", "--tasks", str(cut), "--out", str(tmp_path / "r")]
    )
    with pytest.raises(json.JSONDecodeError) as error:
        json.loads(lines[5][:40])
    assert error.value.msg == "Unterminated string starting at"
    assert (
        message
        == f"{cut} line 6: not JSON Lines (Unterminated string starting at: column {error.value.colno})"
    )


# ---------------------------------------------------------------------------- resuming
def test_a_resume_says_what_it_reuses_and_refuses_a_log_of_changed_agent_code(
    task_file, tiny_dataset, tmp_path, capsys
):
    out, log = tmp_path / "r.json", tmp_path / "r.episodes.jsonl"
    args = ["run", "--agent", "reference", "--tasks", str(task_file), "--org", str(tiny_dataset)]
    args += ["--out", str(out), "--quiet"]
    assert main([*args, "--limit", "4"]) == 0
    assert "resuming" not in capsys.readouterr().err
    assert main(args) == 0
    assert f"resuming: 4 episodes from {log} reused, {len(FAMILIES) - 4} to run (--fresh starts over)" in (
        capsys.readouterr().err
    )
    header, *episodes = log.read_text().splitlines()
    changed = json.loads(header)
    changed["run"]["agent_code"] = "0123456789ab"  # the log of an agent whose code or prompts were different
    log.write_text("\n".join([json.dumps(changed), *episodes]) + "\n")
    message = refused(capsys, args)
    assert message == (
        f"{log} holds episodes of another run (the agent's code or prompts changed); "
        "use --fresh to start over, or another --out"
    )
    assert main([*args, "--fresh"]) == 0


# ---------------------------------------------------------------------------- soql-eval
@pytest.fixture(scope="module")
def soql_task_file(tiny_soql_task_file):
    return tiny_soql_task_file


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"idx": IDX, "query": "SELECT Id FROM Case"}', "line 2: unknown key 'query'; a prediction is {\"idx\": <task idx>, \"soql\": \"<query>\"}"),
        ('{"idx": IDX}', "line 2: no 'soql'; a prediction is"),
        ('{"idx": FIRST, "soql": "SELECT Id FROM Case"}', "line 2: a second prediction for idx FIRST"),
        ('{"idx": IDX, "soql": "SELECT Id', "line 2: not JSON (Unterminated string starting at: column"),
    ],
)  # fmt: skip
def test_soql_eval_refuses_a_line_it_cannot_read_naming_it(
    soql_task_file, tiny_dataset, tmp_path, capsys, line, message
):
    tasks = [json.loads(raw) for raw in soql_task_file.read_text().splitlines()]
    first, second = tasks[0]["idx"], tasks[1]["idx"]
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text(
        json.dumps({"idx": first, "soql": tasks[0]["answer"]})
        + "\n"
        + line.replace("IDX", str(second)).replace("FIRST", str(first))
        + "\n"
    )
    args = [
        "soql-eval",
        str(predictions),
        "--tasks",
        str(soql_task_file),
        "--org",
        str(tiny_dataset),
        "--quiet",
    ]
    assert refused(capsys, args).startswith(f"{predictions} {message.replace('FIRST', str(first))}")


def test_soql_eval_counts_and_names_the_tasks_without_a_prediction(
    soql_task_file, tiny_dataset, tmp_path, capsys
):
    tasks = [json.loads(raw) for raw in soql_task_file.read_text().splitlines()]
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text(
        "".join(json.dumps({"idx": t["idx"], "soql": t["answer"]}) + "\n" for t in tasks[2:])
    )
    out = tmp_path / "scored.json"
    args = ["soql-eval", str(predictions), "--tasks", str(soql_task_file), "--org", str(tiny_dataset)]
    assert main([*args, "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    missing = (
        f"(2 of {len(tasks)} tasks have no prediction and score 0: idx {tasks[0]['idx']}, {tasks[1]['idx']})"
    )
    assert missing in printed
    body = json.loads(out.read_text())
    assert body["settings"]["predictions_missing"] == 2
    assert sum(e["reward"] for e in body["episodes"]) == len(tasks) - 2


# ---------------------------------------------------------------------------- every suite reports
def test_results_of_every_suite_report_as_a_table_and_a_page(soql_task_file, tiny_dataset, tmp_path, capsys):
    run_out, eval_out = tmp_path / "run.json", tmp_path / "eval.json"
    args = ["run", "--agent", "reference", "--tasks", str(soql_task_file), "--org", str(tiny_dataset)]
    assert main([*args, "--out", str(run_out), "--quiet"]) == 0
    predictions = tmp_path / "predictions.jsonl"
    tasks = [json.loads(raw) for raw in soql_task_file.read_text().splitlines()]
    predictions.write_text("".join(json.dumps({"idx": t["idx"], "soql": t["answer"]}) + "\n" for t in tasks))
    args = ["soql-eval", str(predictions), "--tasks", str(soql_task_file), "--org", str(tiny_dataset)]
    assert main([*args, "--out", str(eval_out), "--quiet"]) == 0
    capsys.readouterr()
    for results in (run_out, eval_out):
        page = tmp_path / f"{results.stem}.html"
        assert main(["report", str(results), "--html", str(page)]) == 0
        table = capsys.readouterr().out.splitlines()
        assert table[1].split()[:3] == ["soql_generation", str(len(tasks)), "100.0"]
        html = page.read_text(encoding="utf-8")
        assert "<abbr>SOQL</abbr>" in html and "1 of 1 tasks" in html
        assert "covers CRMArena&#x27;s nine tasks" in html or "covers CRMArena's nine tasks" in html


# ---------------------------------------------------------------------------- an org that does not answer
def test_an_unreachable_org_is_named_by_its_url(tmp_path, capsys, monkeypatch):
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("SALESFORCE_INSTANCE_URL", f"https://127.0.0.1:{port}")
    monkeypatch.setenv("SALESFORCE_SESSION_ID", "00D000000000001!session")
    message = refused(capsys, ["query", "--backend", "salesforce", "SELECT Id FROM Case"], code=1)
    assert message == f"cannot reach Salesforce at https://127.0.0.1:{port}: ConnectionError"
