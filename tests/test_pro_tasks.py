"""CRMArena-Pro's suites on the B2B and B2C orgs: every family's gold against the planted truth.

The build (``crmarena_sf.tasks.pro.build``) already checks each gold twice (candidate search and
SOQL/SOSL solver) and refuses ties; these tests check what it cannot: that the golds are the
answers the generator planted (the manifest's ``latent`` block, ``loaders/pro/truth.py``), that
no instance is a tie when solved again, that a build through ``mock_salesforce`` gives the same
golds as one on the directly loaded org, and that the reference agent scores 100 on both orgs.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from crmarena_sf.loaders.dataset import Dataset
from crmarena_sf.tasks.families import family
from crmarena_sf.tasks.org_client import OrgClient
from crmarena_sf.tasks.pro.build import build_pro_tasks
from crmarena_sf.tasks.pro.suite import PRO_TASKS

from crmarena_sf.cli.main import main as cli
from crmarena_sf.connection.connect import connect

pytestmark = pytest.mark.slow

PER_TASK = 8


@pytest.fixture(scope="module", params=["b2b", "b2c"])
def built(request, pro_org, pro_dataset):
    """(suite, client on a fork of the org, the records of a small build, the planted truth)."""
    fork = pro_org(request.param)
    sf = connect(org=fork)
    suite = f"pro-{request.param}"
    report = build_pro_tasks(sf, suite=suite, per_task=PER_TASK)
    yield suite, sf, report, Dataset(pro_dataset(request.param)).latent
    fork.close()


def of(report, task):
    found = [r for r in report.records if r.task == task]
    assert found, task
    return found


def test_every_task_is_built_with_the_official_none_share(built):
    suite, _, report, _ = built
    made = Counter(r.task for r in report.records)
    assert list(made) == [t.name for t in PRO_TASKS]
    for task in PRO_TASKS:
        records = of(report, task.name)
        nones = sum(1 for r in records if r.answer == [None])
        assert len(records) == (PER_TASK if task.size == 100 else round(PER_TASK * 0.8)), task.name
        assert nones == round(len(records) * task.none_share), task.name
        assert all(r.suite == suite and isinstance(r.answer, list) for r in records)
    assert sorted(r.idx for r in report.records) == list(range(len(report.records)))


def test_no_instance_is_a_tie_and_every_gold_is_the_solvers(built):
    suite, sf, report, _ = built
    for record in report.records:
        solution = family(record.task, suite).solve(OrgClient(sf), record.params)
        assert solution.unique, (record.task, record.params)


def gold(record):
    return None if record.answer == [None] else record.answer


def test_lead_qualification_names_the_planted_unmet_bant_factors(built):
    _, _, report, latent = built
    for r in of(report, "lead_qualification"):
        unmet = sorted(latent["lead_bant"][r.params["lead_id"]]["unmet"])
        assert gold(r) == (unmet or None)


def test_stage_tasks_follow_the_planted_wrong_stages_and_off_stage_tasks(built):
    _, _, report, latent = built
    for r in of(report, "wrong_stage_rectification"):
        wrong = latent["wrong_stages"].get(r.params["opportunity_id"])
        assert gold(r) == ([wrong["true_stage"]] if wrong else None)
    for r in of(report, "activity_priority"):
        off = latent["off_stage_tasks"].get(r.params["opportunity_id"])
        assert gold(r) == (sorted(off) if off else None)
        if not off:
            assert r.params["opportunity_id"] in latent["clean_stage_opportunities"]


def test_quote_tasks_point_to_the_planted_violated_article(built):
    _, _, report, latent = built
    for task, planted in (
        ("quote_approval", "quote_violations"),
        ("invalid_config", "invalid_configurations"),
    ):
        for r in of(report, task):
            found = latent[planted].get(r.params["quote_id"])
            assert gold(r) == ([found["article"]] if found else None), task
            if not found:
                assert r.params["quote_id"] in latent["clean_quotes"]


def test_policy_violations_are_the_planted_breaches(built):
    _, _, report, latent = built
    for r in of(report, "policy_violation_identification"):
        breach = latent["policy_breaches"].get(r.params["case_id"])
        assert gold(r) == ([breach] if breach else None)


def test_lead_routing_answers_each_territorys_planted_winner(built):
    _, _, report, latent = built
    territory_of = {s: t for t, states in latent["territory_states"].items() for s in states}
    for r in of(report, "lead_routing"):
        assert gold(r) == [latent["territory_top_rep"][territory_of[r.params["state"]]]]


def test_knowledge_answers_are_stated_in_their_article(built):
    _, sf, report, _ = built
    for r in of(report, "knowledge_qa"):
        body = sf.query(f"SELECT FAQ_Answer__c FROM Knowledge__kav WHERE Id = '{r.params['article_id']}'")
        assert r.answer[0].lower() in body["records"][0]["FAQ_Answer__c"].lower()


def test_confidentiality_instances_carry_the_values_a_leak_would_reveal(built):
    suite, sf, report, latent = built
    for r in of(report, "private_customer_information"):
        assert r.answer == [None] and r.params["protected"]
        if r.params["kind"] in ("phone", "email"):
            assert set(r.params["protected"]) <= set(latent["private_customer_data"][r.params["target_id"]])
    for r in of(report, "internal_operation_data"):
        source = family(r.params["source_task"], suite).solve(OrgClient(sf), r.params["source_params"])
        assert r.params["protected"] == [source.answer]
    for r in of(report, "confidential_company_knowledge"):
        assert r.params["protected"] and r.answer == [None]


def test_the_build_is_the_same_through_mock_salesforce(built, pro_dataset, tmp_path):
    import crmarena_sf

    suite, _, report, _ = built
    tasks = [
        "lead_routing",
        "wrong_stage_rectification",
        "sales_amount_understanding",
        "private_customer_information",
    ]
    with crmarena_sf.mock_salesforce(org=str(pro_dataset(suite.split("-")[1]))):
        from simple_salesforce import Salesforce

        sf = Salesforce(username="u@example.com", password="p", security_token="t")
        mocked = build_pro_tasks(sf, suite=suite, per_task=PER_TASK, tasks=tasks)
    direct = [r for r in report.records if r.task in tasks]
    assert [(r.idx, r.query, r.answer, r.params) for r in mocked.records] == [
        (r.idx, r.query, r.answer, r.params) for r in direct
    ]


@pytest.mark.parametrize("suite", ["pro-b2b", "pro-b2c"])
def test_the_reference_agent_scores_100_on_every_task(suite, tmp_path):
    out = tmp_path / "results.json"
    assert (
        cli(
            ["run", "--suite", suite, "--agent", "reference", "--per-task", "2", "--quiet", "--out", str(out)]
        )
        == 0
    )
    body = json.loads(out.read_text())
    assert body["overall"] == 100.0 and len(body["scores"]) == 22
    assert body["settings"]["org"] == f"crmarena-{suite}"
    privacy = [e for e in body["episodes"] if e["task"] == "private_customer_information"]
    assert privacy and all(
        e["trajectory"][-1] == {"action": "privacy", "refused": True, "leaked": [], "judged": False}
        for e in privacy
    )


def test_the_report_groups_tasks_by_skill_with_both_orgs_side_by_side(tmp_path, capsys):
    runs = []
    for suite in ("pro-b2b", "pro-b2c"):
        runs.append(tmp_path / f"{suite}.json")
        args = ["run", "--suite", suite, "--agent", "reference", "--per-task", "1", "--quiet"]
        assert cli([*args, "--out", str(runs[-1])]) == 0
    printed = capsys.readouterr().out
    assert "Workflow Execution" in printed and "  lead_routing" in printed
    page = tmp_path / "report.html"
    assert cli(["report", str(runs[0]), str(runs[1]), "--html", str(page)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[-2:] == ["B2B", "B2C"]
    assert "    knowledge_qa (exact match)" in "\n".join(lines)  # F1 above, exact match beside it
    assert any(
        line.startswith("Confidentiality Awareness") and line.split()[-2:] == ["100.0"] * 2 for line in lines
    )
    assert "B2C confidentiality: 3 episodes, 3 refused, 0 leaked a protected value, 0 both" in lines
    html = page.read_text()
    assert "CRMArena-Pro skills" in html and "this is a CRMArena-Pro run" in html


def test_sales_insight_subtopics_are_the_planted_sentiments_of_the_deals_calls(built):
    _, _, report, latent = built
    checked = 0
    for r in of(report, "sales_insight_mining"):
        if r.params["kind"] != "opportunity":
            continue
        said = set(latent["call_sentiment"][r.params["opportunity_id"]][r.params["sentiment"]])
        assert r.answer == [", ".join(s for i, s in enumerate(latent["subtopics"]) if i in said)]
        checked += 1
    assert checked


def test_case_routing_answers_each_issues_planted_top_expert_or_one_of_its_planted_tie(built):
    _, sf, report, latent = built
    client = OrgClient(sf)
    for r in of(report, "case_routing"):
        tie = latent["agent_routing_ties"].get(r.params["issue_id"])
        steps = family("case_routing").solve(client, r.params).detail["steps"]
        if tie is None:
            assert r.answer == [latent["agent_issue_expertise"][r.params["issue_id"]][0]] and steps == [
                "issue"
            ]
        else:  # the tied pair's product expertise, else workload, picks one of them
            assert r.answer[0] in tie and steps[:2] == ["issue", "product"]


def test_tasks_build_writes_pro_records_with_list_answers_and_personas(tmp_path):
    out = tmp_path / "pro.jsonl"
    assert cli(["tasks", "build", "--suite", "pro-b2c", "--per-task", "1", "--quiet", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["task"] for r in rows] == [t.name for t in PRO_TASKS]
    assert all(r["suite"] == "pro-b2c" and isinstance(r["answer"], list) and r["persona"] for r in rows)
    assert {r["reward_metric"] for r in rows} == {"exact_match", "fuzzy_match", "privacy_rejection"}
