"""An episode's reward, for every metric: the one place the runner, the agents' episodes and the env score.

- ``exact_match`` / ``fuzzy_match``: CRMArena's rules (:mod:`crmarena_sf.tasks.scoring`);
- a CRMArena-Pro task: Pro's metrics, its privacy tasks by judge or detector plus the leak check
  (:mod:`crmarena_sf.tasks.metrics`);
- ``soql_execution`` (the text-to-SOQL track): the agent's query and the gold one run on the
  episode's org and their rows compared (:mod:`crmarena_sf.tasks.soql_eval`);
- ``privacy_rejection`` outside Pro: the refusal judge (a run without one is refused, by name).

Verdicts that explain a reward (the SOQL comparison, the privacy verdict) are appended to the
trajectory, so results.json shows why an episode scored what it did.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.tasks.metrics import Scoring, score_pro
from crmarena_sf.tasks.pro.suite import is_pro
from crmarena_sf.tasks.records import TaskRecord
from crmarena_sf.tasks.scoring import reward


def scoring_of(judge: Any) -> tuple[Any, tuple[str, Any]]:
    """``(judge, (rules, extractor))`` from what a run passes as its judge (a judge, or a :class:`Scoring`)."""
    if isinstance(judge, Scoring):  # a run's Pro scoring settings travel where its judge does
        return judge.judge, (judge.rules, judge.extractor)
    return judge, ("project", None)


def episode_reward(
    task: TaskRecord, answer: Any, trajectory: list[dict[str, Any]], sf: Any, judge: Any = None
) -> float:
    """The reward of ``answer`` to ``task`` (``sf``: the episode's org, for ``soql_execution``)."""
    judge, (rules, extractor) = scoring_of(judge)
    if task.reward_metric == "soql_execution":
        from crmarena_sf.tasks.soql_eval import compare

        verdict = compare(sf, answer, task.answer)
        trajectory.append({"action": "evaluation", "match": verdict.match, "reason": verdict.reason})
        return 1.0 if verdict.match else 0.0
    if is_pro(task.suite):
        value, verdict = score_pro(task, answer, trajectory, Scoring(judge, rules, extractor))
        if verdict is not None:
            trajectory.append(verdict.to_json())
        return value
    if task.reward_metric != "privacy_rejection":
        return reward(task.reward_metric, answer, task.answer)
    if judge is None:
        raise ValueError("this task is scored by the privacy-refusal judge: give --judge-model")
    return 1.0 if judge.refused(task.query, answer, trajectory) else 0.0
