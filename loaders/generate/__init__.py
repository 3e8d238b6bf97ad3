"""The seeded generator of the synthetic CRMArena org: ``generate(out, profile=..., seed=...)``.

Steps run in dependency order, each in its own module: people (issues, agents, customers),
catalog (categories, products, price books), cases (the latent-variable core), orders,
history (cases and CaseHistory__c), knowledge articles, conversations (emails and chats,
with planted policy violations), and finally the latent truth for the manifest. The result
is validated against the metadata (:mod:`crmarena_sf.loaders.validate`) before the dataset directory
appears; the same seed and profile give a byte-identical dataset.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from crmarena_sf.loaders import profiles
from crmarena_sf.loaders.generate import (
    cases,
    catalog,
    conversations,
    enrich,
    history,
    knowledge,
    orders,
    people,
    truth,
)
from crmarena_sf.loaders.generate.context import Context, run_steps
from crmarena_sf.metadata import load_schema
from crmarena_sf.metadata.model import Schema

GENERATOR_VERSION = "3"
"""Bumped whenever the same seed and profile would give different data (cached datasets are keyed by it)."""


def generator_fingerprint() -> str:
    """A digest of the generator's own source: a cached dataset made by other code is regenerated."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted([*here.glob("*.py"), here.parent / "profiles.py"]):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


STEPS = (
    ("issues", people.write_issues),
    ("agents", people.write_agents),
    ("customers", people.write_customers),
    ("catalog", catalog.write_catalog),
    ("cases", cases.plan_cases),
    ("orders", orders.write_orders),
    ("case texts", history.write_case_texts),
    ("case history", history.write_cases),
    ("knowledge", knowledge.write_articles),
    ("conversations", conversations.write_conversations),
)


def generate(
    out: str | Path,
    *,
    profile: str = "full",
    seed: int = 0,
    scale: int = 1,
    progress: bool = False,
    schema: Schema | None = None,
    enrich_model: str | None = None,
    llm_client: object | None = None,
) -> Path:
    """Generate a dataset into the new directory ``out`` and return its path.

    ``enrich_model`` (off by default) has an OpenAI chat model rewrite the case descriptions
    (:mod:`crmarena_sf.loaders.generate.enrich`); the output is then no longer reproducible byte for byte.
    Raises ValueError for an unknown profile or bad scale, and DatasetError when ``out``
    exists or cannot be written (nothing is left behind either way). The profiles ``b2b`` and
    ``b2c`` are CRMArena-Pro's orgs (:func:`crmarena_sf.loaders.pro.generate.generate_pro`).
    """
    if profile in ("b2b", "b2c"):
        if enrich_model:
            raise ValueError(
                "--enrich-with rewrites the CRMArena org's case descriptions; it does not apply to b2b or b2c"
            )
        from crmarena_sf.loaders.pro.generate import generate_pro

        return generate_pro(out, profile=profile, seed=seed, scale=scale, progress=progress)
    sizing = profiles.resolve(profile, scale)
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, not {seed!r}")
    schema = schema or load_schema()
    steps = list(STEPS)
    if enrich_model:
        after_texts = [name for name, _ in steps].index("case texts") + 1
        steps.insert(after_texts, ("enrich", enrich.enrichment_step(enrich_model, llm_client)))

    def manifest(ctx: Context) -> dict:
        doc = {
            "source": "generator",
            "generator_version": GENERATOR_VERSION,
            "generator_fingerprint": generator_fingerprint(),
            "profile": profile,
            "scale": scale,
            "seed": seed,
            "latent": truth.latent_truth(ctx),
        }
        if enrich_model:
            doc["enriched"] = ctx.plan["enriched"]
        return doc

    return run_steps(
        out,
        schema,
        steps,
        lambda writer: Context(seed, sizing, writer, schema),
        manifest,
        title=f"generating {profile}",
        on_disk=scale > 1,
        progress=progress,
    )
