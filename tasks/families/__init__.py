"""The nine CRMArena task families, in the order of the official task file's idx blocks.

Each module defines NAME, PERSONA, METRIC, NONE_SHARE (the share of None answers, 39 of 130
where CRMArena has them), ``generate(ctx, n, n_none)`` and ``solve(client, params)``.
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

SUITES: dict[str, dict[str, ModuleType]] = {
    "crmarena": FAMILIES,
    "soql": {soql_generation.NAME: soql_generation},
}
"""Task suites: CRMArena's nine tasks, and the text-to-SOQL track."""

ALL_FAMILIES: dict[str, ModuleType] = {name: m for suite in SUITES.values() for name, m in suite.items()}
"""Every task family of every suite, in report order."""

RAW_NAMES = {"seasonality_identification": "monthly_trend_analysis", "transfer_time": "transfer_count"}
"""Names the original task files used before the published ones."""


def family(name: str) -> ModuleType:
    """The family of task ``name`` (published or raw CRMArena name)."""
    name = RAW_NAMES.get(name, name)
    try:
        return ALL_FAMILIES[name]
    except KeyError:
        raise ValueError(f"unknown task {name!r}; expected one of {', '.join(ALL_FAMILIES)}") from None
