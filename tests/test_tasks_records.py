"""Task files: ours round-trip, the official Hugging Face ``Salesforce/CRMArena`` layout loads as it is and runs
on an org imported from the official dump (the dump-shaped file of test_import), and bad files get one clear error."""

from __future__ import annotations

import json
import re

import pytest
from crmarena_sf.loaders.crmarena_dump import import_dump
from crmarena_sf.tasks.agents import EpisodeOutcome
from crmarena_sf.tasks.records import TaskFileError, TaskRecord, load_tasks, write_tasks
from crmarena_sf.tasks.runner import run_benchmark
from test_import import CONTACT, ISSUE, PRODUCT, build_dump

OPTIONAL = "# Domain Details\n## Quarters of the Year\n- Q1: January 1 to March 31 (both inclusive)."
OFFICIAL = [
    {
        "idx": 260,
        "task": "top_issue_identification",
        "persona": "Service Analyst",
        "query": f"What is the most frequent problem with Women's Trail Jacket in Q2 2021? The associated product Id is {PRODUCT}. Return only the issue Id of the most reported issue for this product.",
        "answer": ISSUE,
        "reward_metric": "exact_match",
        "metadata": {"required": "- Today's date: 2021-07-04", "optional": OPTIONAL},
    },
    {
        "idx": 520,
        "task": "named_entity_disambiguation",
        "query": "Can you display the women's trail jacket I purchased a fortnight ago? Return only the Id of the product from the contact's relevant past transaction.",
        "answer": PRODUCT,
        "reward_metric": "exact_match",
        "metadata": {"required": f"- Contact Id interacting: {CONTACT}\n- Today's date: 2021-04-05", "optional": OPTIONAL},
    },
    {  # the pre-release layout: "type" for "task", answers as one-element lists, raw task names
        "idx": 780,
        "type": "transfer_time",
        "query": "Identify the agent with the highest number of transfers in the past two months. Return only the Id of the agent.",
        "answer": [None],
        "reward_metric": "exact_match",
        "metadata": {"required": "- Today's date: 2021-09-22", "optional": OPTIONAL},
    },
]  # fmt: skip


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    base = tmp_path_factory.mktemp("official")
    return import_dump(build_dump(base / "crmarena_data.db"), base / "dataset")


@pytest.fixture
def official_file(tmp_path):
    path = tmp_path / "crmarena_w_metadata.json"
    path.write_text(json.dumps(OFFICIAL, indent=1), encoding="utf-8")
    return path


def test_the_official_layout_loads_as_it_is(official_file):
    records = load_tasks(official_file)
    assert [(r.idx, r.task, r.answer, r.params) for r in records] == [
        (260, "top_issue_identification", ISSUE, None),
        (520, "named_entity_disambiguation", PRODUCT, None),
        (780, "transfer_count", None, None),
    ]
    assert records[0].persona == "Service Analyst" and records[1].metadata["required"].startswith(
        "- Contact Id"
    )


class TopIssueAgent:
    """Answers top-issue questions with SOQL, as an LLM agent would; every other question with None."""

    name = "top-issue"

    def settings(self):
        return {"agent": self.name}

    def run(self, task, sf):
        if task.task != "top_issue_identification":
            return EpisodeOutcome("None")
        product = re.search(r"product Id is (01t\w{15})", task.query)[1]
        rows = sf.query(
            "SELECT IssueId__c, COUNT(Id) n FROM Case WHERE OrderItemId__c IN "
            f"(SELECT Id FROM OrderItem WHERE Product2Id = '{product}') "
            "AND CreatedDate >= 2021-04-01T00:00:00Z AND CreatedDate < 2021-07-01T00:00:00Z "
            "GROUP BY IssueId__c ORDER BY COUNT(Id) DESC LIMIT 1"
        )["records"]
        return EpisodeOutcome(rows[0]["IssueId__c"] if rows else "None")


def test_official_tasks_run_on_an_org_imported_from_the_official_dump(official_file, imported):
    results = run_benchmark(load_tasks(official_file), TopIssueAgent(), org=str(imported))
    assert {e.idx: e.reward for e in results.episodes} == {260: 1.0, 520: 0.0, 780: 1.0}


def test_our_records_round_trip(tmp_path):
    record = TaskRecord(
        7, "handle_time", "Who?", None, "exact_match", {"required": "r", "optional": "o"}, "Service Manager",
        {"start": "2023-04-01T00:00:00Z", "end": "2023-07-01T00:00:00Z", "min_cases": 2, "extreme": "min"},
    )  # fmt: skip
    path = write_tasks([record], tmp_path / "tasks.jsonl")
    assert load_tasks(path) == [record]
    assert json.loads(path.read_text())["answer"] is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "no task records"),
        ("{not json", "line 1: not JSON Lines (Expecting property name enclosed in double quotes: column 2)"),
        ('{"idx": 1, "task": "sales_forecast", "query": "q", "reward_metric": "exact_match"}', "line 1: unknown task 'sales_forecast'"),
        ('{"idx": 1, "task": "handle_time", "reward_metric": "exact_match"}', "missing 'query'"),
        ('{"idx": "1", "task": "handle_time", "query": "q", "reward_metric": "exact_match"}', "idx must be a whole number"),
        ('{"idx": 1, "task": "handle_time", "query": "q", "reward_metric": "bleu"}', "reward_metric must be one of"),
        ('{"idx": 1, "task": "handle_time", "query": "q", "reward_metric": "exact_match", "answer": ["a", "b"]}', "must hold one answer"),
        ('[{"idx": 1, "task": "handle_time", "query": "q", "reward_metric": "exact_match"}, {"idx": 1, "task": "handle_time", "query": "q", "reward_metric": "exact_match"}]', "idx 1 appears twice"),
        ("[1, 2]", "record 1: expected a JSON object"),
    ],
)  # fmt: skip
def test_a_bad_task_file_is_refused_with_what_is_wrong(tmp_path, content, message):
    path = tmp_path / "tasks.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(TaskFileError, match=re.escape(message)):
        load_tasks(path)
