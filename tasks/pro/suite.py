"""CRMArena-Pro's task list: names, sizes, None shares, metrics, skills and askers.

The 22 names are the official ones (Hugging Face ``Salesforce/CRMArenaPro``, split ``b2b``),
in the order of that file's idx blocks (lead_qualification 0-99, monthly_trend_analysis
100-199, ...). Per org there are 100 instances of each of the 19 business tasks and 80 of each
of the 3 confidentiality tasks (2,140). The None shares are the official split's: 20 of 100 for
the tasks that have None answers, none for the five that do not (case_routing, lead_routing,
knowledge_qa, sales_insight_mining, monthly_trend_analysis), 77 of 100 for
policy_violation_identification, and every confidentiality instance (a refusal is expected).

The business skills are CRMArena-Pro's four (Workflow Execution, Policy Compliance,
Information Retrieval & Textual Reasoning, Database Querying & Numerical Computation); the
paper's per-task table could not be read, so each task's skill is this project's reading of
what the task asks (routing follows a procedure; the policy tasks ask which article a record
breaks; transcript and text tasks are retrieval; aggregates over periods are querying).
External-facing tasks (a customer asks) are the official ``EXTERNAL_FACING_TASKS``:
knowledge_qa, named_entity_disambiguation and the three confidentiality tasks.
"""

from __future__ import annotations

from dataclasses import dataclass

PRO_SUITES = ("pro-b2b", "pro-b2c")
"""The two buildable Pro suites; each runs on its own org."""
PRO_LABEL = "pro"
"""The suite of an official Pro task file read without ``--suite``: Pro's rules, its org not named."""
SUITE_ORGS = {"pro-b2b": "crmarena-pro-b2b", "pro-b2c": "crmarena-pro-b2c"}
"""Each Pro suite's default org."""

SKILLS = (
    ("WE", "Workflow Execution"),
    ("PC", "Policy Compliance"),
    ("IR", "Information Retrieval & Textual Reasoning"),
    ("DB", "Database Querying & Numerical Computation"),
    ("CONF", "Confidentiality Awareness"),
)


@dataclass(frozen=True)
class ProTask:
    name: str
    abbreviation: str
    skill: str
    """One of :data:`SKILLS`' keys."""
    metric: str
    none_share: float
    """Share of None answers in the official split (1.0: every instance expects a refusal)."""
    external: bool
    """A customer asks (the official EXTERNAL_FACING_TASKS); otherwise an employee."""
    pool: str
    """The persona pool: ``employee``, ``consumer`` or ``buyer`` (:mod:`.personas`)."""
    size: int = 100


def _task(
    name, abbreviation, skill, metric="exact_match", none=0.2, external=False, pool="employee", size=100
):
    return ProTask(name, abbreviation, skill, metric, none, external, pool, size)


PRO_TASKS: tuple[ProTask, ...] = (
    _task("lead_qualification", "LQ", "PC"),
    _task("monthly_trend_analysis", "MTA", "DB", none=0.0),
    _task("activity_priority", "AP", "IR"),
    _task("top_issue_identification", "TII", "DB"),
    _task("sales_insight_mining", "SIM", "IR", metric="fuzzy_match", none=0.0),
    _task("confidential_company_knowledge", "CCK", "CONF", "privacy_rejection", 1.0, True, "consumer", 80),
    _task("invalid_config", "IC", "PC"),
    _task("knowledge_qa", "KQA", "IR", metric="fuzzy_match", none=0.0, external=True, pool="consumer"),
    _task("sales_amount_understanding", "SAU", "DB"),
    _task("handle_time", "HTU", "DB"),
    _task("conversion_rate_comprehension", "CRC", "DB"),
    _task("best_region_identification", "BRI", "DB"),
    _task("transfer_count", "TCU", "DB"),
    _task("wrong_stage_rectification", "WSR", "IR"),
    _task("policy_violation_identification", "PVI", "PC", none=0.77),
    _task("case_routing", "NCR", "WE", none=0.0),
    _task("private_customer_information", "PCI", "CONF", "privacy_rejection", 1.0, True, "consumer", 80),
    _task("lead_routing", "LR", "WE", none=0.0),
    _task("quote_approval", "QA", "PC"),
    _task("internal_operation_data", "IOD", "CONF", "privacy_rejection", 1.0, True, "employee", 80),
    _task("named_entity_disambiguation", "NED", "IR", external=True, pool="buyer"),
    _task("sales_cycle_understanding", "SCU", "DB"),
)
"""The 22 tasks in the official file's block order."""

PRO_TASK: dict[str, ProTask] = {t.name: t for t in PRO_TASKS}
CONFIDENTIALITY = tuple(t.name for t in PRO_TASKS if t.skill == "CONF")
EXTERNAL_FACING = tuple(t.name for t in PRO_TASKS if t.external)


def instances(task: ProTask, per_task: int | None) -> int:
    """How many instances of ``task`` a build makes: the official size, or ``per_task`` for a
    business task and four fifths of it (at least one) for a confidentiality task."""
    if per_task is None:
        return task.size
    return per_task if task.size == 100 else max(1, round(per_task * task.size / 100))


def is_pro(suite: str | None) -> bool:
    """True for the Pro suites, and for an official Pro file read without naming its suite."""
    return suite in PRO_SUITES or suite == PRO_LABEL
