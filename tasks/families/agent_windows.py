"""What the handle-time and transfer-count tasks share: which agents qualify in a period.

Both policies (CRMArena's text, kept in :data:`QUALIFICATION`) say that "agents who managed
x cases" counts the cases *first* assigned to the agent: 'Owner Assignment' history rows
with no previous owner, dated in the period. CRMArena's own solver counted every assignment,
transfers in included, contradicting that text; these solvers follow the text. An agent
qualifies with at least ``min_cases`` such cases.
"""

from __future__ import annotations

from collections import Counter

from crmarena_sf.tasks.families.base import BuildContext
from crmarena_sf.tasks.org_client import OrgClient, soql_datetime
from crmarena_sf.tasks.periods import parse_iso

QUALIFICATION = (
    "- In questions about agents who managed x cases, only the cases first assigned to the agent count: "
    "an agent with 2 cases assigned to them at creation and 1 case transferred to them from another agent "
    "managed 2 cases.\n"
    "- A case that was NOT transferred has exactly ONE 'Owner Assignment' history record; a transferred case "
    "has MORE THAN ONE. A case's history record that assigns it to a new agent has that agent in NewValue__c "
    "and the previous agent (if any) in OldValue__c."
)


def window_filter(params: dict) -> str:
    return (
        f"CreatedDate >= {soql_datetime(parse_iso(params['start']))} "
        f"AND CreatedDate < {soql_datetime(parse_iso(params['end']))}"
    )


def qualified_agents(client: OrgClient, params: dict) -> list[str]:
    """Agents with at least ``min_cases`` first assignments in [start, end), by Id."""
    rows = client.query(
        "SELECT NewValue__c, COUNT(Id) n FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' "
        f"AND OldValue__c = NULL AND {window_filter(params)} GROUP BY NewValue__c"
    )
    return sorted(r["NewValue__c"] for r in rows if r["n"] >= int(params["min_cases"]))


def qualified_in_memory(ctx: BuildContext, start, end, min_cases: int) -> list[str]:
    counts = Counter(a.new for a in ctx.facts.assignments_in(start, end) if a.old is None)
    return sorted(agent for agent, n in counts.items() if n >= min_cases)


def managed_phrase(min_cases: int, rnd) -> str:
    """ "who managed at least 3 cases" in varied words (what the min_cases parameter means)."""
    if min_cases == 1:
        return rnd.choice(
            ("who managed any cases", "who handled at least one case", "with at least one case")
        )
    return rnd.choice(
        (
            f"who managed at least {min_cases} cases",
            f"who handled {min_cases} or more cases",
            f"with at least {min_cases} cases",
            f"who managed more than {min_cases - 1} case{'s' if min_cases > 2 else ''}",
        )
    )
