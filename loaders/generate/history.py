"""Case and CaseHistory__c: the planned cases as records, and each case's life as history rows.

A case's history (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db): 'Case Creation' at CreatedDate; 'Owner Assignment' to
the first owner at CreatedDate (OldValue__c null) and one per transfer (OldValue__c and
NewValue__c the previous and new owner's User Id); 'Case Closed' at ClosedDate for closed
cases. Case.OwnerId is the latest owner. History rows are numbered in event order.
"""

from __future__ import annotations

from crmarena_sf.emulator.store.derive import AUTONUMBER_FORMATS
from crmarena_sf.loaders.generate.case_text import case_text
from crmarena_sf.loaders.generate.context import Context, audit_sql, autonumber, from_secs, secs, ts

CREATION, ASSIGNMENT, CLOSED = "Case Creation", "Owner Assignment", "Case Closed"


def write_case_texts(ctx: Context) -> None:
    """Each case's Subject and Description (kept in the plan: emails and chats quote them)."""
    rnd = ctx.rng("case-text")
    cases, catalog = ctx.plan["cases"], ctx.plan["catalog"]
    order_day = cases.order_day = _order_days(ctx)
    subjects, descriptions = [], []
    for k in range(len(cases)):
        subject, description = case_text(
            rnd, cases.issue[k], catalog.names[cases.product[k]], order_day[k], cases.created[k]
        )
        subjects.append(subject)
        descriptions.append(description)
    cases.subject, cases.description = subjects, descriptions


def write_cases(ctx: Context) -> None:
    cases, agents = ctx.plan["cases"], ctx.plan["agents"]
    subjects, descriptions = cases.subject, cases.description
    ctx.stage(
        "raw_case",
        {
            "n": ("BIGINT", list(range(1, len(cases) + 1))),
            "cust": ("BIGINT", [c + 1 for c in cases.customer]),
            "owner": ("VARCHAR", [agents.ids[cases.owner(k)] for k in range(len(cases))]),
            "item": ("BIGINT", cases.order_item),
            "issue": ("BIGINT", [i + 1 for i in cases.issue]),
            "status": ("VARCHAR", cases.status),
            "priority": ("VARCHAR", cases.priority),
            "origin": ("VARCHAR", ["Web" if chat else "Email" for chat in cases.chat]),
            "subject": ("VARCHAR", subjects),
            "description": ("VARCHAR", descriptions),
            "created": ("BIGINT", [secs(c) for c in cases.created]),
            "closed": ("BIGINT", [secs(c) if c else None for c in cases.closed]),
            "modified": (
                "BIGINT",
                [
                    secs(max(t for t, _ in a) if c is None else c)
                    for a, c in zip(cases.assignments, cases.closed)
                ],
            ),
        },
    )
    digits, first = AUTONUMBER_FORMATS.get(("Case", "CaseNumber"), (8, 1))
    ctx.write(
        "Case",
        f'SELECT {ctx.sql_id("Case", "n")} AS "Id", '
        f'{autonumber(f"n + {first - 1}", digits)} AS "CaseNumber", '
        f'{ctx.sql_id("Contact", "cust")} AS "ContactId", {ctx.sql_id("Account", "cust")} AS "AccountId", '
        'status AS "Status", origin AS "Origin", subject AS "Subject", priority AS "Priority", '
        'description AS "Description", status = \'Closed\' AS "IsClosed", {closed} AS "ClosedDate", '
        'status = \'Escalated\' AS "IsEscalated", owner AS "OwnerId", '
        f"{audit_sql(ts('created'), ts('modified'))}, "
        f'{ctx.sql_id("OrderItem", "item")} AS "OrderItemId__c", {ctx.sql_id("Issue__c", "issue")} AS "IssueId__c" '
        "FROM raw_case ORDER BY n".format(closed=ts("closed")),
    )
    _write_history(ctx)


def _order_days(ctx: Context) -> list:
    """The order date of each case's order item (for the case text)."""
    cases = ctx.plan["cases"]
    rows = ctx.writer.con.execute(
        "SELECT i.n, DATE '0001-01-01' + (o.day - 1) FROM raw_order_item i JOIN raw_order o ON o.n = i.ord "
        "WHERE i.n IN (SELECT unnest(?::BIGINT[]))",
        [cases.order_item],
    ).fetchall()
    by_item = dict(rows)
    return [by_item[i] for i in cases.order_item]


def _write_history(ctx: Context) -> None:
    cases, agents = ctx.plan["cases"], ctx.plan["agents"]
    events: list[tuple[int, int, int, str, str | None, str | None]] = []
    for k in range(len(cases)):
        created = secs(cases.created[k])
        events.append((created, k, 0, CREATION, None, None))
        previous = None
        for step, (when, agent) in enumerate(cases.assignments[k], start=1):
            new = agents.ids[agent]
            events.append((secs(when), k, step, ASSIGNMENT, previous, new))
            previous = new
        if cases.closed[k] is not None:
            events.append((secs(cases.closed[k]), k, 99, CLOSED, None, None))
    events.sort(key=lambda e: (e[0], e[1], e[2]))
    ctx.stage(
        "raw_history",
        {
            "n": ("BIGINT", list(range(1, len(events) + 1))),
            "event_at": ("BIGINT", [e[0] for e in events]),
            "case_n": ("BIGINT", [e[1] + 1 for e in events]),
            "field": ("VARCHAR", [e[3] for e in events]),
            "old": ("VARCHAR", [e[4] for e in events]),
            "new": ("VARCHAR", [e[5] for e in events]),
        },
    )
    digits = AUTONUMBER_FORMATS.get(("CaseHistory__c", "Name"), (8, 1))[0]
    ctx.write(
        "CaseHistory__c",
        f'SELECT {ctx.sql_id("CaseHistory__c", "n")} AS "Id", {autonumber("n", digits)} AS "Name", '
        f'{audit_sql(ts("event_at"), owner=True)}, {ctx.sql_id("Case", "case_n")} AS "CaseId__c", '
        'old AS "OldValue__c", new AS "NewValue__c", field AS "Field__c" FROM raw_history ORDER BY n',
    )
    ctx.plan["first_event"] = from_secs(events[0][0]) if events else None
