"""The runner: LLM runs through the CLI with usage and turns, parallel workers (threads, processes, Ray)
agreeing with a sequential run, and a run killed midway that resumes without redoing finished episodes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from crmarena_sf.loaders.generate import generate
from crmarena_sf.tasks.families import FAMILIES
from crmarena_sf.tasks.records import load_tasks
from fake_llm import FakeLLM

from crmarena_sf.cli.main import main


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    return generate(tmp_path_factory.mktemp("runner") / "ds", profile="tiny", seed=1)


@pytest.fixture(scope="module")
def task_file(dataset, tmp_path_factory):
    path = tmp_path_factory.mktemp("runner-tasks") / "tasks.jsonl"
    assert (
        main(["tasks", "build", "--org", str(dataset), "--per-task", "2", "--out", str(path), "--quiet"]) == 0
    )
    return path


def answering_policy(task_file):
    """A 'model' that answers every question with its gold answer, through respond."""
    gold = {t.query: t.answer for t in load_tasks(task_file)}

    def policy(body):
        message = body["messages"][1]["content"]
        question = next(query for query in gold if message.startswith(query))
        return {"tool_calls": [("respond", json.dumps({"content": gold[question] or "None"}))]}

    return policy


def llm_args(llm, task_file, dataset, out):
    return [
        "run", "--agent", "function-calling", "--model", "fake", "--base-url", llm.base_url,
        "--tasks", str(task_file), "--org", str(dataset), "--out", str(out), "--quiet",
    ]  # fmt: skip


def test_an_llm_run_records_turns_and_token_usage(task_file, dataset, tmp_path, capsys):
    out = tmp_path / "results.json"
    with FakeLLM(answering_policy(task_file)) as llm:
        assert main([*llm_args(llm, task_file, dataset, out), "--workers", "3"]) == 0
    body = json.loads(out.read_text())
    n = len(body["episodes"])
    assert body["overall"] == 100.0 and len(llm.requests) == n
    assert body["usage"]["prompt_tokens"] == 100 * n and body["usage"]["completion_tokens"] == 10 * n
    assert set(body["usage"]["by_task"]) == set(FAMILIES)
    assert all(
        e["turns"] == 1 and e["usage"] == {"prompt_tokens": 100, "completion_tokens": 10}
        for e in body["episodes"]
    )
    assert body["settings"]["model"] == "fake" and body["settings"]["agent"] == "function-calling"
    assert "api_key" not in json.dumps(body)


def test_a_killed_run_resumes_without_redoing_finished_episodes(task_file, dataset, tmp_path):
    out = tmp_path / "results.json"
    log = tmp_path / "results.episodes.jsonl"
    total = len(load_tasks(task_file))
    with FakeLLM(answering_policy(task_file), delay=0.15) as llm:
        env = {**os.environ, "OPENAI_API_KEY": "not-used"}
        command = [sys.executable, "-m", "crmarena_sf.cli.main", *llm_args(llm, task_file, dataset, out)]
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not log.exists() or len(log.read_text().splitlines()) < 5):
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait()
        finished = len(log.read_text().splitlines()) - 1
        assert 4 <= finished < total and not out.exists()
        asked_before = len(llm.requests)
        assert main(llm_args(llm, task_file, dataset, out)) == 0
        asked_again = len(llm.requests) - asked_before
    assert finished <= total - asked_again <= finished + 1  # at most the episode cut mid-answer runs again
    body = json.loads(out.read_text())
    assert len(body["episodes"]) == total and body["overall"] == 100.0
    assert sorted(e["idx"] for e in body["episodes"]) == sorted(t.idx for t in load_tasks(task_file))


def test_an_episode_log_of_another_run_is_refused_unless_fresh(task_file, dataset, tmp_path, capsys):
    out = tmp_path / "results.json"
    with FakeLLM(answering_policy(task_file)) as llm:
        assert main([*llm_args(llm, task_file, dataset, out), "--limit", "2"]) == 0
        other = llm_args(llm, task_file, dataset, out)
        other[other.index("fake")] = "another-model"
        assert main(other) == 2
        assert "holds episodes of another run" in capsys.readouterr().err
        assert main([*other, "--fresh"]) == 0
    assert json.loads(out.read_text())["settings"]["model"] == "another-model"


def reference_run(task_file, dataset, out, *extra):
    args = [
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
    assert main([*args, *extra]) == 0
    body = json.loads(out.read_text())
    return body["scores"], {e["idx"]: e["answer"] for e in body["episodes"]}


def test_threads_and_processes_agree_with_a_sequential_run(task_file, dataset, tmp_path):
    sequential = reference_run(task_file, dataset, tmp_path / "one.json")
    assert sequential[0] == {task: 100.0 for task in FAMILIES}
    assert reference_run(task_file, dataset, tmp_path / "threads.json", "--workers", "2") == sequential
    processes = reference_run(
        task_file, dataset, tmp_path / "procs.json", "--workers", "2", "--parallel", "processes"
    )
    assert processes == sequential


def test_ray_on_a_local_cluster_gives_the_same_results_as_two_workers(
    task_file, dataset, tmp_path, monkeypatch
):
    """--ray with no address starts a local Ray (Ray is a test dependency and the [ray] extra).

    Ray keeps its session under RAY_TMPDIR (else /tmp/ray) and a local cluster's token in
    ~/.ray/auth_token: both go to this test's own folders (a short one for Ray, whose socket paths
    must stay under the system's limit), never the user's home.
    """
    ray_tmp = Path(tempfile.mkdtemp(prefix="crs-ray-"))
    monkeypatch.setenv("RAY_TMPDIR", str(ray_tmp))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    try:
        two_workers = reference_run(task_file, dataset, tmp_path / "threads.json", "--workers", "2")
        assert reference_run(task_file, dataset, tmp_path / "ray.json", "--ray") == two_workers
        assert (ray_tmp / "ray").is_dir()  # Ray used the folder it was given
    finally:
        shutil.rmtree(ray_tmp, ignore_errors=True)


@pytest.mark.parametrize(
    ("cores", "options", "workers"), [(2, [], 2), (1, [], 1), (4, [], 2), (2, ["--workers", "1"], 1)]
)
def test_the_reference_agent_runs_two_threads_by_default_where_there_are_two_cores(
    cores, options, workers, tiny_task_file, tiny_dataset, tmp_path, monkeypatch
):
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    out = tmp_path / "r.json"
    args = ["run", "--agent", "reference", "--tasks", str(tiny_task_file), "--org", str(tiny_dataset)]
    assert main([*args, "--out", str(out), "--quiet", *options]) == 0
    body = json.loads(out.read_text())
    assert body["settings"]["workers"] == workers and body["overall"] == 100.0
