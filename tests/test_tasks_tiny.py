"""The benchmark pipeline on a small generated org: identical gold answers through mock_salesforce,
one fork per episode, failures kept per episode, and the reference agent at 100."""

from __future__ import annotations

import pytest
from crmarena_sf.tasks.agents import EpisodeOutcome, make_agent
from crmarena_sf.tasks.build import TaskBuildError, build_tasks
from crmarena_sf.tasks.families import FAMILIES
from crmarena_sf.tasks.runner import run_benchmark
from simple_salesforce import Salesforce

import crmarena_sf


@pytest.fixture(scope="module")
def dataset(tiny_dataset):
    return tiny_dataset


@pytest.fixture(scope="module")
def built(dataset):
    return build_tasks(crmarena_sf.connect(org=str(dataset)), per_task=20)


def test_every_task_is_built_on_a_tiny_org(built):
    assert set(built.made) == set(FAMILIES)
    assert all(n > 0 for n in built.made.values()), built.made
    assert len(built.records) == sum(built.made.values())


def test_gold_answers_are_the_same_through_mock_salesforce(dataset, built):
    """A real client logging in with a username, as against a real org, gets the same task set."""
    with crmarena_sf.mock_salesforce(org=str(dataset)):
        sf = Salesforce(username="analyst@example.com", password="pw", security_token="token")
        through_login = build_tasks(sf, per_task=20)
    assert [r.to_json() for r in through_login.records] == [r.to_json() for r in built.records]


def test_the_reference_agent_scores_100_on_the_tiny_org(dataset, built):
    results = run_benchmark(built.records, make_agent("reference"), org=str(dataset))
    assert results.scores == {task: 100.0 for task in FAMILIES}
    assert results.settings == {
        "agent": "reference",
        "backend": "emulator",
        "tasks": len(built.records),
        "org": str(dataset),
    }


class WritingAgent:
    """Writes to the org in every episode, then answers with what it sees."""

    name = "writer"

    def settings(self):
        return {"agent": self.name}

    def run(self, task, sf):
        sf.Case.create({"Subject": f"written in episode {task.idx}"})
        count = sf.query("SELECT COUNT() FROM Case WHERE Subject LIKE 'written in episode%'")["totalSize"]
        if task.idx % 2:
            raise RuntimeError("the model gave up")
        return EpisodeOutcome(str(count), [{"action": "respond", "content": str(count)}])


def test_each_episode_has_its_own_fork_and_a_failing_episode_scores_0(dataset, built):
    tasks = built.records[:6]
    results = run_benchmark(tasks, WritingAgent(), org=str(dataset))
    ok = [e for e in results.episodes if not e.error]
    assert [e.answer for e in ok] == ["1"] * 3  # no episode sees another's write
    failed = [e for e in results.episodes if e.error]
    assert len(failed) == 3 and all(
        e.reward == 0.0 and e.error == "RuntimeError: the model gave up" for e in failed
    )
    sf = crmarena_sf.connect(org=str(dataset))
    assert sf.query("SELECT COUNT() FROM Case WHERE Subject LIKE 'written%'")["totalSize"] == 0


def test_an_org_without_cases_cannot_give_tasks():
    with pytest.raises(TaskBuildError, match="the org has no cases"):
        build_tasks(crmarena_sf.connect(org="blank"))


def test_unknown_tasks_and_agents_are_named():
    with pytest.raises(ValueError, match="unknown task 'sales_forecast'"):
        build_tasks(crmarena_sf.connect(org="blank"), tasks=["sales_forecast"])
    with pytest.raises(ValueError, match="unknown agent 'gpt'; expected one of reference"):
        make_agent("gpt")
