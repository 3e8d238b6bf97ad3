"""The episode log: one JSON line per finished episode, so an interrupted run resumes where it stopped.

``results.json`` is written at the end; ``results.episodes.jsonl`` beside it grows as episodes
finish (each line flushed at once, synced to the disk at least every second). Its first line says which run it belongs to (agent
settings, a digest of the agent's code and prompts, backend, org and a digest of the task set);
running the same command again skips the episodes it holds. A log of another run is refused,
not mixed in, and the refusal names what differs: ``fresh=True`` starts over. A line cut short
by a kill is ignored (that episode runs again).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from crmarena_sf.tasks.records import TaskRecord
from crmarena_sf.tasks.results import EpisodeResult

KIND = "crmarena-sf episode log"
SYNC_SECONDS = 1.0
"""At most this long between syncs of the log to the disk (each line is flushed at once)."""


class EpisodeLogMismatch(ValueError):
    """The log beside --out belongs to another run."""


def log_path(results_path: str | Path) -> Path:
    path = Path(results_path)
    return path.with_name(path.stem + ".episodes.jsonl")


def tasks_digest(tasks: list[TaskRecord]) -> str:
    digest = hashlib.sha256()
    for task in sorted(tasks, key=lambda t: t.idx):
        digest.update(json.dumps([task.idx, task.task, task.query, task.answer], ensure_ascii=False).encode())
    return digest.hexdigest()[:16]


class EpisodeLog:
    def __init__(self, path: str | Path, run: dict[str, Any]) -> None:
        self.path = Path(path)
        self.run = run
        self._file = None
        self._synced = 0.0

    def read(self) -> dict[tuple[int, int], EpisodeResult]:
        """The finished episodes the log holds (none without a log); EpisodeLogMismatch for another run's log.

        An unscored episode (``EpisodeResult.scored`` false: a failure outside the agent) is not
        finished: it runs again, and its new line supersedes the old one (the last line of an idx and trial counts).
        """
        if not self.path.exists():
            return {}
        if not self.path.is_file():
            raise EpisodeLogMismatch(f"{self.path} is not a file; move it away or choose another --out")
        lines = self.path.read_text(encoding="utf-8").splitlines()
        header = _parse(lines[0]) if lines else None
        if not header or header.get("kind") != KIND:
            raise EpisodeLogMismatch(
                f"{self.path} is not an episode log; move it away or choose another --out"
            )
        if header.get("run") != self.run:
            raise EpisodeLogMismatch(
                f"{self.path} holds episodes of another run ({_differences(header.get('run'), self.run)}); "
                "use --fresh to start over, or another --out"
            )
        done: dict[tuple[int, int], EpisodeResult] = {}
        for line in lines[1:]:
            raw = _parse(line)
            if raw is not None:
                result = EpisodeResult.from_json(raw)
                done[result.key] = result
        return {key: result for key, result in done.items() if result.scored}

    def open(self, fresh: bool = False) -> dict[tuple[int, int], EpisodeResult]:
        """Episodes already done (empty for a new or ``fresh`` log); the log is then ready to append."""
        if self.path.exists() and not fresh:
            done = self.read()
            self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
            text = self.path.read_text(encoding="utf-8")
            if text and not text.endswith("\n"):
                self._file.write("\n")  # after a line cut short by a kill
            return done
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - closed by close()
        self._write({"kind": KIND, "run": self.run})
        return {}

    def append(self, result: EpisodeResult) -> None:
        self._write(result.to_json())

    def _write(self, raw: dict[str, Any]) -> None:
        # Flushed at once, so a killed run's lines are in the file; synced to the disk at most once
        # per SYNC_SECONDS and at close (an fsync per episode cost ~2 ms, a tenth of a reference
        # episode): a machine crash loses at most that much, and those episodes run again.
        self._file.write(json.dumps(raw, ensure_ascii=False) + "\n")
        self._file.flush()
        if time.monotonic() - self._synced >= SYNC_SECONDS:
            os.fsync(self._file.fileno())
            self._synced = time.monotonic()

    def close(self) -> None:
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None


LABELS = {
    "agent_code": "the agent's code or prompts changed",
    "tasks": "another task set",
    "org": "another org",
    "backend": "another backend",
    "user": "another user, or a single-turn run against a multi-turn one",
}


def _differences(logged: Any, now: dict[str, Any]) -> str:
    """What differs between the run a log belongs to and this one, in words."""
    if not isinstance(logged, dict):
        return "a log of an older crmarena-sf"
    keys = [k for k in dict.fromkeys([*now, *logged]) if logged.get(k) != now.get(k)]
    return "; ".join(LABELS.get(key, f"{key} {logged.get(key)!r}, now {now.get(key)!r}") for key in keys)


def _parse(line: str) -> dict | None:
    try:
        raw = json.loads(line)
    except json.JSONDecodeError:
        return None
    return raw if isinstance(raw, dict) else None
