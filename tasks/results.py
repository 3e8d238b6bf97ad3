"""``results.json``: the contract between the runner, the report and any outside analysis.

``{overall, scores: {task: 0-100}, counts: {task: episodes}, baselines: {always_none:
{overall, scores}}, settings: {...}, unscored?, episodes: [{idx, task, question, answer, gold,
reward, trajectory, error?, scored?, cause?}]}``, with tasks in CRMArena's order. Settings
that do not apply to a run (no base URL, no limit) are left out rather than written as null.

``baselines`` puts the run beside the score of a trivial agent on the same episodes:
``always_none`` answers "None" to every question (a fifth or more of CRMArena's answers are
None by design, so it scores well above 0; a run below it has learnt nothing).

An episode is either scored (its reward counts, also when the agent failed with an error) or
not: ``"scored": false`` marks one that ended on a failure of the machinery around the agent,
which says nothing about the agent; ``"cause"`` says which (:data:`UNSCORED_CAUSES`: the
emulator answered a server error, or the model endpoint failed after the client's retries).
Unscored episodes stay out of the scores and counts, are counted under ``unscored``, are named
apart under the table, and run again on resume.
``read_results`` loads one back (scores are recomputed from the episodes, as the runner
computed them); keys it does not model (an LLM agent's ``usage``, ``turns``) stay in the raw
JSON it also returns.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crmarena_sf.tasks.families import ALL_FAMILIES
from crmarena_sf.tasks.metrics import reward as metric_reward
from crmarena_sf.tasks.scoring import overall, task_scores

UNSCORED_CAUSES = {
    "emulator": "the emulator failed",
    "model_endpoint": "the model endpoint failed",
    "infrastructure": "the machinery around the agent failed",
}
"""Why an episode is not scored -> how the table and the report say it."""


class ResultsFileError(ValueError):
    """A file that is not a usable results.json; the message names the file and what is wrong."""


BASELINES = {"always_none": "always None"}
"""Trivial agents scored beside a run -> their name in the table and the report."""


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
    scored: bool = True
    """False when the episode ended on a failure outside the agent (see the module docstring)."""
    cause: str | None = None
    """Why an unscored episode is not scored: a key of :data:`UNSCORED_CAUSES`."""
    question: str | None = None
    """The task's question, as the agent was asked it."""
    trial: int = 0
    """Which of a run's ``--trials`` this episode is (0 for a run of one trial)."""
    end_reason: str | None = None
    """Why the episode ended (:data:`crmarena_sf.tasks.episode.END_REASONS`)."""
    user_usage: dict[str, int] | None = None
    """An LLM user's tokens, apart from the agent's ``usage``."""

    @property
    def key(self) -> tuple[int, int]:
        """What names an episode in a run: its task's idx and its trial."""
        return self.idx, self.trial

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"idx": self.idx, "task": self.task}
        if self.question is not None:
            out["question"] = self.question
        out |= {
            "answer": self.answer,
            "gold": self.gold,
            "reward": self.reward,
            "trajectory": self.trajectory,
        }
        for key in ("error", "turns", "usage", "end_reason", "user_usage"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.trial:
            out["trial"] = self.trial
        if not self.scored:
            out["scored"] = False
            out["cause"] = self.cause or "emulator"
        return out

    @classmethod
    def from_json(cls, raw: Any, where: str = "episode") -> EpisodeResult:
        """An episode from its JSON object; ResultsFileError says what is missing or wrong."""
        return _episode_from_json(raw, where)


@dataclass
class Results:
    settings: dict[str, Any]
    episodes: list[EpisodeResult]

    @classmethod
    def from_json(cls, data: Any, where: str = "results") -> Results:
        """Results from a results.json object; ResultsFileError says what is missing or wrong."""
        if not isinstance(data, dict):
            raise ResultsFileError(
                f"{where}: not a results file: expected a JSON object with 'settings' and 'episodes', "
                f"got a {_json_type(data)}"
            )
        missing = [key for key in ("settings", "episodes") if key not in data]
        if missing:
            raise ResultsFileError(
                f"{where}: not a results file: missing {' and '.join(repr(k) for k in missing)}"
            )
        if not isinstance(data["settings"], dict):
            raise ResultsFileError(
                f"{where}: 'settings' must be an object, not a {_json_type(data['settings'])}"
            )
        if not isinstance(data["episodes"], list):
            raise ResultsFileError(
                f"{where}: 'episodes' must be a list, not a {_json_type(data['episodes'])}"
            )
        if not data["episodes"]:
            raise ResultsFileError(f"{where}: no episodes")
        episodes = [
            _episode_from_json(raw, f"{where} episode {n + 1}") for n, raw in enumerate(data["episodes"])
        ]
        seen: set[tuple[int, int]] = set()
        for episode in episodes:
            if episode.key in seen:
                trial = f" (trial {episode.trial})" if episode.trial else ""
                raise ResultsFileError(f"{where}: idx {episode.idx}{trial} appears twice")
            seen.add(episode.key)
        return cls(dict(data["settings"]), episodes)

    @property
    def scored(self) -> list[EpisodeResult]:
        """The episodes whose reward counts, in idx order."""
        return [e for e in sorted(self.episodes, key=lambda e: e.key) if e.scored]

    @property
    def unscored(self) -> list[EpisodeResult]:
        """The episodes a failure outside the agent ended (not in any score; a resume runs them again)."""
        return [e for e in sorted(self.episodes, key=lambda e: e.key) if not e.scored]

    @property
    def scores(self) -> dict[str, float]:
        raw = task_scores((e.task, e.reward) for e in self.scored)
        return {task: raw[task] for task in ALL_FAMILIES if task in raw}

    @property
    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.scored:
            out[e.task] = out.get(e.task, 0) + 1
        return {task: out[task] for task in ALL_FAMILIES if task in out}

    @property
    def overall(self) -> float:
        return overall(self.scores)

    @property
    def baselines(self) -> dict[str, dict[str, Any]]:
        """The trivial agents of :data:`BASELINES` scored on this run's scored episodes, as the run is."""
        rewards = []
        for e in self.scored:
            metric = ALL_FAMILIES[e.task].METRIC
            if metric in ("exact_match", "fuzzy_match"):  # a Pro gold is a list: its None reply is "None"
                reply = "None" if isinstance(e.gold, list) else None
                rewards.append((e.task, metric_reward(metric, reply, e.gold, e.task)))
            elif metric == "soql_execution":
                rewards.append((e.task, 0.0))  # no query matches no gold query
        raw = task_scores(rewards)
        scores = {task: raw[task] for task in ALL_FAMILIES if task in raw}
        return {"always_none": {"overall": overall(scores), "scores": scores}}

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
            "by_task": {task: by_task[task] for task in ALL_FAMILIES if task in by_task},
        }

    @property
    def trials(self) -> int:
        """How many trials of each task the run holds (``--trials``; 1 for most runs)."""
        return 1 + max((e.trial for e in self.episodes), default=0)

    @property
    def pass_k(self) -> dict[str, dict[str, float]] | None:
        """pass^1..pass^k per task and overall (:mod:`crmarena_sf.tasks.pass_k`); None for a run of one trial."""
        if self.trials < 2:
            return None
        from crmarena_sf.tasks.pass_k import pass_k

        return pass_k(self.episodes, self.trials)

    @property
    def end_reasons(self) -> dict[str, int] | None:
        """How many episodes ended for each reason (None when no episode recorded one)."""
        out: dict[str, int] = {}
        for e in self.episodes:
            if e.end_reason:
                out[e.end_reason] = out.get(e.end_reason, 0) + 1
        return out or None

    @property
    def user_usage(self) -> dict[str, int] | None:
        """An LLM user's tokens over the run, apart from the agent's (None without one)."""
        used = [e.user_usage for e in self.episodes if e.user_usage]
        if not used:
            return None
        return {k: sum(u.get(k, 0) for u in used) for k in ("prompt_tokens", "completion_tokens")}

    def to_json(self) -> dict[str, Any]:
        out = {
            "overall": self.overall,
            "scores": self.scores,
            "counts": self.counts,
            "baselines": self.baselines,
            "settings": {key: value for key, value in self.settings.items() if value is not None},
        }
        if self.usage is not None:
            out["usage"] = self.usage
        for key in ("user_usage", "pass_k", "end_reasons"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.unscored:
            out["unscored"] = len(self.unscored)
        out["episodes"] = [e.to_json() for e in sorted(self.episodes, key=lambda e: e.key)]
        return out

    def write(self, path: str | Path) -> Path:
        """Write results.json atomically (an interrupted write leaves the old file, or none)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        return path

    def unscored_by_cause(self) -> dict[str, list[EpisodeResult]]:
        """Unscored episodes grouped by cause, in :data:`UNSCORED_CAUSES` order."""
        groups: dict[str, list[EpisodeResult]] = {}
        for episode in self.unscored:
            groups.setdefault(episode.cause or "emulator", []).append(episode)
        order = list(UNSCORED_CAUSES)
        return dict(
            sorted(groups.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order))
        )

    def table(self) -> str:
        """The per-task table the CLI prints: task, episodes, score and the "always None" baseline, then the overall mean."""
        scores, counts = self.scores, self.counts
        none = self.baselines["always_none"]
        width = max([len(t) for t in scores] + [len("overall")])
        lines = [f"{'task':<{width}}  {'episodes':>8}  {'score':>6}  {'always None':>11}"]
        lines += [
            f"{t:<{width}}  {counts[t]:>8}  {scores[t]:>6.1f}  {_cell(none['scores'].get(t)):>11}"
            for t in scores
        ]
        lines.append(
            f"{'overall':<{width}}  {sum(counts.values()):>8}  {self.overall:>6.1f}  {none['overall']:>11.1f}"
        )
        errors = sum(1 for e in self.scored if e.error)
        if errors:
            lines.append(
                f"({errors} episode{'s' if errors != 1 else ''} failed with an error; see results.json)"
            )
        for episodes in self.unscored_by_cause().values():
            n = len(episodes)
            lines.append(
                f"({n} episode{'s' if n != 1 else ''} not scored: {episodes[0].error}; "
                "the same command runs them again)"
            )
        return "\n".join(lines)


def read_results(path: str | Path) -> tuple[Results, dict[str, Any]]:
    """The results in ``path`` and the file's JSON object as read (for keys Results does not model).

    A missing or unreadable file raises the OSError; anything else unusable, ResultsFileError.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ResultsFileError(f"{path}: not a UTF-8 text file") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ResultsFileError(
            f"{path} line {exc.lineno}: not JSON ({exc.msg}: column {exc.colno})"
        ) from None
    return Results.from_json(data, str(path)), data


def _episode_from_json(raw: Any, where: str) -> EpisodeResult:
    if not isinstance(raw, dict):
        raise ResultsFileError(f"{where}: expected an object, got a {_json_type(raw)}")
    missing = [key for key in ("idx", "task", "reward") if key not in raw]
    if missing:
        raise ResultsFileError(f"{where}: missing {' and '.join(repr(k) for k in missing)}")
    idx, task, value = raw["idx"], raw["task"], raw["reward"]
    if not isinstance(idx, int) or isinstance(idx, bool):
        raise ResultsFileError(f"{where}: idx must be a whole number, not {idx!r}")
    if task not in ALL_FAMILIES:
        raise ResultsFileError(f"{where}: unknown task {task!r}; expected one of {', '.join(ALL_FAMILIES)}")
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 1:
        raise ResultsFileError(f"{where}: reward must be a number from 0 to 1, not {value!r}")
    trajectory = raw.get("trajectory") or []
    if not isinstance(trajectory, list):
        raise ResultsFileError(f"{where}: trajectory must be a list, not a {_json_type(trajectory)}")
    error, turns, usage = raw.get("error"), raw.get("turns"), raw.get("usage")
    scored = raw.get("scored", True)
    if not isinstance(scored, bool):
        raise ResultsFileError(f"{where}: scored must be true or false, not {scored!r}")
    cause = raw.get("cause")
    if cause is not None and cause not in UNSCORED_CAUSES:
        raise ResultsFileError(f"{where}: cause must be one of {', '.join(UNSCORED_CAUSES)}, not {cause!r}")
    question = raw.get("question")
    trial = raw.get("trial", 0)
    if not isinstance(trial, int) or isinstance(trial, bool) or trial < 0:
        raise ResultsFileError(f"{where}: trial must be a whole number from 0, not {trial!r}")
    end_reason, user_usage = raw.get("end_reason"), raw.get("user_usage")
    return EpisodeResult(
        idx=idx,
        task=task,
        question=question if isinstance(question, str) else None,
        answer=_text_or_none(raw.get("answer")),
        gold=_text_or_none(raw.get("gold")),
        reward=float(value),
        trajectory=trajectory,
        error=None if error is None else str(error),
        turns=turns if isinstance(turns, int) and not isinstance(turns, bool) else None,
        usage=usage if isinstance(usage, dict) else None,
        scored=scored,
        cause=None if scored else cause or "emulator",
        trial=trial,
        end_reason=end_reason if isinstance(end_reason, str) else None,
        user_usage=user_usage if isinstance(user_usage, dict) else None,
    )


def _text_or_none(value: Any) -> str | None:
    return value if value is None or isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _json_type(value: Any) -> str:
    """A Python value's JSON type name, for messages about a file's content."""
    if isinstance(value, dict):
        return "JSON object"
    if isinstance(value, list):
        return "list"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "null"


def _cell(score: float | None) -> str:
    """A baseline's score, or "-" for a task it does not apply to (privacy_rejection)."""
    return "-" if score is None else f"{score:.1f}"
