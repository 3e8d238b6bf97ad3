"""A chat model behind any OpenAI-compatible endpoint, through the official ``openai`` client.

Settings follow CRMArena's runs (temperature 0, top_p 1, a bounded reply length). Rate
limits (429), timeouts, connection errors and 5xx answers are retried with exponential
backoff by the client itself (``max_retries``; the openai client's documented retry policy);
an error that survives the retries fails the episode, not the run. Token usage is summed per
episode. The key comes from ``api_key``, else ``OPENAI_API_KEY``; a local endpoint
(``base_url``: vLLM, Ollama, llama.cpp ...) needs none.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, usage: Any) -> None:
        if usage is not None:
            self.prompt_tokens += getattr(usage, "prompt_tokens", 0) or 0
            self.completion_tokens += getattr(usage, "completion_tokens", 0) or 0

    def to_json(self) -> dict[str, int]:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens}


@dataclass
class ChatModel:
    model: str
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    temperature: float = 0.0
    max_tokens: int = 2000
    timeout: float = 120.0
    max_retries: int = 5
    _client: Any = field(default=None, repr=False)

    def client(self):
        if self._client is None:
            import openai

            key = self.api_key or os.environ.get("OPENAI_API_KEY") or ("EMPTY" if self.base_url else None)
            self._client = openai.OpenAI(
                api_key=key, base_url=self.base_url, timeout=self.timeout, max_retries=self.max_retries
            )
        return self._client

    def complete(self, messages: list[dict], tools: list[dict] | None = None, usage: Usage | None = None):
        """One chat completion; returns the reply message (``content``, ``tool_calls``)."""
        options: dict[str, Any] = {"temperature": self.temperature, "top_p": 1, "max_tokens": self.max_tokens}
        if tools:
            options["tools"] = tools
        response = self.client().chat.completions.create(model=self.model, messages=messages, **options)
        if usage is not None:
            usage.add(response.usage)
        if not response.choices:
            return None
        return response.choices[0].message

    def settings(self) -> dict[str, Any]:
        return {"model": self.model, "base_url": self.base_url, "temperature": self.temperature}
