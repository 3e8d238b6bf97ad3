"""Agents that run benchmark episodes: ``make_agent(name, ...)`` and the picklable :class:`AgentSpec`.

- ``reference``: answers from each task's params with the gold solvers (the pipeline check);
- ``function-calling``, ``react``, ``act``: an LLM on any OpenAI-compatible endpoint
  (``model``, ``base_url``, ``api_key``; see :mod:`crmarena_sf.tasks.agents.llm`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crmarena_sf.tasks.agents.base import Agent, AgentError, EpisodeOutcome
from crmarena_sf.tasks.agents.reference import ReferenceAgent

AGENTS = ("reference", "function-calling", "react", "act")
LLM_AGENTS = AGENTS[1:]

__all__ = ["AGENTS", "LLM_AGENTS", "Agent", "AgentError", "AgentSpec", "EpisodeOutcome", "make_agent"]


def make_agent(
    name: str,
    *,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    max_turns: int | None = None,
    **model_options: Any,
) -> Agent:
    """The agent called ``name``; ValueError lists the known ones or says what is missing."""
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; expected one of {', '.join(AGENTS)}")
    if name == "reference":
        return ReferenceAgent()
    if not model:
        raise ValueError(f"the {name} agent needs a model: --model NAME (as the endpoint names it)")
    from crmarena_sf.tasks.agents.llm import ChatModel
    from crmarena_sf.tasks.agents.loop import MAX_TURNS

    chat = ChatModel(model, base_url, api_key, **model_options)
    turns = max_turns or MAX_TURNS
    if name == "function-calling":
        from crmarena_sf.tasks.agents.function_calling import FunctionCallingAgent

        return FunctionCallingAgent(chat, turns)
    from crmarena_sf.tasks.agents.text_actions import TextActionAgent

    return TextActionAgent(name, chat, turns)


@dataclass(frozen=True)
class AgentSpec:
    """How to make an agent, small enough to send to worker processes and Ray workers."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)

    def build(self) -> Agent:
        return make_agent(self.name, **self.options)
