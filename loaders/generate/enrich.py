"""Optional LLM enrichment of case descriptions through ``openai`` (off by default, never needed by tests).

The template text is already varied and carries every fact the tasks probe; a chat model can
make it read more like real customers wrote it. A rewrite is kept only when it still holds
every fact the template put there (product name, order date), so the planted truth is never
touched: descriptions are not where policy violations live, and the case's issue, product
and dates stay in its fields. Failures of any kind keep the template text. The manifest
records the model and how many descriptions it rewrote; such a dataset is no longer
reproducible byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from crmarena_sf.loaders.generate.context import Context

BATCH = 20
PROMPT = (
    "Rewrite each customer-service case description in the JSON array below so that it reads like a real "
    "customer wrote it to a sporting-goods retailer. Keep every product name, date, size, colour and amount "
    "exactly as written and add no new facts. Answer with only a JSON array of strings, in the same order "
    "and with the same number of items."
)


def enrichment_step(model: str, client: object | None = None) -> Callable[[Context], None]:
    """A generation step rewriting case descriptions with ``model`` (an OpenAI client from the environment by default)."""

    def step(ctx: Context) -> None:
        cases = ctx.plan["cases"]
        catalog = ctx.plan["catalog"]
        must_keep = []
        for k in range(len(cases)):
            day = cases.order_day[k]
            facts = [catalog.names[cases.product[k]], f"{day:%B} {day.day}, {day.year}"]
            must_keep.append([f for f in facts if f in cases.description[k]])
        rewritten, changed = rewrite(cases.description, must_keep, client or _openai_client(), model)
        cases.description = rewritten
        ctx.plan["enriched"] = {
            "model": model,
            "descriptions_rewritten": changed,
            "descriptions": len(rewritten),
        }

    return step


def rewrite(texts: list[str], must_keep: list[list[str]], client, model: str) -> tuple[list[str], int]:
    """``texts`` rewritten by the model where the rewrite keeps its facts; returns (texts, how many changed)."""
    out = list(texts)
    changed = 0
    for start in range(0, len(texts), BATCH):
        chunk = texts[start : start + BATCH]
        try:
            response = client.chat.completions.create(
                model=model,
                temperature=0,
                messages=[
                    {"role": "system", "content": PROMPT},
                    {"role": "user", "content": json.dumps(chunk)},
                ],
            )
            candidates = json.loads(response.choices[0].message.content)
        except Exception:  # network, quota, refusal, malformed JSON: keep the template text
            continue
        if not isinstance(candidates, list) or len(candidates) != len(chunk):
            continue
        for offset, candidate in enumerate(candidates):
            index = start + offset
            if (
                isinstance(candidate, str)
                and 0 < len(candidate.strip()) <= 4 * len(texts[index]) + 200
                and all(fact in candidate for fact in must_keep[index])
            ):
                out[index] = candidate.strip()
                changed += 1
    return out, changed


def _openai_client():
    try:
        from openai import OpenAI

        return OpenAI()
    except Exception as exc:  # missing key or package: say what to configure
        raise ValueError(f"LLM enrichment needs an OpenAI client (set OPENAI_API_KEY): {exc}") from None
