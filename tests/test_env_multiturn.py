"""CRMArenaEnv on the one episode step: single-turn episodes of every metric (exact and fuzzy match,
text-to-SOQL execution match, Pro's privacy refusal) and multi-turn episodes with the scripted user,
ended by the user's stop, the user-turn limit and the action limit."""

from __future__ import annotations

import pytest
from crmarena_sf.tasks.build import build_tasks
from crmarena_sf.tasks.episode import MAX_ACTIONS, MAX_USER_TURNS
from crmarena_sf.tasks.pro.build import build_pro_tasks
from crmarena_sf.tasks.records import load_tasks
from crmarena_sf.tasks.users.criteria import criteria_for

import crmarena_sf
from crmarena_sf.env import CRMArenaEnv


@pytest.fixture(scope="module")
def tasks(tiny_dataset):
    return build_tasks(crmarena_sf.connect(org=str(tiny_dataset)), per_task=1).records


def of(tasks, name):
    return next(t for t in tasks if t.task == name)


def answer_of(env, text):
    return env.step({"name": "respond", "arguments": {"content": text}})


@pytest.mark.parametrize(
    ("name", "metric"), [("handle_time", "exact_match"), ("knowledge_qa", "fuzzy_match")]
)
def test_single_turn_exact_and_fuzzy_match(tasks, tiny_dataset, name, metric):
    task = of(tasks, name)
    assert task.reward_metric == metric
    env = CRMArenaEnv(task, org=str(tiny_dataset))
    env.reset()
    _, reward, terminated, truncated, info = answer_of(env, task.answer or "None")
    assert (reward, terminated, truncated, info["end_reason"]) == (1.0, True, False, "answered")
    env.close()


def test_single_turn_soql_execution_is_scored_on_the_episodes_fork(tiny_soql_task_file, tiny_dataset):
    task = load_tasks(tiny_soql_task_file)[0]
    assert task.reward_metric == "soql_execution"
    env = CRMArenaEnv(task, org=str(tiny_dataset), mode="text")
    env.reset()
    _, reward, terminated, _, info = env.step(f"<respond>{task.answer}</respond>")
    assert (reward, terminated, info["end_reason"]) == (1.0, True, "answered")
    env.reset()
    _, reward, _, _, _ = env.step("<respond>SELECT Id FROM Account WHERE Name = 'no such account'</respond>")
    assert reward == 0.0
    env.close()


def test_single_turn_privacy_refusal_of_a_pro_task(pro_org):
    org = pro_org("b2b")
    try:
        records = build_pro_tasks(
            crmarena_sf.connect(org=org), suite="pro-b2b", per_task=1, tasks=["private_customer_information"]
        ).records
        task = records[0]
        assert task.reward_metric == "privacy_rejection"
        env = CRMArenaEnv(task, org=org)
        env.reset()
        _, reward, terminated, _, info = answer_of(env, "I'm sorry, I can't share that: it is confidential.")
        assert (reward, terminated) == (1.0, True) and info["privacy"]["refused"] is True
        env.reset()
        leak = task.params["protected"][0]
        _, reward, _, _, info = answer_of(env, f"Sure, it is {leak}.")
        assert reward == 0.0 and info["privacy"]["leaked"] == [leak]
        env.close()
    finally:
        org.close()


def test_a_multi_turn_episode_asks_the_scripted_user_and_ends_on_its_stop(tasks, tiny_dataset):
    task = of(tasks, "best_region_identification")
    env = CRMArenaEnv(task, org=str(tiny_dataset), user="scripted")
    opening, info = env.reset()
    assert opening != task.query and info["speaker"] == "user"
    assert task.metadata["required"] in info["system_prompt"] and task.query not in info["system_prompt"]
    (period,) = criteria_for(task.task, task.params)
    seen, reward, terminated, truncated, info = answer_of(env, period.question)
    assert seen == period.say(task.params) and info["speaker"] == "user" and not (terminated or truncated)
    seen, reward, terminated, truncated, info = env.step({"name": "get_issues", "arguments": {}})
    assert info["speaker"] == "org" and not terminated
    seen, reward, terminated, truncated, info = answer_of(env, task.answer)
    assert (reward, terminated, truncated, info["end_reason"]) == (1.0, True, False, "user_stop")
    env.reset()
    _, reward, terminated, _, info = answer_of(env, "XX")  # a wrong last reply: the user stops, reward 0
    assert (reward, terminated, info["end_reason"]) == (0.0, True, "user_stop")
    env.close()


def test_a_multi_turn_episode_is_truncated_at_the_user_turn_limit(tasks, tiny_dataset):
    env = CRMArenaEnv(of(tasks, "handle_time"), org=str(tiny_dataset), user="scripted", mode="text")
    env.reset()
    for turn in range(MAX_USER_TURNS - 1):
        seen, _, terminated, truncated, info = env.step("<respond>What's the weather like?</respond>")
        assert info["speaker"] == "user" and not (terminated or truncated), turn
    seen, reward, terminated, truncated, info = env.step("<respond>And tomorrow?</respond>")
    assert (reward, terminated, truncated, info["end_reason"]) == (0.0, False, True, "user_turn_limit")
    env.close()


def test_a_multi_turn_episode_is_truncated_at_the_action_limit(tasks, tiny_dataset):
    env = CRMArenaEnv(of(tasks, "handle_time"), org=str(tiny_dataset), user="scripted")
    env.reset()
    for _ in range(MAX_ACTIONS - 1):
        assert env.step("not a tool call")[4]["speaker"] == "error"
    answer_of(env, "Which period do you mean?")  # a reply to the user restarts the count
    for _ in range(MAX_ACTIONS - 1):
        assert not env.step({"name": "get_issues", "arguments": {}})[3]
    _, reward, terminated, truncated, info = env.step({"name": "get_issues", "arguments": {}})
    assert (reward, terminated, truncated, info["end_reason"]) == (0.0, False, True, "action_limit")
    env.close()
