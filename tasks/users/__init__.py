"""Users of the interactive suites: ``scripted`` (no model) and ``llm`` (a model on an OpenAI-compatible endpoint).

A user has ``opening()`` (its first message), ``reply(message)`` (its answer to the agent's
message; ``###STOP###`` in it ends the episode), ``usage`` (its tokens, None without a model)
and ``settings()``. :class:`UserSpec` is small enough to send to worker processes; it makes a
fresh user per episode, the LLM user's seed varying with the trial (``seed + trial``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

USERS = ("scripted", "llm")
USER_KEY_VARIABLE = "OPENAI_USER_API_KEY"
"""Where the LLM user's key comes from: its own, so the user and the agent can be billed apart."""
INTERACTIVE_SUITES = {
    "crmarena-interactive": "crmarena",
    "pro-b2b-interactive": "pro-b2b",
    "pro-b2c-interactive": "pro-b2c",
}
"""Each interactive suite -> the single-turn suite whose instances it runs."""


@dataclass(frozen=True)
class UserSpec:
    kind: str = "scripted"
    model: str | None = None
    base_url: str | None = None
    temperature: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.kind not in USERS:
            raise ValueError(f"unknown user {self.kind!r}; expected one of {', '.join(USERS)}")
        if self.kind == "llm" and not self.model:
            raise ValueError("the LLM user needs a model: --user-model NAME")

    def build(self, task, trial: int = 0):
        if self.kind == "scripted":
            from crmarena_sf.tasks.users.scripted import ScriptedUser

            return ScriptedUser(task)
        from crmarena_sf.tasks.agents.llm import ChatModel
        from crmarena_sf.tasks.users.llm_user import LLMUser

        chat = ChatModel(
            self.model,
            self.base_url,
            temperature=self.temperature,
            seed=self.seed + trial,
            api_key_variable=USER_KEY_VARIABLE,
        )
        return LLMUser(task, chat)

    def settings(self) -> dict[str, Any]:
        if self.kind == "scripted":
            return {"user": "scripted"}
        out = {
            "user": "llm",
            "user_model": self.model,
            "user_temperature": self.temperature,
            "user_seed": self.seed,
        }
        return out if not self.base_url else {**out, "user_base_url": self.base_url}
