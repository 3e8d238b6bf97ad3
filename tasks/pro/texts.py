"""How the Pro solvers read the org's texts: call transcripts, case conversations and articles.

The orgs' texts are written from a known vocabulary (:mod:`crmarena_sf.loaders.pro.talk` for
sales calls, each domain's BANT answers and service policies, the knowledge articles' wording),
so a reader that knows the vocabulary can tell what each line says, as CRMArena's own
policy-violation solver recognises its org's agent statements. Each template becomes a regular
expression whose slots (``{amount}``, ``{product}`` ...) match any text and are captured; a line
is read by the first template it matches in full. Both domains' vocabularies are known at once
(their sentences differ), so a solver needs no argument saying which org it is on.

Nothing here queries an org: the solvers and the candidate searches hand the text they read.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache, lru_cache

from crmarena_sf.loaders.pro import talk
from crmarena_sf.loaders.pro.domain import BANT, STAGES, SUBTOPICS
from crmarena_sf.loaders.pro.domain_b2b import DOMAIN as B2B
from crmarena_sf.loaders.pro.domain_b2c import DOMAIN as B2C

DOMAINS = (B2B, B2C)
_SLOT = re.compile(r"\{([a-z_]+)\}")
LINE = re.compile(r"^\[(?P<at>[0-9T:\-]+)\] (?P<speaker>[^:]+): (?P<text>.*)$")
"""A transcript line: ``[2023-10-21T10:02:00] Name: text`` (CRMArena-Pro's VoiceCallTranscript__c layout)."""


def template_pattern(template: str) -> re.Pattern:
    """A full-match pattern of ``template`` whose slots capture any text (named after the slot)."""
    parts, seen, last = [], set(), 0
    for m in _SLOT.finditer(template):
        parts.append(re.escape(template[last : m.start()]))
        name = m[1]
        parts.append(f"(?P<{name}>.+?)" if name not in seen else ".+?")
        seen.add(name)
        last = m.end()
    parts.append(re.escape(template[last:]))
    return re.compile("".join(parts) + r"\Z", re.S)


def transcript_lines(body: str | None) -> list[tuple[str, str]]:
    """(speaker, text) of each line of a transcript body, in order."""
    out = []
    for line in (body or "").splitlines():
        m = LINE.match(line.strip())
        if m:
            out.append((m["speaker"].strip(), m["text"].strip()))
    return out


def article_text(rich_text: str | None) -> str:
    """An article's FAQ_Answer__c as plain text (the orgs store it HTML-escaped, as CRMArena's)."""
    text = html.unescape(re.sub(r"<br\s*/?>", "\n", rich_text or ""))
    return html.unescape(re.sub(r"<[^>]+>", "", text))


# ---------------------------------------------------------------------------- BANT
@dataclass(frozen=True)
class BantRule:
    factor: str
    met: bool
    """The side the template is on (the answer when it names no amount or months)."""
    pattern: re.Pattern


@cache
def bant_rules() -> tuple[BantRule, ...]:
    rules = []
    for domain in DOMAINS:
        for met, lines in ((True, domain.bant.met), (False, domain.bant.unmet)):
            for factor in BANT:
                rules.extend(BantRule(factor, met, template_pattern(t)) for t in lines[factor])
    return tuple(rules)


@dataclass(frozen=True)
class BantThresholds:
    budget_floor: int
    timeline_months: int


def bant_thresholds(article: str) -> BantThresholds:
    """The lead qualification article's budget floor and timeline (its own words decide the factors)."""
    floor = re.search(r"at least \$([\d,]+)", article)
    months = re.search(r"within (\d+) months", article)
    if not floor or not months:
        raise LookupError("the lead qualification article states no budget floor or timeline")
    return BantThresholds(int(floor[1].replace(",", "")), int(months[1]))


def bant_verdicts(lines: list[str], rules: BantThresholds) -> dict[str, bool]:
    """Factor -> met, from what a lead said on its calls: an amount against the budget floor,
    months against the timeline, anything else as the sentence says it."""
    verdicts: dict[str, bool] = {}
    for text in lines:
        for rule in bant_rules():
            m = rule.pattern.match(text)
            if not m:
                continue
            slots = m.groupdict()
            if "amount" in slots:
                met = int(re.sub(r"[^\d]", "", slots["amount"]) or 0) >= rules.budget_floor
            elif "months" in slots:
                met = int(slots["months"]) <= rules.timeline_months
            else:
                met = rule.met
            verdicts[rule.factor] = verdicts.get(rule.factor, True) and met
            break
    return verdicts


def unmet_factors(verdicts: dict[str, bool]) -> tuple[str, ...]:
    """The unmet factors in BANT order (Budget, Authority, Need, Timeline)."""
    return tuple(f for f in BANT if verdicts.get(f) is False)


# ---------------------------------------------------------------------------- sales calls
@dataclass(frozen=True)
class CallLine:
    subtopic: str | None
    """The sales subtopic a customer's line is about (None: a plain competitor mention)."""
    sentiment: str | None
    competitor: str | None


@cache
def _call_rules() -> tuple[tuple[re.Pattern, CallLine], ...]:
    rules = []
    for (subtopic, sentiment), lines in talk.LINES.items():
        rules.extend((template_pattern(t), CallLine(subtopic, sentiment, None)) for t in lines)
    rules.extend((template_pattern(t), CallLine(None, None, None)) for t in talk.MENTION)
    return tuple(rules)


def read_call_line(text: str) -> CallLine | None:
    """What a customer's line of a sales call says (None for anything else: the rep's lines, greetings)."""
    for pattern, kind in _call_rules():
        m = pattern.match(text)
        if m:
            return CallLine(
                kind.subtopic, kind.sentiment, (m.groupdict().get("competitor") or "").strip() or None
            )
    return None


@lru_cache(maxsize=16384)
def call_lines(body: str | None) -> tuple[CallLine, ...]:
    """Every recognised customer line of one call, in order (a call is read once per process)."""
    out = []
    for _, text in transcript_lines(body):
        line = read_call_line(text)
        if line is not None:
            out.append(line)
    return tuple(out)


def subtopics_with(bodies: list[str | None], sentiment: str) -> tuple[str, ...]:
    """The subtopics the calls discuss with ``sentiment``, each once, in the subtopic list's order."""
    found = {line.subtopic for body in bodies for line in call_lines(body) if line.sentiment == sentiment}
    return tuple(s for s in SUBTOPICS if s in found)


# ---------------------------------------------------------------------------- stages and their tasks
STAGE_ARTICLE = "Opportunity Stages and Their Activities"
_PLACEHOLDERS = re.compile(r"\bthe (account|contact|customer)\b")


def stage_guide(article: str) -> dict[str, list[str]]:
    """Stage -> its typical activities, as the stages article lists them (``Stage:`` then ``- activity`` lines)."""
    guide: dict[str, list[str]] = {}
    current = None
    for raw in article.splitlines():
        line = raw.strip()
        if line.rstrip(":") in STAGES and line.endswith(":"):
            current = line.rstrip(":")
            guide[current] = []
        elif current and line.startswith("- "):
            guide[current].append(line[2:].strip())
    return guide


def stage_patterns(guide: dict[str, list[str]]) -> list[tuple[str, re.Pattern]]:
    """(stage, pattern) per activity: 'the account', 'the contact' and 'the customer' match any name."""
    out = []
    for stage, activities in guide.items():
        for activity in activities:
            parts = _PLACEHOLDERS.split(activity)
            # split keeps the captured word at odd positions: those are the placeholders
            pattern = "".join(".+?" if i % 2 else re.escape(p) for i, p in enumerate(parts))
            out.append((stage, re.compile(pattern + r"\Z", re.S)))
    return out


def stage_of(subject: str, patterns: list[tuple[str, re.Pattern]]) -> str | None:
    """The one stage whose activity a task's subject is (None when none or several match)."""
    stages = {stage for stage, pattern in patterns if pattern.match(subject.strip())}
    return stages.pop() if len(stages) == 1 else None


# ---------------------------------------------------------------------------- service policies
@cache
def breach_rules() -> tuple[tuple[str, re.Pattern], ...]:
    """(policy article title, pattern) for every agent statement that breaks a service policy."""
    return tuple(
        (policy.title, template_pattern(line).pattern.removesuffix(r"\Z"))
        for domain in DOMAINS
        for policy in domain.policies
        for line in policy.breach
    )


def breached_titles(agent_text: str) -> set[str]:
    """The titles of the policies an agent's words break."""
    return {title for title, pattern in breach_rules() if re.search(pattern, agent_text)}
