"""Agents that run benchmark episodes: ``make_agent(name, ...)`` and the picklable :class:`AgentSpec`.

- ``reference``: answers from each task's params with the gold solvers (the pipeline check);
- ``function-calling``, ``react``, ``act``: an LLM on any OpenAI-compatible endpoint
  (``model``, ``base_url``, ``api_key``; see :mod:`crmarena_sf.tasks.agents.llm`).
"""

from __future__ import annotations

import hashlib
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crmarena_sf.tasks.agents.base import Agent, AgentError, EpisodeOutcome
from crmarena_sf.tasks.agents.reference import ReferenceAgent

AGENTS = ("reference", "function-calling", "react", "act")
LLM_AGENTS = AGENTS[1:]

__all__ = [
    "AGENTS",
    "LLM_AGENTS",
    "Agent",
    "AgentError",
    "AgentSpec",
    "EpisodeOutcome",
    "agent_digest",
    "make_agent",
]

AGENT_CODE = {
    "reference": (
        "agents.base",
        "agents.reference",
        "families",
        "families.pro",
        "pro",
        "org_client",
        "periods",
        "episode",
        "users",
    ),
    "llm": ("agents", "tools", "observation", "org_client", "periods", "pro.suite", "episode", "users"),
}
"""What an agent's behaviour is made of, under crmarena_sf.tasks: its modules, prompts and tools."""


def make_agent(
    name: str,
    *,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    max_turns: int | None = None,
    privacy_aware_prompt: bool = False,
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

        return FunctionCallingAgent(chat, turns, privacy_aware=privacy_aware_prompt)
    from crmarena_sf.tasks.agents.text_actions import TextActionAgent

    return TextActionAgent(name, chat, turns, privacy_aware=privacy_aware_prompt)


@dataclass(frozen=True)
class AgentSpec:
    """How to make an agent, small enough to send to worker processes and Ray workers."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)

    def build(self) -> Agent:
        return make_agent(self.name, **self.options)


def agent_digest(name: str) -> str:
    """A digest of the code and prompts behind agent ``name`` (12 hex digits).

    The episode log records it, so a resume refuses to mix episodes of an agent whose code or
    prompts changed since (an edited prompt is another agent).
    """
    digest = hashlib.sha256()
    for module in AGENT_CODE["reference" if name == "reference" else "llm"]:
        for path in _sources(f"crmarena_sf.tasks.{module}"):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def _sources(module: str) -> list[Path]:
    spec = importlib.util.find_spec(module)
    if spec.submodule_search_locations:
        return sorted(p for folder in spec.submodule_search_locations for p in Path(folder).glob("*.py"))
    return [Path(spec.origin)]
