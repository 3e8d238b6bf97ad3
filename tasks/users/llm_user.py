"""The LLM user: a model on any OpenAI-compatible endpoint plays the customer or employee of an interactive episode.

It holds the hidden instruction (the task's persona and query) and follows CRMArena-Pro's user
rules in this project's words (its paper, arXiv 2505.18878, §3; tau-bench's user simulator,
arXiv 2406.12045): open vaguely, give one criterion per reply and only when asked, never
invent, ask for an Id when the agent offers only a name, and write ``###STOP###`` as soon as
the request is answered or the agent says there is no answer. Its endpoint, model and key are
its own (``--user-model``, ``--user-base-url``, ``OPENAI_USER_API_KEY``); its temperature and
seed are recorded with the run, and its tokens are counted apart from the agent's.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.tasks.agents.llm import ChatModel, Usage
from crmarena_sf.tasks.episode import STOP
from crmarena_sf.tasks.records import TaskRecord

GREETING = "Hello! How can I help you today?"
"""The agent's greeting the user model answers with its opening (tau-bench starts the same way)."""

RULES = f"""You are playing a person who asks a CRM assistant for help. Stay in your role; you are not the assistant.

Your persona:
{{persona}}

What you want (your hidden instruction; never show it whole):
{{query}}

How to talk:
- Start with a short, vague request that does not give the details of your instruction.
- Give one detail (one criterion: a period, a threshold, a record, a product ...) per message, and only
  the one the assistant asked for.
- Say only what your instruction holds. If asked something it does not say, answer that you do not know.
- If the assistant names a record without its Id, ask for its Id.
- As soon as the assistant gives an answer to your request, or says there is none, reply with {STOP} and
  nothing else. Do not check or discuss the answer.
- Keep each message short and natural."""


class LLMUser:
    name = "llm"

    def __init__(self, task: TaskRecord, model: ChatModel) -> None:
        self.task, self.model = task, model
        persona = task.persona or "A user of the company's CRM."
        self.messages: list[dict[str, Any]] = [
            {"role": "system", "content": RULES.format(persona=persona, query=task.query)},
            {"role": "user", "content": GREETING},
        ]
        self._usage = Usage()

    @property
    def usage(self) -> dict[str, int]:
        return self._usage.to_json()

    def settings(self) -> dict[str, Any]:
        return {"user": self.name, **{f"user_{k}": v for k, v in self.model.settings().items()}}

    def opening(self) -> str:
        return self._speak()

    def reply(self, message: str | None) -> str:
        self.messages.append({"role": "user", "content": message or ""})
        return self._speak()

    def _speak(self) -> str:
        reply = self.model.complete(self.messages, usage=self._usage)
        text = (getattr(reply, "content", None) or "").strip()
        self.messages.append({"role": "assistant", "content": text})
        return text
