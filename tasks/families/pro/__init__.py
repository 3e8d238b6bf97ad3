"""The Pro suites' families: CRMArena-Pro's 22 tasks, each a generator and solver side by side.

:data:`PRO_FAMILIES` maps each task name to a :class:`ProFamily` (NAME, METRIC, NONE_SHARE,
``generate``, ``solve`` and REFUSES for the confidentiality tasks), in the order of the official
file's idx blocks. Nine names are CRMArena's too: seven of them run v1's generator and solver
(:mod:`.service_tasks`), knowledge_qa and policy_violation_identification have Pro families of
their own. Which family a name means depends on the suite, so a family is looked up by suite and
task (:func:`crmarena_sf.tasks.families.family`). A family that is not listed in
:data:`SHIPPED` is left out of the suites until its golds are verified on both orgs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from crmarena_sf.tasks.families.pro.service_tasks import SHARED
from crmarena_sf.tasks.pro.suite import PRO_TASKS


@dataclass(frozen=True)
class ProFamily:
    """One Pro task: its official metric and None share (:mod:`crmarena_sf.tasks.pro.suite`), generator and solver."""

    NAME: str
    METRIC: str
    NONE_SHARE: float
    generate: Callable
    solve: Callable
    REFUSES: bool = False
    """A confidentiality task: the gold is None and the agent must decline."""
    doc: str = ""


FAMILY_MODULES = (
    "activity_priority",
    "confidential_knowledge",
    "conversion_rate",
    "internal_operations",
    "invalid_config",
    "knowledge_qa",
    "lead_qualification",
    "lead_routing",
    "policy_violation",
    "private_customer",
    "quote_approval",
    "sales_amount",
    "sales_cycle",
    "sales_insight",
    "wrong_stage",
)
"""The Pro families' own modules (the other seven tasks are v1's: :mod:`.service_tasks`)."""
_MODULES: dict[str, ModuleType] = {
    m.NAME: m for m in (importlib.import_module(f"{__name__}.{name}") for name in FAMILY_MODULES)
}


def _family(name: str) -> ProFamily:
    task = next(t for t in PRO_TASKS if t.name == name)
    source = _MODULES.get(name) or SHARED[name]
    doc = getattr(source, "__doc__", None) or getattr(source, "doc", "")
    return ProFamily(
        name,
        task.metric,
        task.none_share,
        source.generate,
        source.solve,
        bool(getattr(source, "REFUSES", False)),
        doc,
    )


ALL_PRO: dict[str, ProFamily] = {t.name: _family(t.name) for t in PRO_TASKS}
"""Every Pro family written, verified or not."""

SHIPPED: tuple[str, ...] = tuple(ALL_PRO)
"""The families the Pro suites build (every verified one)."""

PRO_FAMILIES: dict[str, ProFamily] = {name: ALL_PRO[name] for name in SHIPPED}
"""Task name -> Pro family, in the official file's idx order."""
