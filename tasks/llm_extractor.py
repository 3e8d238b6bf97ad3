"""The extraction step on a model (``--extractor-model``): the answers a reply names, as JSON.

CRMArena-Pro's evaluator asks gpt-4o, with one prompt per answer kind, to list the answers a
reply gives as ``{"extracted_answers": [...]}`` (``crm_sandbox/env/env.py``). This is that step
on any OpenAI-compatible endpoint, with prompts of this project's own for the same five kinds
(:data:`crmarena_sf.tasks.extractor.KIND_OF_TASK`: Ids, months, states, BANT factors, stages).
A reply the model does not answer with that JSON extracts as its raw text, one answer (what the
official fallback ends with, its ``re`` being unimported).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from crmarena_sf.tasks.extractor import kind_of

COMMON = (
    "You read an assistant's reply to a question and list the final answers it gives, nothing else. "
    'Reply with JSON only: {"extracted_answers": [...]}. If the reply says there is no answer, list "None". '
)
PROMPTS = {
    "ids": COMMON + "The answers are Salesforce record Ids (15 or 18 letters and digits); copy each exactly.",
    "months": COMMON + 'The answers are month names; write each in English, capitalised (e.g. "March").',
    "states": COMMON
    + 'The answers are US states; write each as its two-letter code in capitals (e.g. "TX").',
    "bant": COMMON
    + "The answers are the BANT factors the reply says are NOT met: any of Budget, Authority, Need, Timeline, "
    "spelt so; leave out factors the reply says are met.",
    "stage": COMMON
    + "The answer is one opportunity stage: Qualification, Discovery, Quote, Negotiation or Closed, spelt so.",
}
_JSON = re.compile(r"\{.*\}", re.DOTALL)


@dataclass
class ModelExtractor:
    """``extractor(reply, task)`` on a chat model (:class:`crmarena_sf.tasks.agents.llm.ChatModel`)."""

    model: object

    def __call__(self, reply: str, task: str) -> list[str]:
        answer = self.model.complete(
            [
                {"role": "system", "content": PROMPTS[kind_of(task)]},
                {"role": "user", "content": f"Reply:\n{reply}"},
            ]
        )
        text = (getattr(answer, "content", None) or "").strip()
        found = _JSON.search(text)
        try:
            values = json.loads(found.group(0))["extracted_answers"] if found else None
        except (ValueError, KeyError, TypeError):
            values = None
        if not isinstance(values, list):
            return [text]
        return [str(v) for v in values]
