"""An emulator failure inside an episode is not the agent's wrong answer: it is left out of the scores,
said apart in the table, makes the run exit 1, and runs again on resume.

The failure is injected as an emulator defect would show: a SOQL query the engine cannot answer,
which the REST error boundary turns into Salesforce's 500 UNKNOWN_EXCEPTION.
"""

from __future__ import annotations

import json
import threading

import pytest
from crmarena_sf.emulator import soql as soql_engine
from crmarena_sf.tasks.episode_runner import EpisodeRunner
from crmarena_sf.tasks.records import load_tasks

from crmarena_sf.cli.main import main


@pytest.fixture(scope="module")
def task_file(tiny_dataset, tmp_path_factory):
    path = tmp_path_factory.mktemp("unscored") / "tasks.jsonl"
    args = ["tasks", "build", "--org", str(tiny_dataset), "--per-task", "2", "--out", str(path), "--quiet"]
    assert main(args) == 0
    return path


@pytest.fixture
def failing_queries(monkeypatch):
    """``failing_queries(n)``: the engine's next n queries inside episodes fail as an emulator defect would
    (the queries run before the episodes, building tasks or reading the org's fingerprint, do not)."""
    real = soql_engine.first_batch_json
    real_run = EpisodeRunner.run
    left = [0]
    lock = threading.Lock()
    in_episode = threading.local()

    def first_batch_json(*args, **kwargs):
        with lock:
            fail = left[0] > 0 and getattr(in_episode, "on", False)
            left[0] -= fail
        if fail:
            raise RuntimeError("injected emulator defect")
        return real(*args, **kwargs)

    def run(self, task, trial=0):
        in_episode.on = True
        try:
            return real_run(self, task, trial)
        finally:
            in_episode.on = False

    monkeypatch.setattr(soql_engine, "first_batch_json", first_batch_json)
    monkeypatch.setattr(EpisodeRunner, "run", run)

    def arm(n: int) -> None:
        left[0] = n

    return arm


def test_episodes_the_emulator_failed_are_not_scored_and_run_again_on_resume(
    task_file, tiny_dataset, tmp_path, capsys, failing_queries
):
    out = tmp_path / "results.json"
    args = ["run", "--agent", "reference", "--tasks", str(task_file), "--org", str(tiny_dataset)]
    args += ["--out", str(out), "--quiet"]
    total = len(load_tasks(task_file))

    failing_queries(3)  # the reference agent stops at its first failed call: three episodes
    assert main(args) == 1
    printed = capsys.readouterr().out
    assert "3 episodes not scored: the emulator failed" in printed and "UNKNOWN_EXCEPTION" in printed
    body = json.loads(out.read_text())
    assert body["unscored"] == 3 and body["overall"] == 100.0
    assert sum(body["counts"].values()) == total - 3
    unscored = [e for e in body["episodes"] if e.get("scored") is False]
    assert len(unscored) == 3 and all("UNKNOWN_EXCEPTION" in e["error"] for e in unscored)

    assert main(args) == 0  # the emulator works again: only the three run
    capsys.readouterr()
    body = json.loads(out.read_text())
    assert "unscored" not in body and body["overall"] == 100.0
    assert sum(body["counts"].values()) == total
    log_lines = (tmp_path / "results.episodes.jsonl").read_text().splitlines()
    assert len(log_lines) == 1 + total + 3  # the header, every episode once, the three again


def test_the_report_shows_unscored_episodes_apart(task_file, tiny_dataset, tmp_path, capsys, failing_queries):
    out, html = tmp_path / "results.json", tmp_path / "report.html"
    args = ["run", "--agent", "reference", "--tasks", str(task_file), "--org", str(tiny_dataset)]
    failing_queries(1)
    assert main([*args, "--out", str(out), "--quiet", "--workers", "2"]) == 1
    capsys.readouterr()
    assert main(["report", str(out), "--html", str(html)]) == 0
    assert "1 episode not scored" in capsys.readouterr().out
    page = html.read_text()
    assert "1 episode not scored (the emulator failed" in page
    assert "left out of every score" in page
