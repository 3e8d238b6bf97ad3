"""An LLM agent and an LLM user, each a scripted OpenAI-compatible server on loopback, run interactive
episodes to the user's ###STOP###, to the user-turn limit and to the action limit, each with its end
reason and reward; the user's tokens are counted apart and its seed varies per trial; a killed
interactive run resumes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from crmarena_sf.tasks.agents import make_agent
from crmarena_sf.tasks.build import build_tasks
from crmarena_sf.tasks.episode import MAX_ACTIONS, MAX_USER_TURNS, STOP
from crmarena_sf.tasks.episode_log import log_path
from crmarena_sf.tasks.runner import run_benchmark
from crmarena_sf.tasks.users import UserSpec
from fake_llm import FakeLLM, last_user_text

import crmarena_sf
from crmarena_sf.cli.main import main


@pytest.fixture(scope="module")
def task(tiny_dataset):
    records = build_tasks(
        crmarena_sf.connect(org=str(tiny_dataset)), per_task=1, tasks=["best_region_identification"]
    ).records
    return records[0]


def respond(text):
    return {"tool_calls": [("respond", json.dumps({"content": text}))]}


def run(task, tiny_dataset, agent_policy, user_policy, trials=1, seed=7):
    with FakeLLM(agent_policy) as agent_llm, FakeLLM(user_policy) as user_llm:
        agent = make_agent("function-calling", model="agent-model", base_url=agent_llm.base_url)
        user = UserSpec("llm", "user-model", user_llm.base_url, temperature=0.5, seed=seed)
        results = run_benchmark([task], agent, org=str(tiny_dataset), user=user, trials=trials)
    return results, agent_llm.requests, user_llm.requests


def test_an_episode_runs_to_the_users_stop_and_scores_the_last_reply(task, tiny_dataset):
    period = f"From {task.params['start']} to {task.params['end']}."

    def user_policy(body):
        said = last_user_text(body)
        if said.startswith("Hello!"):
            return {"content": "Which state resolves cases fastest?"}
        if "period" in said:
            return {"content": period}
        return {"content": STOP}

    agent_replies = [
        respond("Which period do you mean?"),
        {"tool_calls": [("issue_soql_query", json.dumps({"query": "SELECT Id FROM Case LIMIT 1"}))]},
        respond(task.answer),
    ]
    results, agent_requests, user_requests = run(
        task, tiny_dataset, lambda b: agent_replies.pop(0), user_policy
    )
    episode = results.episodes[0]
    assert episode.end_reason == "user_stop" and episode.reward == 1.0 and episode.answer == task.answer
    said = [s["content"] for s in episode.trajectory if s["action"] == "user"]
    assert said == ["Which state resolves cases fastest?", period, STOP]
    # The agent never sees the question: its first user message is the user's opening; its system prompt
    # holds the task's required metadata instead.
    first = agent_requests[0]["messages"]
    assert first[1]["content"] == "Which state resolves cases fastest?"
    assert task.query not in json.dumps(agent_requests) and task.metadata["required"] in first[0]["content"]
    assert agent_requests[1]["messages"][-1] == {"role": "user", "content": period}
    # The user holds the query and persona; its temperature and seed are the run's, its tokens its own.
    assert task.query in user_requests[0]["messages"][0]["content"]
    assert {(r["temperature"], r["seed"], r["model"]) for r in user_requests} == {(0.5, 7, "user-model")}
    assert episode.user_usage == {"prompt_tokens": 300, "completion_tokens": 30}
    assert episode.usage == {"prompt_tokens": 300, "completion_tokens": 30} and episode.turns == 3
    assert results.settings["user_model"] == "user-model" and results.settings["user_seed"] == 7
    assert results.to_json()["user_usage"] == {"prompt_tokens": 300, "completion_tokens": 30}


def test_a_user_that_never_stops_ends_the_episode_at_the_user_turn_limit(task, tiny_dataset):
    results, agent_requests, user_requests = run(
        task,
        tiny_dataset,
        lambda body: respond("Could you say more about what you need?"),
        lambda body: {"content": "I'm not sure what you mean."},
    )
    episode = results.episodes[0]
    assert (episode.end_reason, episode.reward) == ("user_turn_limit", 0.0)
    assert len(user_requests) == MAX_USER_TURNS  # the opening and nine replies: no eleventh turn is asked for
    assert sum(1 for s in episode.trajectory if s["action"] == "user") == MAX_USER_TURNS
    assert len(agent_requests) == MAX_USER_TURNS


def test_an_agent_that_never_replies_to_the_user_ends_at_the_action_limit(task, tiny_dataset):
    results, agent_requests, _ = run(
        task,
        tiny_dataset,
        lambda body: {"tool_calls": [("get_issues", "{}")]},
        lambda body: {"content": "Which state resolves cases fastest?"},
    )
    episode = results.episodes[0]
    assert (episode.end_reason, episode.reward) == ("action_limit", 0.0)
    assert len(agent_requests) == MAX_ACTIONS
    assert sum(1 for s in episode.trajectory if s["action"] == "tool") == MAX_ACTIONS


def test_the_action_count_restarts_after_each_reply_to_the_user(task, tiny_dataset):
    """Nineteen actions, a question to the user, nineteen more, the answer: no limit is reached."""
    replies = [{"tool_calls": [("get_issues", "{}")]}] * (MAX_ACTIONS - 1) + [respond("Which period?")]
    replies += [{"tool_calls": [("get_issues", "{}")]}] * (MAX_ACTIONS - 1) + [respond(task.answer)]
    said = {"Which period?": "Last quarter."}

    def user_policy(body):
        text = last_user_text(body)
        return {"content": "Hi." if text.startswith("Hello!") else said.get(text, STOP)}

    results, agent_requests, _ = run(task, tiny_dataset, lambda body: replies.pop(0), user_policy)
    episode = results.episodes[0]
    assert (episode.end_reason, episode.reward) == ("user_stop", 1.0)
    assert len(agent_requests) == 2 * MAX_ACTIONS and not replies


def test_the_users_seed_varies_per_trial(task, tiny_dataset):
    results, _, user_requests = run(
        task,
        tiny_dataset,
        lambda body: respond(task.answer),
        lambda body: {"content": STOP},
        trials=3,
        seed=10,
    )
    assert sorted({r["seed"] for r in user_requests}) == [10, 11, 12]
    assert sorted(e.trial for e in results.episodes) == [0, 1, 2]
    assert all(e.end_reason == "user_stop" and e.reward == 1.0 for e in results.episodes)
    assert results.pass_k["pass^3"]["overall"] == 100.0


def test_the_cli_runs_an_llm_user_with_its_own_key(tiny_dataset, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_USER_API_KEY", raising=False)
    out = tmp_path / "r.json"
    base = ["run", "--agent", "reference", "--suite", "crmarena-interactive", "--org", str(tiny_dataset)]
    assert main([*base, "--user-model", "u", "--out", str(out), "--quiet"]) == 2
    assert "--user-model needs an API key: set OPENAI_USER_API_KEY" in capsys.readouterr().err
    monkeypatch.setenv("OPENAI_USER_API_KEY", "user-secret")
    with FakeLLM(lambda body: {"content": STOP}, api_key="user-secret") as user_llm:
        args = [*base, "--per-task", "1", "--limit", "2", "--user-model", "u", "--out", str(out), "--quiet"]
        code = main([*args, "--user-base-url", user_llm.base_url])
    assert code == 0, capsys.readouterr()
    data = json.loads(out.read_text())
    assert data["settings"]["user"] == "llm" and data["settings"]["user_base_url"] == user_llm.base_url
    # The reference agent's first question is its answer to the user: the user stops at once and the
    # reply scored is a question, not the answer.
    assert data["end_reasons"] == {"user_stop": 2} and user_llm.model_lists == 1


def test_calls_after_a_message_to_the_user_are_answered_but_not_run(task, tiny_dataset):
    replies = [
        {"tool_calls": [("respond", json.dumps({"content": "Which period?"})), ("get_issues", "{}")]},
        respond(task.answer),
    ]

    def user_policy(body):
        text = last_user_text(body)
        return {
            "content": "Hi."
            if text.startswith("Hello!")
            else "Last year."
            if text == "Which period?"
            else STOP
        }

    results, agent_requests, _ = run(task, tiny_dataset, lambda body: replies.pop(0), user_policy)
    assert (results.episodes[0].end_reason, results.episodes[0].reward) == ("user_stop", 1.0)
    after = agent_requests[1]["messages"][-3:]
    assert [m["role"] for m in after] == ["tool", "tool", "user"]
    assert after[1]["content"].startswith("Not run") and after[2]["content"] == "Last year."
    assert not any(s.get("name") == "get_issues" for s in results.episodes[0].trajectory)


def test_a_react_agent_talks_to_the_user_through_respond(task, tiny_dataset):
    replies = [
        {"content": "<thought>I need the period.</thought><respond>Which period do you mean?</respond>"},
        {"content": "<thought>Look.</thought><execute>SELECT Id FROM Case LIMIT 1</execute>"},
        {"content": f"<thought>Done.</thought><respond>{task.answer}</respond>"},
    ]

    def user_policy(body):
        text = last_user_text(body)
        return {"content": "Hi." if text.startswith("Hello!") else "Last year." if "period" in text else STOP}

    with FakeLLM(lambda body: replies.pop(0)) as agent_llm, FakeLLM(user_policy) as user_llm:
        agent = make_agent("react", model="agent-model", base_url=agent_llm.base_url)
        user = UserSpec("llm", "user-model", user_llm.base_url)
        episode = run_benchmark([task], agent, org=str(tiny_dataset), user=user).episodes[0]
        second = agent_llm.requests[1]["messages"]
    assert (episode.end_reason, episode.reward) == ("user_stop", 1.0)
    assert second[-1] == {"role": "user", "content": "Last year."}
    assert [s["action"] for s in episode.trajectory] == [
        "user", "think", "respond", "user", "think", "execute", "think", "respond", "user",
    ]  # fmt: skip


def test_an_unreachable_user_endpoint_is_refused_before_any_episode(tiny_dataset, tmp_path, capsys):
    args = ["run", "--agent", "reference", "--suite", "crmarena-interactive", "--org", str(tiny_dataset)]
    args += [
        "--user-model",
        "u",
        "--user-base-url",
        "http://127.0.0.1:9/v1",
        "--out",
        str(tmp_path / "r.json"),
    ]
    assert main([*args, "--quiet"]) == 1
    assert "--user-model: cannot reach the model endpoint http://127.0.0.1:9/v1" in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()


def test_a_killed_interactive_run_resumes_without_redoing_finished_episodes(tiny_dataset, tmp_path):
    """A real kill (SIGKILL) mid-run: the same command runs only the episodes the log does not hold."""
    out = tmp_path / "results.json"
    log = log_path(out)

    def openings(requests):
        return sum(1 for r in requests if len(r["messages"]) == 2)  # the user's first message of an episode

    with FakeLLM(lambda body: {"content": STOP}, delay=0.2) as user_llm:
        args = ["run", "--agent", "reference", "--suite", "crmarena-interactive", "--org", str(tiny_dataset)]
        args += [
            "--per-task",
            "1",
            "--workers",
            "1",
            "--user-model",
            "u",
            "--user-base-url",
            user_llm.base_url,
        ]
        args += ["--out", str(out), "--quiet"]
        command = [sys.executable, "-m", "crmarena_sf.cli.main", *args]
        process = subprocess.Popen(
            command, env=dict(os.environ), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and (not log.exists() or len(log.read_text().splitlines()) < 4):
                time.sleep(0.05)
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait()
        finished = len([line for line in log.read_text().splitlines()[1:] if line.endswith("}")])
        assert finished >= 3 and not out.exists()
        before = openings(user_llm.requests)
        assert main(args) == 0
        again = openings(user_llm.requests) - before
    body = json.loads(out.read_text())
    total = len(body["episodes"])
    assert finished < total and again == total - finished
    assert body["end_reasons"] == {"user_stop": total}
