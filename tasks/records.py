"""Task records: CRMArena's official format plus ``params``, read and written as JSON Lines.

A record is ``{idx, task, persona, query, answer, reward_metric, metadata: {required,
optional}, params}``, the Hugging Face ``Salesforce/CRMArena`` layout (answers are scalars:
a string or null) with ``params``, the structured inputs of the gold solver. Official files
load as they are: a JSON list or JSON Lines, ``type`` for ``task`` (the pre-release key),
answers given as one-element lists, no ``params`` (so only LLM agents can run them).
Records a build makes also carry ``org_fingerprint``, the org they were built on
(:mod:`crmarena_sf.tasks.org_fingerprint`); official records have none.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from crmarena_sf.tasks.families import ALL_FAMILIES, RAW_NAMES

METRICS = ("exact_match", "fuzzy_match", "privacy_rejection", "soql_execution")


class TaskFileError(ValueError):
    """A task file that cannot be used; the message names the file, the record and what is wrong."""


@dataclass
class TaskRecord:
    idx: int
    task: str
    query: str
    answer: str | None
    reward_metric: str
    metadata: dict[str, str] = field(default_factory=lambda: {"required": "", "optional": ""})
    persona: str = ""
    params: dict[str, Any] | None = None
    org_fingerprint: str | None = None
    """The fingerprint of the org the record was built on (None for official records)."""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("params", "org_fingerprint"):
            if out[key] is None:
                del out[key]
        return out


def from_json(raw: Any, where: str = "record") -> TaskRecord:
    """A record from its JSON object (official or ours); TaskFileError says what is missing."""
    if not isinstance(raw, dict):
        raise TaskFileError(f"{where}: expected a JSON object, got {type(raw).__name__}")
    task = raw.get("task", raw.get("type"))
    task = RAW_NAMES.get(task, task)
    if task not in ALL_FAMILIES:
        raise TaskFileError(f"{where}: unknown task {task!r}; expected one of {', '.join(ALL_FAMILIES)}")
    for key in ("idx", "query", "reward_metric"):
        if key not in raw:
            raise TaskFileError(f"{where}: missing {key!r}")
    if not isinstance(raw["idx"], int) or isinstance(raw["idx"], bool):
        raise TaskFileError(f"{where}: idx must be a whole number, not {raw['idx']!r}")
    if raw["reward_metric"] not in METRICS:
        raise TaskFileError(
            f"{where}: reward_metric must be one of {', '.join(METRICS)}, not {raw['reward_metric']!r}"
        )
    answer = raw.get("answer")
    if isinstance(answer, list):  # CRMArena-Pro style answers are lists; the original's are scalars
        if len(answer) > 1:
            raise TaskFileError(f"{where}: an answer list must hold one answer, not {len(answer)}")
        answer = answer[0] if answer else None
    if answer is not None and not isinstance(answer, str):
        answer = str(answer)
    metadata = raw.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise TaskFileError(f"{where}: metadata must be an object with 'required' and 'optional'")
    params = raw.get("params")
    if params is not None and not isinstance(params, dict):
        raise TaskFileError(f"{where}: params must be an object")
    fingerprint = raw.get("org_fingerprint")
    if fingerprint is not None and not isinstance(fingerprint, str):
        raise TaskFileError(f"{where}: org_fingerprint must be a string")
    return TaskRecord(
        idx=raw["idx"],
        task=task,
        query=str(raw["query"]),
        answer=answer,
        reward_metric=raw["reward_metric"],
        metadata={
            "required": str(metadata.get("required") or ""),
            "optional": str(metadata.get("optional") or ""),
        },
        persona=str(raw.get("persona") or ""),
        params=params,
        org_fingerprint=fingerprint,
    )


def not_json(exc: json.JSONDecodeError, what: str = "JSON") -> str:
    """What is wrong with a line that is not JSON, in Python's words and the line's column."""
    return f"not {what} ({exc.msg}: column {exc.colno})"


def load_tasks(path: str | Path) -> list[TaskRecord]:
    """Records of a task file: JSON Lines, or one JSON list (the official file's layout)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise TaskFileError(f"{path}: not a UTF-8 text file") from None
    stripped = text.lstrip()
    raws: list[tuple[str, Any]] = []
    if stripped.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise TaskFileError(f"{path} line {exc.lineno}: {not_json(exc)}") from None
        raws = [(f"{path} record {i + 1}", r) for i, r in enumerate(data)]
    else:
        for n, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    raws.append((f"{path} line {n}", json.loads(line)))
                except json.JSONDecodeError as exc:
                    raise TaskFileError(f"{path} line {n}: {not_json(exc, 'JSON Lines')}") from None
    if not raws:
        raise TaskFileError(f"{path}: no task records")
    records = [from_json(raw, where) for where, raw in raws]
    seen: set[int] = set()
    for record in records:
        if record.idx in seen:
            raise TaskFileError(f"{path}: idx {record.idx} appears twice")
        seen.add(record.idx)
    return records


def write_tasks(records: list[TaskRecord], path: str | Path) -> Path:
    """Write ``records`` as JSON Lines, atomically (a failure leaves no partial file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps(record.to_json(), ensure_ascii=False) + "\n")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
