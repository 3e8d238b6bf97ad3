"""The deterministic answer extractor: the answers a free-text reply names, by answer kind.

CRMArena-Pro's evaluator (``crm_sandbox/env/env.py``, ``Evaluator``) asks gpt-4o to extract the
answers of a reply that is not exactly the gold, with one prompt per answer kind, then compares
them with the gold as sorted lists. Without ``--extractor-model`` this module does that step
with rules instead, one per kind, each returning the answers in the gold's spelling:

- ``ids`` (the default: routing, knowledge article, task-list and product answers): every
  Salesforce Id, 15 or 18 letters and digits with at least one digit, as written;
- ``months`` (monthly_trend_analysis): every English month name, capitalised;
- ``states`` (best_region_identification): every two-letter US state code written in capitals,
  and every state's full name, as its code;
- ``bant`` (lead_qualification): each of Budget, Authority, Need, Timeline the reply names;
- ``stage`` (wrong_stage_rectification): each opportunity stage the reply names.

A reply that names nothing of its kind and says "None" (or "no ...", "nothing") extracts as
``["None"]``, the evaluator's reading of a None gold. Each answer is kept once, in order.
The rules cannot read negation: "Budget is met, Need is not" extracts both factors; an LLM
extractor (``--extractor-model``) does.
"""

from __future__ import annotations

import calendar
import re

KIND_OF_TASK = {
    "monthly_trend_analysis": "months",
    "best_region_identification": "states",
    "lead_qualification": "bant",
    "wrong_stage_rectification": "stage",
}
"""Task -> answer kind; every other exact-match task's answers are Ids."""

STATE_NAMES = {
    "Alabama": "AL", "Alaska": "AK", "Arizona": "AZ", "Arkansas": "AR", "California": "CA",
    "Colorado": "CO", "Connecticut": "CT", "Delaware": "DE", "District of Columbia": "DC",
    "Florida": "FL", "Georgia": "GA", "Hawaii": "HI", "Idaho": "ID", "Illinois": "IL",
    "Indiana": "IN", "Iowa": "IA", "Kansas": "KS", "Kentucky": "KY", "Louisiana": "LA",
    "Maine": "ME", "Maryland": "MD", "Massachusetts": "MA", "Michigan": "MI", "Minnesota": "MN",
    "Mississippi": "MS", "Missouri": "MO", "Montana": "MT", "Nebraska": "NE", "Nevada": "NV",
    "New Hampshire": "NH", "New Jersey": "NJ", "New Mexico": "NM", "New York": "NY",
    "North Carolina": "NC", "North Dakota": "ND", "Ohio": "OH", "Oklahoma": "OK", "Oregon": "OR",
    "Pennsylvania": "PA", "Rhode Island": "RI", "South Carolina": "SC", "South Dakota": "SD",
    "Tennessee": "TN", "Texas": "TX", "Utah": "UT", "Vermont": "VT", "Virginia": "VA",
    "Washington": "WA", "West Virginia": "WV", "Wisconsin": "WI", "Wyoming": "WY",
}  # fmt: skip
BANT = ("Budget", "Authority", "Need", "Timeline")
STAGES = ("Qualification", "Discovery", "Quote", "Negotiation", "Closed")
"""The Pro orgs' opportunity stages (``loaders/pro/domain.py``)."""

_ID = re.compile(r"\b(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{15}(?:[A-Za-z0-9]{3})?\b")
_CODE = re.compile(r"\b(" + "|".join(sorted(STATE_NAMES.values())) + r")\b")
_NONE = re.compile(r"\b(none|nothing|no\s+\w+)\b", re.IGNORECASE)


def _words(options) -> re.Pattern:
    return re.compile(
        r"\b(" + "|".join(re.escape(o) for o in sorted(options, key=len, reverse=True)) + r")\b", re.I
    )


_MONTHS = _words(calendar.month_name[1:])
_STATE_NAMES = _words(STATE_NAMES)
_BANT = _words(BANT)
_STAGES = _words(STAGES)


def kind_of(task: str) -> str:
    return KIND_OF_TASK.get(task, "ids")


def extract(reply: object, task: str) -> list[str]:
    """The answers ``reply`` names, for ``task``'s answer kind (see the module's rules)."""
    text = "" if reply is None else str(reply)
    kind = kind_of(task)
    if kind == "ids":
        found = _ID.findall(text)
    elif kind == "months":
        found = [m.capitalize() for m in _MONTHS.findall(text)]
    elif kind == "states":
        names = {n.lower(): c for n, c in STATE_NAMES.items()}
        hits = [(m.start(), m.group(0)) for m in _CODE.finditer(text)]
        hits += [(m.start(), names[m.group(0).lower()]) for m in _STATE_NAMES.finditer(text)]
        found = [code for _, code in sorted(hits)]
    else:
        canon = {o.lower(): o for o in (BANT if kind == "bant" else STAGES)}
        found = [canon[m.lower()] for m in (_BANT if kind == "bant" else _STAGES).findall(text)]
    out = list(dict.fromkeys(found))
    if not out and _NONE.search(text):
        return ["None"]
    return out
