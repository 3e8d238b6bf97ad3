"""The agent interface: one episode is a task record and an org connection in, an answer and a trajectory out.

An agent sees the org only through the ``simple_salesforce.Salesforce`` it is handed (a
private fork of the emulated org, or a real org), so the same agent runs on either backend.
The runner scores the answer; the trajectory (the steps the agent took, as JSON-ready dicts
ending with its ``respond`` step) goes into ``results.json`` as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from crmarena_sf.tasks.records import TaskRecord


class AgentError(RuntimeError):
    """An agent cannot run an episode (for example the reference agent on a task without params)."""


class NotAnAnswer(RuntimeError):
    """An episode ended on a failure of the machinery around the agent, which says nothing about the
    agent: the runner records it unscored (``EpisodeResult.scored`` false, with ``cause``) and a
    resume runs it again."""

    cause = "infrastructure"


class ModelEndpointError(NotAnAnswer):
    """The model endpoint failed: unreachable, a refused key, a server error after the client's retries."""

    cause = "model_endpoint"


@dataclass
class EpisodeOutcome:
    answer: str | None
    trajectory: list[dict[str, Any]] = field(default_factory=list)
    turns: int | None = None
    """Model calls the episode took (None for agents without a model)."""
    usage: dict[str, int] | None = None
    """``{prompt_tokens, completion_tokens}`` of the episode (None for agents without a model)."""


class Agent(Protocol):
    name: str

    def settings(self) -> dict[str, Any]:
        """What results.json records about the agent (model, options ...)."""
        ...

    def run(self, task: TaskRecord, sf: Any) -> EpisodeOutcome:
        """Solve one task on the org behind ``sf``; raise to fail the episode (it scores 0)."""
        ...
