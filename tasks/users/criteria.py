"""The criteria a user of an interactive suite holds: which params, how each is asked for and said, and the vague opening.

A task's ``params`` are the gold solver's inputs; in an interactive episode the user holds
them and the agent must ask. Each param key belongs to one criterion (the period is ``start``
and ``end`` together); :data:`CRITERIA` says, per key, the words a question about it contains,
the question an agent asks and the sentence the user answers with. Keys the table does not
name (the rarer inputs of a few Pro families) get a plain criterion named after the key.
The sentence is a template whose values can be read back (:meth:`Criterion.read`), so an
agent that asks gets exactly the values the solver needs, and nothing else.
A user holds only what its question says (:func:`held_keys`): the solver's own inputs (the article
that answers, the matched issue, the org's clock ...) are not the user's to give.
"""

from __future__ import annotations

import json
import re
import string
from dataclasses import dataclass
from typing import Any

HIDDEN = (
    "now",
    "soql",
    "source_task",
    "source_params",
    "article_id",
    "issue_id",
    "fact",
    "kind",
    "protected",
    "by",
    "target_id",
    "subject",
)
"""Params no user holds: the solver's own knowledge (the article that answers, the issue a case
matches, the kind of fact asked, what must not leak), the org's clock, the text-to-SOQL track's
inputs. A user knows what its question says, not how the answer is found."""
FAMILY_HIDDEN = {"case_routing": ("product_id",)}
"""Per task, more params its user does not hold (a new case's product follows from the case)."""


@dataclass(frozen=True)
class Criterion:
    name: str
    keys: tuple[str, ...]
    keywords: tuple[str, ...]
    """Words (lower case) of a question asking for it."""
    question: str
    template: str
    """The user's answer, with ``{key}`` for each value."""

    def say(self, params: dict[str, Any]) -> str:
        return self.template.format(**{k: _render(params[k]) for k in self.keys})

    def read(self, text: str) -> dict[str, Any] | None:
        """The values an answer of this criterion holds, or None when ``text`` is not one."""
        pattern, keys = "", []
        for literal, key, _, _ in _FORMATTER.parse(self.template):
            pattern += re.escape(literal)
            if key is not None:
                pattern += "(.+?)"
                keys.append(key)
        found = re.fullmatch(pattern, text.strip(), re.DOTALL)
        return None if found is None else {k: _parse(v) for k, v in zip(keys, found.groups(), strict=True)}

    def asked(self, message: str) -> bool:
        text = message.lower()
        return any(word in text for word in self.keywords)


_FORMATTER = string.Formatter()


def _render(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)


def _parse(text: str) -> Any:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text
    return value if not isinstance(value, str) else text


CRITERIA: tuple[Criterion, ...] = (
    Criterion(
        "period",
        ("start", "end"),
        ("period", "time frame", "timeframe", "dates", "when"),
        "Which period do you mean?",
        "From {start} to {end} (UTC; the end itself is not included).",
    ),
    Criterion(
        "threshold",
        ("min_cases",),
        ("threshold", "at least", "minimum"),
        "Is there a minimum number of cases an agent must have managed?",
        "Only agents who managed at least {min_cases} cases.",
    ),
    Criterion(
        "extreme",
        ("extreme",),
        ("highest", "lowest", "extreme"),
        "Do you want the highest or the lowest?",
        "The {extreme} (min means the lowest, max the highest).",
    ),
    Criterion(
        "product",
        ("product_id",),
        ("product",),
        "Which product is it about?",
        "The product's Id is {product_id}.",
    ),
    Criterion(
        "case", ("case_id",), ("which case", "case id"), "Which case is it?", "The case's Id is {case_id}."
    ),
    Criterion(
        "question",
        ("question",),
        ("your question", "what would you like"),
        "What is your question?",
        "{question}",
    ),
)
"""The table, in the order an agent is asked to clear them."""

_BY_KEY = {key: c for c in CRITERIA for key in c.keys}


def held_keys(task: str, params: dict[str, Any] | None) -> list[str]:
    """The params of a ``task`` instance its user holds (the rest stay the solver's)."""
    hidden = (*HIDDEN, *FAMILY_HIDDEN.get(task, ()))
    return [k for k in (params or {}) if k not in hidden]


def criteria_for(task: str, params: dict[str, Any] | None) -> list[Criterion]:
    """The criteria a user holds for a ``task`` instance: the table's, then one per held key it does not name."""
    held = held_keys(task, params)
    out: list[Criterion] = [
        c for c in CRITERIA if any(k in held for k in c.keys) and all(k in held for k in c.keys)
    ]
    named = {k for c in out for k in c.keys}
    for key in held:
        if key not in named:
            label = key.replace("_", " ")
            out.append(
                Criterion(key, (key,), (label,), f"What is the {label}?", f"The {label} is {{{key}}}.")
            )
    return out


VAGUE = {
    "knowledge_qa": "Hi, I have a question about one of your products' care or policies.",
    "monthly_trend_analysis": "I'd like to know which month stands out for cases about a product.",
    "top_issue_identification": "What's the problem customers report most about a product?",
    "case_routing": "A new case came in; who should it go to?",
    "named_entity_disambiguation": "I'm asking about something I bought from you.",
    "handle_time": "Which agent handles cases fastest or slowest?",
    "transfer_count": "Which agent transfers cases the most or the least?",
    "policy_violation_identification": "Did an agent break a policy in one of our cases?",
    "best_region_identification": "In which state do customers get their cases resolved fastest?",
    "lead_qualification": "Can you tell me whether one of our leads is worth pursuing?",
    "lead_routing": "A new lead needs an owner; who should take it?",
    "activity_priority": "Which of my tasks should I tackle first?",
    "wrong_stage_rectification": "I think one of our opportunities sits in the wrong stage.",
    "sales_insight_mining": "What have we learned from our recent sales calls?",
    "sales_amount_understanding": "I have a question about how much our reps have sold.",
    "sales_cycle_understanding": "How long do our deals take to close?",
    "conversion_rate_comprehension": "I'm curious how well our leads and deals convert.",
    "quote_approval": "Can this quote be approved?",
    "invalid_config": "Something looks off in a quote's configuration.",
}
"""Each business task's vague opening (CRMArena's nine and CRMArena-Pro's ten more): the request,
none of its criteria, and never the task's name, which would tell the agent what is tested."""


def vague_opening(task: str) -> str:
    """What a scripted user says first: the request in its most general words."""
    return VAGUE.get(task) or "I have a question; can you help me?"
