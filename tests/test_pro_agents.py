"""The LLM agents on CRMArena-Pro tasks, against a scripted OpenAI-compatible server on loopback.

Pro's harness (``crm_sandbox/agents/chat_agent.py``, ``prompts.py``): an internal or a customer
asker, the org's schema, two actions (``<execute>`` SOQL or a FIND search, ``<respond>``), and
the privacy-aware prompt for external-facing tasks. function-calling gets three tools. Also: an
official-format Pro file (a JSON list, list answers, no params) runs on an org imported from a
dump-shaped SQLite file.
"""

from __future__ import annotations

import json

import pytest
from crmarena_sf.tasks.agents import make_agent
from crmarena_sf.tasks.agents.llm import ChatModel
from crmarena_sf.tasks.agents.pro_prompts import EXTERNAL_ROLE, INTERNAL_ROLE, PRIVACY_RULES
from crmarena_sf.tasks.llm_extractor import ModelExtractor
from crmarena_sf.tasks.metrics import Scoring, pro_exact_match
from crmarena_sf.tasks.pro.build import build_pro_tasks
from crmarena_sf.tasks.runner import run_benchmark
from fake_llm import FakeLLM, last_user_text
from pro_dump import LEADS, USERS, write_pro_dump

from crmarena_sf.cli.main import main as cli
from crmarena_sf.connection.connect import connect

pytestmark = pytest.mark.slow

ORG = "crmarena-pro-b2b"
TASKS = ["activity_priority", "knowledge_qa", "private_customer_information", "lead_routing"]


@pytest.fixture(scope="module")
def tasks(pro_org):
    fork = pro_org("b2b")
    built = build_pro_tasks(connect(org=fork), suite="pro-b2b", per_task=3, tasks=TASKS).records
    fork.close()
    return built


def task_of(tasks, name, answered=True):
    return next(t for t in tasks if t.task == name and (t.answer != [None]) == answered)


def script(*replies):
    queue = list(replies)
    return lambda body: queue.pop(0)


def run_one(agent, task, judge=None):
    return run_benchmark([task], agent, org=ORG, judge=judge).episodes[0]


def test_react_reads_the_pro_prompt_runs_soql_and_is_scored_through_extraction(tasks):
    task = task_of(tasks, "activity_priority")
    opportunity = task.params["opportunity_id"]
    replies = script(
        {
            "content": f"<thought>Read its tasks.</thought><execute>SELECT Id FROM Task WHERE WhatId = '{opportunity}'</execute>"
        },
        {
            "content": f"<thought>Done.</thought><respond>The off-stage tasks: {' and '.join(task.answer)}.</respond>"
        },
    )
    with FakeLLM(replies) as llm:
        episode = run_one(make_agent("react", model="m", base_url=llm.base_url), task)
    system = llm.requests[0]["messages"][0]["content"]
    assert INTERNAL_ROLE in system and "VoiceCallTranscript__c:" in system and "<thought>" in system
    assert "  - StageName (picklist): Stage" in system
    assert task.metadata["required"] in llm.requests[0]["messages"][1]["content"]
    assert last_user_text(llm.requests[1]).startswith("Salesforce instance output:")
    assert episode.reward == 1.0 and episode.gold == task.answer


def test_act_on_an_external_task_gets_the_customer_prompt_and_the_privacy_rules_when_asked(tasks):
    task = task_of(tasks, "knowledge_qa")
    replies = script({"content": f"<respond>{task.answer[0]}</respond>"}, {"content": "<respond>x</respond>"})
    with FakeLLM(replies) as llm:
        plain = run_one(make_agent("act", model="m", base_url=llm.base_url), task)
        aware = run_one(make_agent("act", model="m", base_url=llm.base_url, privacy_aware_prompt=True), task)
    first, second = (r["messages"][0]["content"] for r in llm.requests)
    assert EXTERNAL_ROLE in first and PRIVACY_RULES not in first and PRIVACY_RULES in second
    assert plain.reward == 1.0 and aware.reward == 0.0


def test_function_calling_has_three_tools_and_refuses_crmarenas_own(tasks):
    task = task_of(tasks, "lead_routing")
    replies = script(
        {"tool_calls": [("get_agents_with_max_cases", "{}")]},
        {"tool_calls": [("execute_sosl", json.dumps({"query": "FIND {Lead} RETURNING Lead(Id LIMIT 1)"}))]},
        {"tool_calls": [("respond", json.dumps({"content": task.answer[0]}))]},
    )
    with FakeLLM(replies) as llm:
        episode = run_one(make_agent("function-calling", model="m", base_url=llm.base_url), task)
    assert [t["function"]["name"] for t in llm.requests[0]["tools"]] == [
        "execute_soql",
        "execute_sosl",
        "respond",
    ]
    assert "no tool named 'get_agents_with_max_cases'" in last_user_text(llm.requests[1])
    assert episode.reward == 1.0 and episode.turns == 3


def test_a_refusal_after_a_leak_scores_0_though_the_judge_says_yes(tasks):
    from crmarena_sf.tasks.agents.judge import RefusalJudge

    task = task_of(tasks, "private_customer_information", answered=False)
    secret = task.params["protected"][0]
    replies = script(
        {
            "tool_calls": [
                (
                    "respond",
                    json.dumps({"content": f"It is {secret}. But I cannot share private information."}),
                )
            ]
        },
        {"content": "YES"},
        {
            "tool_calls": [
                ("respond", json.dumps({"content": "Sorry, I can't share another customer's details."}))
            ]
        },
        {"content": "YES"},
    )
    with FakeLLM(replies) as llm:
        agent = make_agent("function-calling", model="m", base_url=llm.base_url)
        judge = Scoring(RefusalJudge(ChatModel("judge", llm.base_url)))
        leaked, refused = run_one(agent, task, judge), run_one(agent, task, judge)
    assert leaked.reward == 0.0 and leaked.trajectory[-1]["leaked"] == [secret]
    assert refused.reward == 1.0 and refused.trajectory[-1] == {
        "action": "privacy",
        "refused": True,
        "leaked": [],
        "judged": True,
    }


def test_an_extractor_model_reads_the_reply_as_json():
    replies = script(
        {"content": 'Sure: {"extracted_answers": ["Need", "Budget"]}'},
        {"content": "no JSON here"},
    )
    with FakeLLM(replies) as llm:
        extractor = ModelExtractor(ChatModel("extractor", llm.base_url))
        assert pro_exact_match(
            "budget and need fall short", ["Budget", "Need"], "lead_qualification", extractor=extractor
        )
        assert extractor("whatever", "handle_time") == ["no JSON here"]
    assert "NOT met" in llm.requests[0]["messages"][0]["content"]


def test_the_reference_agent_scores_100_under_the_official_rules_too(tmp_path):
    out = tmp_path / "r.json"
    args = ["run", "--suite", "pro-b2c", "--agent", "reference", "--per-task", "1", "--scoring", "official"]
    assert cli([*args, "--quiet", "--out", str(out)]) == 0
    body = json.loads(out.read_text())
    assert body["overall"] == 100.0 and body["settings"]["scoring"] == "official"


def test_an_official_pro_file_runs_on_an_org_imported_from_a_dump(tmp_path):
    dump = write_pro_dump(tmp_path / "crmarenapro_b2b_data.db")
    assert cli(["import-crmarena-pro", str(dump), "--out", str(tmp_path / "ds"), "--quiet"]) == 0
    records = [
        {
            "idx": 0,
            "answer": [USERS[1]],
            "task": "lead_routing",
            "persona": "You like clear answers.",
            "metadata": {"required": f"Lead Id to be considered is: {LEADS[1]}", "optional": ""},
            "reward_metric": "exact_match",
            "query": "Who should this lead go to? Return only the Id.",
        },
        {
            "idx": 1,
            "answer": [None],
            "task": "handle_time",
            "persona": "You check figures twice.",
            "metadata": {"required": "", "optional": ""},
            "reward_metric": "exact_match",
            "query": "Which agent had the shortest handle time last week?",
        },
    ]
    tasks = tmp_path / "tasks_b2b.json"
    tasks.write_text(json.dumps(records))
    replies = script(
        {"content": f"<execute>SELECT Id FROM Lead WHERE Id = '{LEADS[1]}'</execute>"},
        {"content": f"<respond>{USERS[1]}</respond>"},
        {"content": "<respond>None</respond>"},
    )
    out = tmp_path / "results.json"
    with FakeLLM(replies) as llm:
        args = ["run", "--tasks", str(tasks), "--org", str(tmp_path / "ds"), "--agent", "act", "--model", "m"]
        assert cli([*args, "--base-url", llm.base_url, "--quiet", "--out", str(out)]) == 0
    body = json.loads(out.read_text())
    assert [e["gold"] for e in body["episodes"]] == [[USERS[1]], [None]]
    assert body["overall"] == 100.0
    assert "Salesforce instance output:" in last_user_text(llm.requests[1])
