"""The task families of every suite: CRMArena's nine, the text-to-SOQL track and CRMArena-Pro's 22.

Each v1 module defines NAME, PERSONA, METRIC, NONE_SHARE (the share of None answers, 39 of 130
where CRMArena has them), ``generate(ctx, n, n_none)`` and ``solve(client, params)``; the Pro
families (:mod:`.pro`) have the same shape. Nine task names exist in both CRMArena and
CRMArena-Pro, with different policies on different orgs, so a family is looked up by suite and
task (:func:`family`); a record carries its suite (:mod:`crmarena_sf.tasks.records`).
"""

from __future__ import annotations

from types import ModuleType

from crmarena_sf.tasks.families import (
    best_region,
    case_routing,
    handle_time,
    knowledge_qa,
    monthly_trend,
    named_entity,
    policy_violation,
    soql_generation,
    top_issue,
    transfer_count,
)

FAMILIES: dict[str, ModuleType] = {
    m.NAME: m
    for m in (
        knowledge_qa,
        monthly_trend,
        top_issue,
        case_routing,
        named_entity,
        handle_time,
        transfer_count,
        policy_violation,
        best_region,
    )
}
"""Task name -> family module, in CRMArena's idx order (KQA 0-129, MTA 130-259, ...)."""

from crmarena_sf.tasks.families.pro import PRO_FAMILIES  # noqa: E402  (its families import v1's)
from crmarena_sf.tasks.pro.suite import PRO_LABEL, PRO_SUITES, is_pro  # noqa: E402

SUITES: dict[str, dict] = {
    "crmarena": FAMILIES,
    "soql": {soql_generation.NAME: soql_generation},
    **{suite: PRO_FAMILIES for suite in PRO_SUITES},
}
"""Task suites: CRMArena's nine tasks, the text-to-SOQL track, and CRMArena-Pro's tasks on its two orgs."""

ALL_FAMILIES: dict = {
    **{name: m for name, m in FAMILIES.items()},
    soql_generation.NAME: soql_generation,
    **{name: m for name, m in PRO_FAMILIES.items() if name not in FAMILIES},
}
"""Every task name of every suite, in report order (a name both suites use: v1's family; see :func:`family`)."""

RAW_NAMES = {"seasonality_identification": "monthly_trend_analysis", "transfer_time": "transfer_count"}
"""Names the original task files used before the published ones."""


def family(name: str, suite: str | None = None):
    """The family of task ``name`` (published or raw CRMArena name) in ``suite``.

    ``suite`` None means a v1 name's v1 family; a Pro suite (or an official Pro file's label)
    means the Pro family, for the nine names CRMArena and CRMArena-Pro share too."""
    name = RAW_NAMES.get(name, name)
    pool = PRO_FAMILIES if is_pro(suite) else ALL_FAMILIES
    try:
        return pool[name]
    except KeyError:
        raise ValueError(f"unknown task {name!r}; expected one of {', '.join(pool)}") from None


__all__ = ["ALL_FAMILIES", "FAMILIES", "PRO_LABEL", "RAW_NAMES", "SUITES", "family"]
