"""Rewards with CRMArena v1 semantics and the leaderboard's aggregation (arXiv 2411.02305; CRMArena env.py at a0f1a98)."""

from __future__ import annotations

import pytest
from crmarena_sf.tasks.results import EpisodeResult, Results
from crmarena_sf.tasks.scoring import exact_match, normalize_answer, overall, reward, task_scores, token_f1


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("005Ws000001xSR9IAM", "005Ws000001xSR9IAM"),
        ("  005ws000001xsr9iam\n", "005Ws000001xSR9IAM"),  # case and whitespace do not matter
        ("'March'", "March"),
        ('"GA"', "GA"),
        ("None", None),  # a null gold answer is the string "None"
        ("none", None),
        (None, None),
        ("null", None),
    ],
)
def test_exact_match_normalises_case_whitespace_quotes_and_none(answer, gold):
    assert exact_match(answer, gold) == 1.0


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("The answer is March", "March"),  # v1 exact match does not extract answers from sentences
        ("GA, OR", "GA"),
        ("None", "GA"),
        ("GA", None),
        ("", "GA"),
    ],
)
def test_exact_match_refuses_anything_else(answer, gold):
    assert exact_match(answer, gold) == 0.0


def test_token_f1_follows_crmarenas_normalize_answer():
    assert normalize_answer("The 90_days, period!") == "90 days period"
    assert token_f1("90 days.", "90 days.") == 1.0
    assert token_f1("Within 90 days", "90 days.") == pytest.approx(0.8)  # P 2/3, R 1
    assert token_f1("a refund", "store credit") == 0.0
    assert token_f1("", "") == 1.0 and token_f1("", "x") == 0.0


def test_reward_dispatches_on_the_metric():
    assert reward("exact_match", "OR", "or") == 1.0
    assert reward("fuzzy_match", "in 30 days", "30 days from delivery.") == pytest.approx(
        2 * 0.5 * 2 / 3 / (0.5 + 2 / 3)
    )
    with pytest.raises(ValueError, match="unknown reward metric"):
        reward("bleu", "x", "x")


def test_a_task_score_is_the_mean_reward_times_100_and_overall_the_unweighted_mean():
    scores = task_scores([("a", 1.0), ("a", 0.0), ("a", 1.0), ("a", 1.0), ("b", 0.5)])
    assert scores == {"a": 75.0, "b": 50.0}
    assert overall(scores) == 62.5
    # The leaderboard's gpt-4o function-calling row: 489.6 / 9 = 54.4.
    leaderboard = [60.0, 47.7, 81.5, 46.2, 39.2, 30.4, 97.7, 27.7, 59.2]
    assert overall({str(i): s for i, s in enumerate(leaderboard)}) == 54.4


def test_results_json_orders_tasks_as_crmarena_and_keeps_errors():
    results = Results(
        {"agent": "x"},
        [
            EpisodeResult(1040, "best_region_identification", "GA", "GA", 1.0),
            EpisodeResult(0, "knowledge_qa", None, "90 days.", 0.0, [], "TimeoutError: model did not answer"),
        ],
    )
    body = results.to_json()
    assert list(body["scores"]) == ["knowledge_qa", "best_region_identification"]
    assert body["overall"] == 50.0 and body["counts"] == {"knowledge_qa": 1, "best_region_identification": 1}
    assert [e["idx"] for e in body["episodes"]] == [0, 1040]
    assert body["episodes"][0]["error"].startswith("TimeoutError") and "error" not in body["episodes"][1]
    assert "1 episode failed" in results.table()
