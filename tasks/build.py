"""Building a task set: every family's instances with gold answers that are unique by construction.

For each family, its generator searches the org's records (read once, :mod:`crmarena_sf.tasks.org_facts`)
for instances whose answer is unique, and the family's reference solver then computes each
gold answer again through SOQL/SOSL. The two must agree: a disagreement is a bug in one of
them and stops the build (:class:`TaskBuildError`) instead of emitting a doubtful answer.
Seeds make the set deterministic: the same org, ``per_task`` and ``seed`` give the same file.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from crmarena_sf.tasks.families import SUITES
from crmarena_sf.tasks.families.base import PERSONAS, BuildContext
from crmarena_sf.tasks.gold_solver import GoldSolver
from crmarena_sf.tasks.org_facts import read_facts
from crmarena_sf.tasks.org_fingerprint import org_fingerprint
from crmarena_sf.tasks.periods import DOMAIN_DETAILS
from crmarena_sf.tasks.pro.suite import is_pro
from crmarena_sf.tasks.records import TaskRecord

DEFAULT_PER_TASK = 130


def default_per_task(suite: str) -> int:
    """Instances per task when none are asked for: CRMArena's 130, CRMArena-Pro's 100, or the SOQL track's 320."""
    from crmarena_sf.tasks.families.soql_generation import DEFAULT_INSTANCES

    if is_pro(suite):
        return 100
    return DEFAULT_PER_TASK if suite == "crmarena" else DEFAULT_INSTANCES


class TaskBuildError(RuntimeError):
    """The org cannot give a task set (no cases), or a solver disagreed with its generator."""


@dataclass
class BuildReport:
    records: list[TaskRecord]
    wanted: int
    made: dict[str, int] = field(default_factory=dict)
    """Task -> instances made (fewer than ``wanted`` when the org is too small)."""
    wanted_of: dict[str, int] = field(default_factory=dict)
    """Task -> instances wanted, where it differs from ``wanted`` (Pro's 80 confidentiality instances)."""

    @property
    def short(self) -> dict[str, int]:
        return {task: n for task, n in self.made.items() if n < self.wanted_of.get(task, self.wanted)}


def build_tasks(
    sf,
    *,
    per_task: int | None = None,
    seed: int = 0,
    tasks: list[str] | None = None,
    suite: str = "crmarena",
    progress: Callable[[str, int], None] | None = None,
) -> BuildReport:
    """Build ``per_task`` instances of each task of ``suite`` (all unless ``tasks`` names some) on the org behind ``sf``.

    ``per_task`` defaults to 130 for the ``crmarena`` suite (CRMArena's size) and to 320 for ``soql``;
    the Pro suites are built by :func:`crmarena_sf.tasks.pro.build.build_pro_tasks`.
    """
    if is_pro(suite):
        from crmarena_sf.tasks.pro.build import build_pro_tasks

        return build_pro_tasks(sf, suite=suite, per_task=per_task, seed=seed, tasks=tasks, progress=progress)
    if per_task is None:
        per_task = default_per_task(suite)
    if per_task < 1:
        raise ValueError(f"per_task must be 1 or more, not {per_task}")
    if suite not in SUITES:
        raise ValueError(f"unknown suite {suite!r}; expected one of {', '.join(SUITES)}")
    families = SUITES[suite]
    names = list(families) if tasks is None else tasks
    for name in names:
        if name not in families:
            raise ValueError(f"unknown task {name!r}; expected one of {', '.join(families)}")
    facts = read_facts(sf)
    fingerprint = org_fingerprint(sf)
    if not facts.cases:
        raise TaskBuildError(
            "the org has no cases, so no task can be asked about it; use an org with CRMArena data"
        )
    first_day, last_day = facts.cases[0].created.date(), facts.cases[-1].created.date()
    records: list[TaskRecord] = []
    report = BuildReport(records, per_task)
    with GoldSolver(sf) as solver:
        for block, (name, module) in enumerate(families.items()):
            if name not in names:
                continue
            ctx = BuildContext(facts, random.Random(f"crmarena-sf:{seed}:{name}"), first_day, last_day, sf)
            n_none = round(per_task * module.NONE_SHARE)
            drafts = _keep_none_share(
                module.generate(ctx, per_task, n_none), per_task - n_none, module.NONE_SHARE
            )
            solutions = solver.solutions(module.solve, [draft.params for draft in drafts])
            for j, (draft, solution) in enumerate(zip(drafts, solutions)):
                if solution.answer != draft.expected:
                    raise TaskBuildError(
                        f"{name}: the reference solver answered {solution.answer!r} but the candidate search "
                        f"expected {draft.expected!r} for params {draft.params}"
                    )
                if not solution.unique:
                    raise TaskBuildError(f"{name}: the answer for params {draft.params} is a tie")
                records.append(
                    TaskRecord(
                        idx=block * per_task + j,
                        task=name,
                        query=draft.query,
                        answer=solution.answer,
                        reward_metric=module.METRIC,
                        metadata={"required": draft.required, "optional": DOMAIN_DETAILS},
                        persona=PERSONAS[module.PERSONA],
                        params=draft.params,
                        org_fingerprint=fingerprint,
                    )
                )
                if progress:
                    progress(name, 1)
            report.made[name] = len(drafts)
    return report


def _keep_none_share(drafts: list, wanted_answered: int, share: float) -> list:
    """On an org too small for every answered instance, drop None instances so their share stays CRMArena's."""
    answered = sum(1 for d in drafts if d.expected is not None)
    if answered >= wanted_answered or share >= 1:
        return drafts
    # No answered instance (say, no planted violation in an imported org): no None-only set either.
    allowed = round(answered * share / (1 - share))
    out, nones = [], 0
    for draft in drafts:
        if draft.expected is None:
            if nones >= allowed:
                continue
            nones += 1
        out.append(draft)
    return out
