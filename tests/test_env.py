"""CRMArenaEnv, the Gymnasium-style environment: reset, step, reward on respond, truncation, a fork per reset."""

from __future__ import annotations

import pytest
from crmarena_sf.loaders.generate import generate
from crmarena_sf.tasks.build import build_tasks

import crmarena_sf
from crmarena_sf.env import CRMArenaEnv


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    return generate(tmp_path_factory.mktemp("env") / "ds", profile="tiny", seed=0)


@pytest.fixture(scope="module")
def task(dataset):
    records = build_tasks(
        crmarena_sf.connect(org=str(dataset)), per_task=1, tasks=["best_region_identification"]
    ).records
    return records[0]


def test_a_tool_episode_ends_with_the_reward_of_its_answer(task, dataset):
    env = CRMArenaEnv(task, org=str(dataset))
    observation, info = env.reset(seed=0)
    assert observation.startswith(task.query) and len(info["tools"]) == 27 and info["task"] == task.task
    seen, reward, terminated, truncated, info = env.step(
        {
            "name": "get_cases",
            "arguments": {
                "start_date": task.params["start"],
                "end_date": task.params["end"],
                "statuses": ["Closed"],
            },
        }
    )
    assert seen.startswith("[{'OwnerId': ") and (reward, terminated, truncated) == (0.0, False, False)
    seen, reward, terminated, truncated, info = env.step(
        {"name": "respond", "arguments": {"content": task.answer}}
    )
    assert (reward, terminated, truncated) == (1.0, True, False) and info["answer"] == task.answer
    with pytest.raises(RuntimeError, match="call reset"):
        env.step({"name": "get_issues"})
    env.close()


def test_a_text_episode_executes_queries_and_truncates_at_the_turn_limit(task, dataset):
    env = CRMArenaEnv(task, org=str(dataset), mode="text", max_turns=2)
    env.reset()
    seen, reward, terminated, truncated, _ = env.step("<execute>SELECT Name FROM Issue__c LIMIT 1</execute>")
    assert seen.startswith("Salesforce instance output: [{'Name': ") and not (terminated or truncated)
    seen, reward, terminated, truncated, _ = env.step("no action here")
    assert seen.startswith("Error: your reply must hold exactly one action") and truncated and reward == 0.0
    env.reset()
    assert env.step("<respond>ZZ</respond>")[1:4] == (0.0, True, False)
    env.close()


def test_each_reset_starts_from_a_clean_copy_of_the_org(task, dataset):
    env = CRMArenaEnv(task, org=str(dataset))
    env.reset()
    env.sf.Case.create({"Subject": "written by the agent"})
    count = "SELECT COUNT() FROM Case WHERE Subject = 'written by the agent'"
    assert env.sf.query(count)["totalSize"] == 1
    env.reset()
    assert env.sf.query(count)["totalSize"] == 0
    env.close()
