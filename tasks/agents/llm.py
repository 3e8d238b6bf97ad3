"""A chat model behind any OpenAI-compatible endpoint, through the official ``openai`` client.

Settings follow CRMArena's runs (temperature 0, top_p 1, a bounded reply length). Rate
limits (429), timeouts, connection errors and 5xx answers are retried with exponential
backoff by the client itself (``max_retries``; the openai client's documented retry policy).
An endpoint failure that survives the retries (unreachable, timed out, a refused key, a model
it does not serve, rate limits, server errors) is no answer of the agent: it is raised as
:class:`~crmarena_sf.tasks.agents.base.ModelEndpointError`, and the runner leaves the episode
unscored. Other errors (a request the endpoint calls bad, such as a context overflow) fail the
episode as the agent's. :meth:`ChatModel.check` asks the endpoint once, before a run, whether it
answers and takes the key. Token usage is summed per episode. The key comes from ``api_key``,
else ``OPENAI_API_KEY``; a local endpoint (``base_url``: vLLM, Ollama, llama.cpp ...) needs none.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from crmarena_sf.tasks.agents.base import ModelEndpointError

OPENAI_URL = "https://api.openai.com/v1"
"""Where the openai client goes without a base URL."""
CHECK_TIMEOUT = 30.0
"""Seconds the check before a run waits for the endpoint's model list."""


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
    seed: int | None = None
    """Sent as the request's ``seed`` when set (the LLM user's per-trial seed)."""
    api_key_variable: str = "OPENAI_API_KEY"
    """Where the key comes from when ``api_key`` is not given (the LLM user has its own)."""
    _client: Any = field(default=None, repr=False)

    def client(self):
        if self._client is None:
            import openai

            key = (
                self.api_key or os.environ.get(self.api_key_variable) or ("EMPTY" if self.base_url else None)
            )
            self._client = openai.OpenAI(
                api_key=key, base_url=self.base_url, timeout=self.timeout, max_retries=self.max_retries
            )
        return self._client

    def complete(self, messages: list[dict], tools: list[dict] | None = None, usage: Usage | None = None):
        """One chat completion; returns the reply message (``content``, ``tool_calls``)."""
        options: dict[str, Any] = {"temperature": self.temperature, "top_p": 1, "max_tokens": self.max_tokens}
        if tools:
            options["tools"] = tools
        if self.seed is not None:
            options["seed"] = self.seed
        with _endpoint_failures(self.url):
            response = self.client().chat.completions.create(model=self.model, messages=messages, **options)
        if usage is not None:
            usage.add(response.usage)
        if not response.choices:
            return None
        return response.choices[0].message

    @property
    def url(self) -> str:
        return (self.base_url or OPENAI_URL).rstrip("/")

    def check(self) -> None:
        """Ask the endpoint once for its model list (``GET /models``, the cheapest call of the API), with the key.

        Raises :class:`ModelEndpointError` naming the URL when nothing answers there, the key is
        refused, or the endpoint fails; an endpoint without a model list (404) answered, so it passes.
        """
        import openai

        client = self.client().with_options(max_retries=0, timeout=CHECK_TIMEOUT)
        try:
            client.models.list()
        except openai.NotFoundError:
            return
        except openai.APIConnectionError as exc:
            raise ModelEndpointError(f"cannot reach the model endpoint {self.url} ({_reason(exc)})") from None
        except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
            raise ModelEndpointError(
                f"the model endpoint {self.url} refused the API key (HTTP {exc.status_code}: {_reason(exc)}); "
                "check OPENAI_API_KEY"
            ) from None
        except openai.APIStatusError as exc:
            raise ModelEndpointError(
                f"the model endpoint {self.url} failed (HTTP {exc.status_code}: {_reason(exc)})"
            ) from None

    def settings(self) -> dict[str, Any]:
        out = {"model": self.model, "base_url": self.base_url, "temperature": self.temperature}
        return out if self.seed is None else {**out, "seed": self.seed}


@contextlib.contextmanager
def _endpoint_failures(url: str) -> Iterator[None]:
    """Endpoint failures left after the client's retries, as :class:`ModelEndpointError` (see the module docstring)."""
    import openai

    try:
        yield
    except (
        openai.APIConnectionError,  # timeouts too
        openai.AuthenticationError,
        openai.PermissionDeniedError,
        openai.NotFoundError,
        openai.RateLimitError,
        openai.InternalServerError,
    ) as exc:
        raise ModelEndpointError(
            f"the model endpoint failed ({type(exc).__name__}: {_reason(exc)}; {url})"
        ) from exc


def _reason(exc: Exception) -> str:
    """The endpoint's own words for a failure, on one line."""
    body = getattr(exc, "body", None)
    message = body.get("message") if isinstance(body, dict) else None
    if not message and isinstance(body, dict) and isinstance(body.get("error"), dict):
        message = body["error"].get("message")
    return " ".join(str(message or exc).split())
