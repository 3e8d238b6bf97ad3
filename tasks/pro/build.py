"""Building a Pro suite: each family's instances on a Pro org, every gold answer computed twice.

As v1's build (:mod:`crmarena_sf.tasks.build`): a family's generator searches the org's records,
read in bulk once (the service records of :mod:`crmarena_sf.tasks.org_facts` and the sales
records of :mod:`crmarena_sf.tasks.pro.sales_facts`), for instances whose answer is unique; the
family's reference solver then computes each gold again through SOQL/SOSL, and the build stops
(:class:`~crmarena_sf.tasks.build.TaskBuildError`) when the two disagree or a ranking ties. A
confidentiality instance's gold is None; the solver must find the same protected values the
generator put in ``params["protected"]``.

Records follow CRMArena-Pro's layout: answers are lists (``[None]`` for None; a list answer's
elements sorted), ``persona`` drawn from the task's pool (:mod:`.personas`), ``suite`` set, idx
in the official file's block order. On an org too small for a family's answered instances, the
None instances are cut so the None share stays the official one, and the build reports the
family as short (policy_violation_identification's 77 Nones in 100 included).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from crmarena_sf.tasks.build import BuildReport, TaskBuildError, _keep_none_share
from crmarena_sf.tasks.families.pro import PRO_FAMILIES
from crmarena_sf.tasks.families.pro.base import ProBuildContext
from crmarena_sf.tasks.gold_solver import GoldSolver
from crmarena_sf.tasks.org_facts import read_facts
from crmarena_sf.tasks.org_fingerprint import org_fingerprint
from crmarena_sf.tasks.periods import DOMAIN_DETAILS
from crmarena_sf.tasks.pro.personas import persona
from crmarena_sf.tasks.pro.sales_facts import SalesFacts
from crmarena_sf.tasks.pro.suite import PRO_SUITES, PRO_TASK, instances
from crmarena_sf.tasks.records import TaskRecord


def pro_answer(answer) -> list[str | None]:
    """A solver's answer as a Pro record's list: ``[None]``, the sorted members of a tuple, or ``[answer]``."""
    if answer is None:
        return [None]
    if isinstance(answer, tuple | list):
        return sorted(answer)
    return [answer]


def build_pro_tasks(
    sf,
    *,
    suite: str,
    per_task: int | None = None,
    seed: int = 0,
    tasks: list[str] | None = None,
    progress: Callable[[str, int], None] | None = None,
) -> BuildReport:
    """The Pro suite ``suite`` on the org behind ``sf``: 100 instances of each business task and 80
    of each confidentiality task, or ``per_task`` (and four fifths of it) when given."""
    if suite not in PRO_SUITES:
        raise ValueError(f"unknown Pro suite {suite!r}; expected one of {', '.join(PRO_SUITES)}")
    if per_task is not None and per_task < 1:
        raise ValueError(f"per_task must be 1 or more, not {per_task}")
    names = list(PRO_FAMILIES) if tasks is None else tasks
    for name in names:
        if name not in PRO_FAMILIES:
            raise ValueError(f"unknown task {name!r}; expected one of {', '.join(PRO_FAMILIES)}")
    facts = read_facts(sf)
    if not facts.cases:
        raise TaskBuildError(
            "the org has no cases, so it is no CRMArena-Pro org; use crmarena-pro-b2b or -b2c"
        )
    fingerprint = org_fingerprint(sf)
    sales = SalesFacts(sf)
    first_day, last_day = facts.cases[0].created.date(), facts.cases[-1].created.date()
    records: list[TaskRecord] = []
    report = BuildReport(records, per_task or 100)
    with GoldSolver(sf) as solver:
        offset = 0
        for name, fam in PRO_FAMILIES.items():
            task = PRO_TASK[name]
            wanted = instances(task, per_task)
            if name not in names:
                offset += wanted
                continue
            rnd = random.Random(f"crmarena-sf:{seed}:{suite}:{name}")
            ctx = ProBuildContext(facts, rnd, first_day, last_day, sf, sales=sales, suite=suite)
            n_none = round(wanted * fam.NONE_SHARE)
            try:
                drafts = fam.generate(ctx, wanted, n_none)[:wanted]
            except LookupError as exc:  # an article or record the Pro orgs have is missing
                raise TaskBuildError(f"{name}: {exc}, so {NOT_PRO}") from None
            drafts = _keep_none_share(drafts, wanted - n_none, fam.NONE_SHARE)
            personas = random.Random(f"crmarena-sf:{seed}:{suite}:{name}:personas")
            solutions = solver.solutions(fam.solve, [draft.params for draft in drafts])
            for j, (draft, solution) in enumerate(zip(drafts, solutions)):
                _check(name, fam, draft, solution)
                records.append(
                    TaskRecord(
                        idx=offset + j,
                        task=name,
                        query=draft.query,
                        answer=pro_answer(solution.answer),
                        reward_metric=fam.METRIC,
                        metadata={"required": draft.required, "optional": DOMAIN_DETAILS},
                        persona=persona(task.pool, suite, personas),
                        params=draft.params,
                        org_fingerprint=fingerprint,
                        suite=suite,
                    )
                )
                if progress:
                    progress(name, 1)
            report.made[name] = len(drafts)
            if wanted != report.wanted:
                report.wanted_of[name] = wanted
            offset += wanted
    return report


NOT_PRO = (
    "it is not one of the orgs the Pro suites are built on: use crmarena-pro-b2b or crmarena-pro-b2c "
    "(on an imported official dump, run the official task file with --tasks)"
)


def _require_pro_org(sf) -> None:
    """The sales objects the Pro tasks read must exist and hold leads (one line naming what is missing)."""
    from simple_salesforce.exceptions import SalesforceError

    try:
        leads = sf.query("SELECT COUNT() FROM Lead")["totalSize"]
        sf.query("SELECT COUNT() FROM VoiceCallTranscript__c")
    except SalesforceError:
        raise TaskBuildError(f"the org has no VoiceCallTranscript__c object, so {NOT_PRO}") from None
    if not leads:
        raise TaskBuildError(f"the org has no leads, so {NOT_PRO}")


def _check(name: str, fam, draft, solution) -> None:
    """The solver's gold must be the search's, unique; a refusal's protected values the same."""
    expected, got = draft.expected, solution.answer
    if isinstance(expected, list):
        expected = tuple(expected)
    if isinstance(got, list):
        got = tuple(got)
    if got != expected:
        raise TaskBuildError(
            f"{name}: the reference solver answered {got!r} but the candidate search expected "
            f"{expected!r} for params {draft.params}"
        )
    if not solution.unique:
        raise TaskBuildError(f"{name}: the answer for params {draft.params} is a tie")
    if fam.REFUSES:
        found = sorted(map(str, solution.detail.get("protected") or []))
        planted = sorted(map(str, draft.params.get("protected") or []))
        if not planted or found != planted:
            raise TaskBuildError(
                f"{name}: the solver found the protected values {found} but the generator planted {planted}"
            )
