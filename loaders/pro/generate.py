"""The seeded generator of CRMArena-Pro's two orgs: ``generate_pro(out, profile="b2b"|"b2c", seed=...)``.

Steps run in dependency order, each in its own module: the domain's latent product profiles,
users, catalog, territories, accounts, leads (and the contacts conversions make), deals
(opportunities, line items, contracts, orders), quotes, the lead-routing repair and territory
memberships, tasks and events, call transcripts, the service side (issues, cases, history),
case conversations and sales emails, knowledge articles; then the latent truth for the
manifest (:mod:`.truth`). The data is validated against the ``crmarena-pro`` schema before the
dataset directory appears; the same profile, scale and seed give a byte-identical dataset.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from crmarena_sf.loaders.generate.context import Context, run_steps
from crmarena_sf.loaders.pro import (
    activities,
    catalog,
    deals,
    knowledge,
    latent,
    leads,
    messages,
    people,
    profiles,
    quotes,
    service,
    territories,
    transcripts,
    truth,
)
from crmarena_sf.loaders.pro.domain import Domain
from crmarena_sf.loaders.pro.domain_b2b import DOMAIN as B2B
from crmarena_sf.loaders.pro.domain_b2c import DOMAIN as B2C
from crmarena_sf.loaders.pro.records import ProContext
from crmarena_sf.metadata import load_schema
from crmarena_sf.metadata.crmarena_pro import PROFILE as SCHEMA_PROFILE
from crmarena_sf.metadata.model import Schema

PRO_GENERATOR_VERSION = "1"
"""Bumped whenever the same seed and profile would give different data."""
DOMAINS: dict[str, Domain] = {"b2b": B2B, "b2c": B2C}
HOT_PRODUCTS = {"b2b": 8, "b2c": 10}


def pro_fingerprint() -> str:
    """A digest of the Pro generator's own source (and the shared helpers it uses)."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(
        [*here.glob("*.py"), *(here.parent / "generate").glob("*.py"), here.parent / "dataset.py"]
    ):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _setup(ctx: Context) -> None:
    """The domain and the product-level latent variables every later step reads."""
    domain: Domain = ctx.plan["domain"]
    rnd = ctx.rng("pro-products")
    sellable = [p for p, product in enumerate(domain.products) if product.active]
    core = [
        p
        for p in sellable
        if (
            domain.products[p].kind == "seat" if domain.business_accounts else domain.products[p].category < 4
        )
    ]
    profiles_ = latent.draw_product_profiles(rnd, core, len(domain.issues), HOT_PRODUCTS[domain.key])
    ctx.plan["product_profiles"] = profiles_
    popularity = {p: rnd.lognormvariate(0, 0.6) * (3.0 if p in profiles_.hot else 1.0) for p in sellable}
    ctx.plan["product_popularity"] = popularity


def _states(ctx: Context) -> None:
    """Closure-speed factors per state (the planted fastest state is chosen with the cases, :mod:`.service`)."""
    states = sorted(set(ctx.plan["accounts"].states))
    ctx.plan["state_factor"] = latent.draw_state_factors(ctx.rng("pro-states"), states)


def _tasks(ctx: Context) -> None:
    activities.plan_tasks(ctx)
    activities.write_tasks(ctx)
    activities.write_events(ctx)


def _calls(ctx: Context) -> None:
    transcripts.plan_calls(ctx)
    transcripts.write_calls(ctx)


def _cases(ctx: Context) -> None:
    service.write_issues(ctx)
    service.plan_cases(ctx)
    service.write_cases(ctx)


def _knowledge(ctx: Context) -> None:
    knowledge.plan_articles(ctx)
    knowledge.write_articles(ctx)


STEPS = (
    ("products", _setup),
    ("users", people.write_users),
    ("catalog", catalog.write_catalog),
    ("territories", territories.plan_territories),
    ("accounts", people.plan_accounts),
    ("leads", leads.plan_leads),
    ("states", _states),
    ("contacts", people.write_people),
    ("deals", deals.plan_deals),
    ("quotes", quotes.plan_quotes),
    ("lead records", leads.write_leads),
    ("deal records", deals.write_deals),
    ("quote records", quotes.write_quotes),
    ("lead routing", territories.repair_routing),
    ("tasks", _tasks),
    ("calls", _calls),
    ("cases", _cases),
    ("conversations", messages.write_conversations),
    ("knowledge", _knowledge),
)


def generate_pro(
    out: str | Path,
    *,
    profile: str = "b2b",
    seed: int = 0,
    scale: int = 1,
    progress: bool = False,
    schema: Schema | None = None,
) -> Path:
    """Generate the ``profile`` org (``b2b`` or ``b2c``) into the new directory ``out``.

    Raises ValueError for an unknown profile, bad scale or seed, and DatasetError when ``out``
    exists or cannot be written (nothing is left behind either way).
    """
    sizing = profiles.resolve(profile, scale)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, not {seed!r}")
    schema = schema or load_schema(SCHEMA_PROFILE)
    domain = DOMAINS[profile]

    def make_context(writer) -> ProContext:
        ctx = ProContext(seed, sizing, writer, schema)
        ctx.plan["domain"] = domain
        return ctx

    def manifest(ctx: Context) -> dict:
        return {
            "source": "generator",
            "generator": "crmarena-pro",
            "generator_version": PRO_GENERATOR_VERSION,
            "generator_fingerprint": pro_fingerprint(),
            "profile": profile,
            "schema": SCHEMA_PROFILE,
            "scale": sizing.scale,
            "seed": seed,
            "latent": truth.latent_truth(ctx),
        }

    return run_steps(
        out,
        schema,
        list(STEPS),
        make_context,
        manifest,
        title=f"generating {profile}",
        on_disk=sizing.scale > 1,
        progress=progress,
    )
