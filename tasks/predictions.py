"""Scoring a file of predicted queries without running an agent (``crmarena-sf soql-eval``).

A predictions file is JSON Lines of ``{"idx": N, "soql": "SELECT ..."}``, one per task, as any
external system writes it. Each prediction is scored exactly as an agent's answer would be
(:class:`PredictionAgent` answers with it): on its own fork of the org, with the task's clock,
by execution against the gold query. A line with another key (``query`` for ``soql``, say)
is refused with its line number rather than read as no prediction; a task without a
prediction scores 0, and ``soql-eval`` says how many there were.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from crmarena_sf.tasks.agents.base import EpisodeOutcome
from crmarena_sf.tasks.records import TaskFileError, TaskRecord, not_json

SHAPE = '{"idx": <task idx>, "soql": "<query>"}'


def load_predictions(path: str | Path, tasks: list[TaskRecord]) -> dict[int, str]:
    """idx -> predicted query; TaskFileError names the line that is wrong."""
    path = Path(path)
    known = {t.idx for t in tasks}
    out: dict[int, str] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise TaskFileError(f"{path}: not a UTF-8 text file") from None
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path} line {n}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TaskFileError(f"{where}: {not_json(exc)}") from None
        if (
            not isinstance(raw, dict)
            or not isinstance(raw.get("idx"), int)
            or isinstance(raw.get("idx"), bool)
        ):
            raise TaskFileError(f"{where}: expected {SHAPE}")
        unknown = [key for key in raw if key not in ("idx", "soql")]
        if unknown:
            raise TaskFileError(f"{where}: unknown key {unknown[0]!r}; a prediction is {SHAPE}")
        if "soql" not in raw:
            raise TaskFileError(f"{where}: no 'soql'; a prediction is {SHAPE}")
        if not isinstance(raw["soql"], str | None):
            raise TaskFileError(f"{where}: soql must be a string")
        if raw["idx"] not in known:
            raise TaskFileError(f"{where}: idx {raw['idx']} is not a task of the task set")
        if raw["idx"] in out:
            raise TaskFileError(f"{where}: a second prediction for idx {raw['idx']}")
        out[raw["idx"]] = raw.get("soql") or ""
    if not out:
        raise TaskFileError(f"{path}: no predictions")
    return out


class PredictionAgent:
    """Answers each task with the prediction given for it (no prediction: no answer)."""

    name = "predictions"

    def __init__(self, predictions: dict[int, str], source: str = "") -> None:
        self.predictions, self.source = predictions, source

    def settings(self) -> dict[str, Any]:
        return {"agent": self.name, "predictions": self.source}

    def run(self, task: TaskRecord, sf: Any) -> EpisodeOutcome:
        query = self.predictions.get(task.idx)
        return EpisodeOutcome(query, [{"action": "respond", "content": query}])
