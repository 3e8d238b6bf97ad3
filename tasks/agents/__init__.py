"""Agents that run benchmark episodes: ``make_agent(name)``.

Only ``reference`` exists so far; LLM agents (function calling, ReAct, Act) register here
under their own names.
"""

from __future__ import annotations

from typing import Any

from tasks.agents.base import Agent, AgentError, EpisodeOutcome
from tasks.agents.reference import ReferenceAgent

AGENTS = {"reference": ReferenceAgent}

__all__ = ["AGENTS", "Agent", "AgentError", "EpisodeOutcome", "make_agent"]


def make_agent(name: str, **options: Any) -> Agent:
    """The agent called ``name``; ValueError lists the known ones."""
    try:
        cls = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; expected one of {', '.join(AGENTS)}") from None
    return cls(**options)
