"""``results.json``: the contract between the runner, the report and any outside analysis.

``{overall, scores: {task: 0-100}, counts: {task: episodes}, settings: {...}, episodes:
[{idx, task, answer, gold, reward, trajectory, error?}]}``, with tasks in CRMArena's order.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tasks.families import FAMILIES
from tasks.scoring import overall, task_scores


@dataclass
class EpisodeResult:
    idx: int
    task: str
    answer: str | None
    gold: str | None
    reward: float
    trajectory: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    turns: int | None = None
    usage: dict[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        out = {
            "idx": self.idx,
            "task": self.task,
            "answer": self.answer,
            "gold": self.gold,
            "reward": self.reward,
            "trajectory": self.trajectory,
        }
        for key in ("error", "turns", "usage"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> EpisodeResult:
        return cls(
            raw["idx"],
            raw["task"],
            raw.get("answer"),
            raw.get("gold"),
            float(raw["reward"]),
            raw.get("trajectory") or [],
            raw.get("error"),
            raw.get("turns"),
            raw.get("usage"),
        )


@dataclass
class Results:
    settings: dict[str, Any]
    episodes: list[EpisodeResult]

    @property
    def scores(self) -> dict[str, float]:
        raw = task_scores((e.task, e.reward) for e in sorted(self.episodes, key=lambda e: e.idx))
        return {task: raw[task] for task in FAMILIES if task in raw}

    @property
    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.episodes:
            out[e.task] = out.get(e.task, 0) + 1
        return {task: out[task] for task in FAMILIES if task in out}

    @property
    def overall(self) -> float:
        return overall(self.scores)

    @property
    def usage(self) -> dict[str, Any] | None:
        """Prompt and completion tokens in total and per task (None when no episode used a model)."""
        used = [e for e in self.episodes if e.usage]
        if not used:
            return None
        by_task: dict[str, dict[str, int]] = {}
        for e in sorted(used, key=lambda e: e.idx):
            sums = by_task.setdefault(e.task, {"prompt_tokens": 0, "completion_tokens": 0})
            for key in sums:
                sums[key] += e.usage.get(key, 0)
        return {
            "prompt_tokens": sum(t["prompt_tokens"] for t in by_task.values()),
            "completion_tokens": sum(t["completion_tokens"] for t in by_task.values()),
            "by_task": {task: by_task[task] for task in FAMILIES if task in by_task},
        }

    def to_json(self) -> dict[str, Any]:
        out = {
            "overall": self.overall,
            "scores": self.scores,
            "counts": self.counts,
            "settings": self.settings,
        }
        if self.usage is not None:
            out["usage"] = self.usage
        out["episodes"] = [e.to_json() for e in sorted(self.episodes, key=lambda e: e.idx)]
        return out

    def write(self, path: str | Path) -> Path:
        """Write results.json atomically (an interrupted write leaves the old file, or none)."""
        path = Path(path)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        return path

    def table(self) -> str:
        """The per-task table the CLI prints: task, episodes, score, then the overall mean."""
        scores, counts = self.scores, self.counts
        width = max([len(t) for t in scores] + [len("overall")])
        lines = [f"{'task':<{width}}  {'episodes':>8}  {'score':>6}"]
        lines += [f"{t:<{width}}  {counts[t]:>8}  {scores[t]:>6.1f}" for t in scores]
        lines.append(f"{'overall':<{width}}  {sum(counts.values()):>8}  {self.overall:>6.1f}")
        errors = sum(1 for e in self.episodes if e.error)
        if errors:
            lines.append(
                f"({errors} episode{'s' if errors != 1 else ''} failed with an error; see results.json)"
            )
        return "\n".join(lines)
