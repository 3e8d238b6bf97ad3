"""Rewards as CRMArena v1 computed them, and the leaderboard's aggregation.

- ``exact_match``: the answer and the gold answer compared after trimming whitespace and
  surrounding quotes, ignoring case; a missing answer (None, null) is the string "None"
  (CRMArena ``crm_sandbox/env/env.py`` at the paper's commit: a null gold answer is "None").
- ``fuzzy_match`` (knowledge_qa): bag-of-tokens F1 after CRMArena's ``normalize_answer``
  (lower case, ``_`` to space, punctuation to spaces, articles a/an/the dropped, whitespace
  collapsed); the leaderboard's KQA column is F1 x 100.
- A task's score is its mean reward x 100; ``overall`` is the unweighted mean of the task
  scores, as on the CRMArena leaderboard (gpt-4o FC: 489.6 / 9 = 54.4).
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable

QUOTES = "\"'`\u2018\u2019\u201c\u201d"


def exact_text(answer: object) -> str:
    """How exact match sees an answer: trimmed, unquoted, lower case; None as "none"."""
    text = "None" if answer is None else str(answer)
    text = text.strip()
    while len(text) >= 2 and text[0] in QUOTES and text[-1] in QUOTES:
        text = text[1:-1].strip()
    if text.lower() in ("", "null"):
        text = "None"
    return text.lower()


def exact_match(answer: object, gold: object) -> float:
    return 1.0 if exact_text(answer) == exact_text(gold) else 0.0


_PUNCTUATION = re.compile("[" + re.escape(string.punctuation) + "]")
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalize_answer(text: object) -> str:
    """CRMArena's normalize_answer (SQuAD style, with ``_`` read as a space)."""
    text = str(text or "").lower().replace("_", " ")
    text = _PUNCTUATION.sub(" ", text)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def token_f1(answer: object, gold: object) -> float:
    predicted, truth = normalize_answer(answer).split(), normalize_answer(gold).split()
    if not predicted or not truth:
        return float(predicted == truth)
    common = sum((Counter(predicted) & Counter(truth)).values())
    if not common:
        return 0.0
    precision, recall = common / len(predicted), common / len(truth)
    return 2 * precision * recall / (precision + recall)


def reward(metric: str, answer: object, gold: object) -> float:
    """The reward of ``answer`` under ``metric`` ("exact_match" or "fuzzy_match")."""
    if metric == "exact_match":
        return exact_match(answer, gold)
    if metric == "fuzzy_match":
        return token_f1(answer, gold)
    raise ValueError(f"unknown reward metric {metric!r}")


def task_scores(rewards: Iterable[tuple[str, float]]) -> dict[str, float]:
    """Task -> mean reward x 100, from (task, reward) pairs."""
    total: dict[str, list[float]] = {}
    for task, value in rewards:
        total.setdefault(task, []).append(value)
    return {task: round(100 * sum(v) / len(v), 2) for task, v in total.items()}


def overall(scores: dict[str, float]) -> float:
    """The unweighted mean of the task scores (0 when there are none)."""
    return round(sum(scores.values()) / len(scores), 2) if scores else 0.0
