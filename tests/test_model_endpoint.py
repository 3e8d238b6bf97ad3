"""A model endpoint that fails is not an agent's wrong answer (issue 25), through the CLI.

Before the first episode ``run`` asks the endpoint (the agent's, the judge's or the extractor's) once for its model list, with the key, and
stops with one line naming the URL when nothing answers or the key is refused. An episode that
ends on an endpoint failure after the client's retries is left unscored (cause
``model_endpoint``), named apart under the table, makes the run exit 1, and runs again on resume.
"""

from __future__ import annotations

import json
import socket

import pytest
from crmarena_sf.tasks.records import load_tasks
from fake_llm import FakeLLM

from crmarena_sf.cli.main import main


@pytest.fixture(scope="module")
def task_file(tiny_task_file):
    return tiny_task_file


def gold_answers(task_file, refuse=lambda task: False):
    """A 'model' answering each question with its gold answer; 401 for the tasks ``refuse`` picks."""
    tasks = {t.query: t for t in load_tasks(task_file)}

    def policy(body):
        task = next(t for query, t in tasks.items() if body["messages"][1]["content"].startswith(query))
        if refuse(task):
            return {"status": 401}
        return {"tool_calls": [("respond", json.dumps({"content": task.answer or "None"}))]}

    return policy


def run_args(base_url, task_file, org, out):
    return [
        "run", "--agent", "function-calling", "--model", "fake", "--base-url", base_url,
        "--tasks", str(task_file), "--org", str(org), "--out", str(out), "--quiet",
    ]  # fmt: skip


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_dead_endpoint_stops_the_run_before_the_first_episode(task_file, tiny_dataset, tmp_path, capsys):
    url = f"http://127.0.0.1:{free_port()}/v1"
    out = tmp_path / "results.json"
    assert main(run_args(url, task_file, tiny_dataset, out)) == 1
    err = capsys.readouterr().err
    assert err == f"crmarena-sf: cannot reach the model endpoint {url} (Connection error.)\n"
    assert list(tmp_path.iterdir()) == []  # no results, no episode log


def test_a_refused_key_stops_the_run_before_the_first_episode(
    task_file, tiny_dataset, tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong")
    with FakeLLM(gold_answers(task_file), api_key="sk-right") as llm:
        assert main(run_args(llm.base_url, task_file, tiny_dataset, tmp_path / "r.json")) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"crmarena-sf: the model endpoint {llm.base_url} refused the API key (HTTP 401: ")
    assert len(err.splitlines()) == 1 and "sk-wrong" not in err
    assert llm.model_lists == 0 and llm.requests == [] and list(tmp_path.iterdir()) == []


def test_the_endpoint_is_asked_once_with_the_key_before_the_episodes(
    task_file, tiny_dataset, tmp_path, monkeypatch
):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-right")
    with FakeLLM(gold_answers(task_file), api_key="sk-right") as llm:
        assert main(run_args(llm.base_url, task_file, tiny_dataset, tmp_path / "r.json")) == 0
    assert llm.model_lists == 1 and len(llm.requests) == len(load_tasks(task_file))


def test_episodes_the_endpoint_failed_are_not_scored_shown_apart_and_run_again(
    task_file, tiny_dataset, tmp_path, capsys
):
    out = tmp_path / "results.json"
    total = len(load_tasks(task_file))
    refused = {"handle_time", "case_routing"}
    with FakeLLM(gold_answers(task_file, lambda task: task.task in refused)) as llm:
        assert main(run_args(llm.base_url, task_file, tiny_dataset, out)) == 1
        printed = capsys.readouterr().out
        assert "(2 episodes not scored: the model endpoint failed (AuthenticationError: " in printed
        body = json.loads(out.read_text())
        assert body["unscored"] == 2 and body["overall"] == 100.0 and set(body["scores"]) & refused == set()
        assert {(e["task"], e["cause"]) for e in body["episodes"] if e.get("scored") is False} == {
            (task, "model_endpoint") for task in refused
        }

        llm.policy = gold_answers(task_file)  # the endpoint works again: only those two run
        asked = len(llm.requests)
        assert main(run_args(llm.base_url, task_file, tiny_dataset, out)) == 0
        assert len(llm.requests) - asked == 2
    assert f"resuming: {total - 2} episodes from" in capsys.readouterr().err
    body = json.loads(out.read_text())
    assert "unscored" not in body and body["overall"] == 100.0 and sum(body["counts"].values()) == total


def reference_args(task_file, org, out, *options):
    return ["run", "--agent", "reference", "--tasks", str(task_file), "--org", str(org), "--out", str(out),
            "--quiet", *options]  # fmt: skip


@pytest.mark.parametrize("option", ["--extractor-model", "--judge-model"])
def test_a_scoring_model_on_a_dead_endpoint_stops_the_run_before_the_first_episode(
    option, task_file, tiny_dataset, tmp_path, capsys
):
    url = f"http://127.0.0.1:{free_port()}/v1"
    out = tmp_path / "results.json"
    assert main(reference_args(task_file, tiny_dataset, out, option, "gpt-4o", "--base-url", url)) == 1
    assert (
        capsys.readouterr().err == f"crmarena-sf: cannot reach the model endpoint {url} (Connection error.)\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", ["--extractor-model", "--judge-model"])
def test_a_scoring_model_without_a_key_or_endpoint_is_refused_in_one_line(
    option, task_file, tiny_dataset, tmp_path, capsys, monkeypatch
):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(reference_args(task_file, tiny_dataset, tmp_path / "r.json", option, "gpt-4o")) == 2
    err = capsys.readouterr().err
    assert err == (
        f"crmarena-sf: {option} needs an API key: set OPENAI_API_KEY, or give --base-url for an endpoint "
        "that needs none (vLLM, Ollama ...)\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_an_extractor_model_whose_key_is_refused_stops_the_run(
    task_file, tiny_dataset, tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong")
    with FakeLLM(gold_answers(task_file), api_key="sk-right") as llm:
        options = ("--extractor-model", "x", "--base-url", llm.base_url)
        assert main(reference_args(task_file, tiny_dataset, tmp_path / "r.json", *options)) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"crmarena-sf: the model endpoint {llm.base_url} refused the API key (HTTP 401: ")
    assert llm.requests == [] and list(tmp_path.iterdir()) == []


def test_base_url_without_any_model_to_send_to_it_is_refused(task_file, tiny_dataset, tmp_path, capsys):
    url = f"http://127.0.0.1:{free_port()}/v1"
    assert main(reference_args(task_file, tiny_dataset, tmp_path / "r.json", "--base-url", url)) == 2
    assert "--base-url is for LLM agents" in capsys.readouterr().err
