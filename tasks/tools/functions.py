"""CRMArena's helper tools, implemented on the adapter: each reads the org through simple-salesforce.

Names, parameters and return shapes are those of CRMArena's ``crm_sandbox/env/functions.py``
(SalesforceAIResearch/CRMArena), so trajectories compare with the published ones. Where the
original tools contradict the task policies, these follow the policies exactly as the gold
solvers of :mod:`crmarena_sf.tasks.families` do, so an agent that uses the tools faithfully can score 100:

- periods are half-open, [start_date, end_date) (the original mixed inclusive and exclusive ends);
- ``get_agent_handled_cases_by_period`` counts the cases first assigned to each agent
  (the policies' "managed"), not every assignment;
- ``get_non_transferred_case_ids`` returns cases first assigned in the period that were
  never transferred, whenever the transfer happened;
- SOSL search terms are escaped (an apostrophe broke the original's searches);
- ``get_purchase_history`` takes a date (``YYYY-MM-DD``, as its schema always said) or a datetime.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from typing import Any

from crmarena_sf.tasks import periods
from crmarena_sf.tasks.org_client import OrgClient, quote, quote_list, soql_datetime, sosl_escape

PERIOD_UNITS = ("day", "week", "month", "quarter")


def _moment(value: Any, name: str) -> dt.datetime:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a date-time string like 2023-04-01T00:00:00Z, not {value!r}")
    try:
        return periods.parse_iso(value)
    except ValueError:
        raise ValueError(
            f"{name} must be a date-time string like 2023-04-01T00:00:00Z, not {value!r}"
        ) from None


def _window(start_date: Any, end_date: Any) -> str:
    start, end = _moment(start_date, "start_date"), _moment(end_date, "end_date")
    return f"CreatedDate >= {soql_datetime(start)} AND CreatedDate < {soql_datetime(end)}"


def _ids(values: Any, name: str) -> list[str]:
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ValueError(f"{name} must be a list of Id strings")
    return values


def _cases(values: Any, name: str, *fields: str) -> list[dict]:
    if not isinstance(values, list) or not all(isinstance(v, dict) for v in values):
        raise ValueError(f"{name} must be a list of case records (dicts)")
    for field in fields:
        for v in values:
            if field not in v:
                raise ValueError(f"every record of {name} needs {field}")
    return values


def get_agents_with_max_cases(client: OrgClient, subset_cases: list) -> list[str]:
    counts = Counter(c["OwnerId"] for c in _cases(subset_cases, "subset_cases", "OwnerId"))
    top = max(counts.values(), default=None)
    return [a for a, n in counts.items() if n == top]


def get_agents_with_min_cases(client: OrgClient, subset_cases: list) -> list[str]:
    counts = Counter(c["OwnerId"] for c in _cases(subset_cases, "subset_cases", "OwnerId"))
    low = min(counts.values(), default=None)
    return [a for a, n in counts.items() if n == low]


def calculate_average_handle_time(client: OrgClient, cases: list) -> dict[str, float]:
    minutes = defaultdict(list)
    for c in _cases(cases, "cases", "OwnerId", "CreatedDate", "ClosedDate"):
        if c["ClosedDate"]:
            span = periods.parse_iso(c["ClosedDate"]) - periods.parse_iso(c["CreatedDate"])
            minutes[c["OwnerId"]].append(span.total_seconds() / 60)
    return {a: sum(v) / len(v) for a, v in minutes.items()}


def get_start_date(client: OrgClient, end_date: str, period: str, interval_count: int) -> str:
    end = _moment(end_date, "end_date")
    if period not in PERIOD_UNITS:
        raise ValueError(f"period must be one of {', '.join(PERIOD_UNITS)}, not {period!r}")
    if not isinstance(interval_count, int) or interval_count < 0:
        raise ValueError(f"interval_count must be a whole number >= 0, not {interval_count!r}")
    start = periods.shift(end.date(), period, -interval_count)
    return periods.iso(dt.datetime.combine(start, end.time()))


def get_period(client: OrgClient, period_name: str, year: int) -> dict[str, str]:
    if not isinstance(year, int):
        raise ValueError(f"year must be a whole number, not {year!r}")
    name = str(period_name).strip()
    title = name.title()
    if title in periods.MONTHS:
        window = periods.month(year, periods.MONTHS.index(title) + 1)
    elif name.upper() in ("Q1", "Q2", "Q3", "Q4"):
        window = periods.quarter(year, int(name[1]))
    elif title in periods.SEASONS or title == "Autumn":
        window = periods.season(year, "Fall" if title == "Autumn" else title)
    else:
        raise ValueError(f"period_name must be a month name, Q1-Q4 or a season, not {period_name!r}")
    start, end = window.iso()
    return {"start_date": start, "end_date": end}


def get_agent_handled_cases_by_period(client: OrgClient, start_date: str, end_date: str) -> dict[str, int]:
    rows = client.query(
        "SELECT NewValue__c, COUNT(Id) n FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' "
        f"AND OldValue__c = NULL AND {_window(start_date, end_date)} GROUP BY NewValue__c"
    )
    return {r["NewValue__c"]: r["n"] for r in rows}


def get_qualified_agent_ids_by_case_count(
    client: OrgClient, agent_handled_cases: dict, n_cases: int
) -> list[str]:
    if not isinstance(agent_handled_cases, dict):
        raise ValueError("agent_handled_cases must be an object of agent Id -> number of cases")
    if not isinstance(n_cases, int):
        raise ValueError(f"n_cases must be a whole number, not {n_cases!r}")
    return [a for a, n in agent_handled_cases.items() if isinstance(n, int | float) and n > n_cases]


def get_cases(
    client: OrgClient,
    start_date: str,
    end_date: str,
    agent_ids: list | None = None,
    case_ids: list | None = None,
    order_item_ids: list | None = None,
    issue_ids: list | None = None,
    statuses: list | None = None,
) -> list[dict]:
    where = [_window(start_date, end_date)]
    for field, values, name in (
        ("OwnerId", agent_ids, "agent_ids"),
        ("Id", case_ids, "case_ids"),
        ("OrderItemId__c", order_item_ids, "order_item_ids"),
        ("IssueId__c", issue_ids, "issue_ids"),
        ("Status", statuses, "statuses"),
    ):
        if values is None:
            continue  # no filter; an empty list filters everything out
        chosen = _ids(values, name)
        if not chosen:
            return []
        where.append(f"{field} IN {quote_list(chosen)}")
    return client.query(
        f"SELECT OwnerId, CreatedDate, ClosedDate, AccountId FROM Case WHERE {' AND '.join(where)}"
    )


def get_non_transferred_case_ids(client: OrgClient, start_date: str, end_date: str) -> list[str]:
    first = client.query(
        "SELECT CaseId__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND OldValue__c = NULL "
        f"AND {_window(start_date, end_date)}"
    )
    # Two queries: SOQL refuses a semi-join whose inner and outer selects are on the same object.
    moved = client.query(
        "SELECT CaseId__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND OldValue__c != NULL"
    )
    transferred = {r["CaseId__c"] for r in moved}
    return [r["CaseId__c"] for r in first if r["CaseId__c"] not in transferred]


def get_agent_transferred_cases_by_period(
    client: OrgClient, start_date: str, end_date: str, qualified_agent_ids: list | None = None
) -> dict[str, int]:
    rows = client.query(
        "SELECT OldValue__c, COUNT(Id) n FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' "
        f"AND OldValue__c != NULL AND {_window(start_date, end_date)} GROUP BY OldValue__c"
    )
    counts = {r["OldValue__c"]: r["n"] for r in rows}
    if qualified_agent_ids is None:
        return counts
    return {a: counts.get(a, 0) for a in _ids(qualified_agent_ids, "qualified_agent_ids")}


def get_shipping_state(client: OrgClient, cases: list) -> list[dict]:
    cases = _cases(cases, "cases", "AccountId")
    accounts = sorted({c["AccountId"] for c in cases if c["AccountId"]})
    states = {}
    for i in range(0, len(accounts), 300):
        chunk = accounts[i : i + 300]
        states.update(
            {
                r["Id"]: r["ShippingState"]
                for r in client.query(
                    f"SELECT Id, ShippingState FROM Account WHERE Id IN {quote_list(chunk)}"
                )
            }
        )
    return [{**c, "ShippingState": states.get(c["AccountId"])} for c in cases]


def calculate_region_average_closure_times(client: OrgClient, cases: list) -> dict[str, float]:
    seconds = defaultdict(list)
    for c in _cases(cases, "cases", "ShippingState", "CreatedDate", "ClosedDate"):
        if c["ShippingState"] and c["ClosedDate"]:
            span = periods.parse_iso(c["ClosedDate"]) - periods.parse_iso(c["CreatedDate"])
            seconds[c["ShippingState"]].append(span.total_seconds())
    return {s: sum(v) / len(v) for s, v in seconds.items()}


def get_order_item_ids_by_product(client: OrgClient, product_id: str) -> list[str]:
    return [
        r["Id"] for r in client.query(f"SELECT Id FROM OrderItem WHERE Product2Id = {quote(str(product_id))}")
    ]


def get_issue_counts(
    client: OrgClient, start_date: str, end_date: str, order_item_ids: list
) -> dict[str, int]:
    items = _ids(order_item_ids, "order_item_ids")
    if not items:
        raise ValueError("order_item_ids must be a non-empty list of OrderItem Ids")
    counts: Counter = Counter()
    for i in range(0, len(items), 300):
        rows = client.query(
            f"SELECT IssueId__c, COUNT(Id) n FROM Case WHERE OrderItemId__c IN {quote_list(items[i : i + 300])} "
            f"AND {_window(start_date, end_date)} GROUP BY IssueId__c"
        )
        counts.update({r["IssueId__c"]: r["n"] for r in rows})
    return dict(counts)


def find_id_with_max_value(client: OrgClient, values_by_id: dict) -> list[str] | None:
    if not isinstance(values_by_id, dict):
        raise ValueError("values_by_id must be an object of Id -> number")
    if not values_by_id:
        return None
    top = max(values_by_id.values())
    return [k for k, v in values_by_id.items() if v == top]


def find_id_with_min_value(client: OrgClient, values_by_id: dict) -> list[str] | None:
    if not isinstance(values_by_id, dict):
        raise ValueError("values_by_id must be an object of Id -> number")
    if not values_by_id:
        return None
    low = min(values_by_id.values())
    return [k for k, v in values_by_id.items() if v == low]


def get_account_id_by_contact_id(client: OrgClient, contact_id: str) -> str | None:
    rows = client.query(f"SELECT AccountId FROM Contact WHERE Id = {quote(str(contact_id))} LIMIT 1")
    return rows[0]["AccountId"] if rows else None


def get_purchase_history(
    client: OrgClient, account_id: str, purchase_date: str, related_product_ids: list
) -> list[dict]:
    products = _ids(related_product_ids, "related_product_ids")
    if not products:
        return []
    day = _moment(purchase_date, "purchase_date").date()
    return client.query(
        f"SELECT Product2Id FROM OrderItem WHERE Order.AccountId = {quote(str(account_id))} "
        f"AND Order.EffectiveDate = {day.isoformat()} AND Product2Id IN {quote_list(products)} "
        "AND Order.Status = 'Activated'"
    )


def get_month_to_case_count(client: OrgClient, cases: list) -> dict[str, int]:
    counts: Counter = Counter()
    for c in _cases(cases, "cases", "CreatedDate"):
        counts[periods.MONTHS[periods.parse_iso(c["CreatedDate"]).month - 1]] += 1
    return dict(counts)


def search_knowledge_articles(client: OrgClient, search_term: str) -> list[dict]:
    rows = client.search(
        f"FIND {{{sosl_escape(str(search_term))}}} IN ALL FIELDS RETURNING Knowledge__kav"
        "(Id, Title, FAQ_Answer__c WHERE PublishStatus = 'Online' AND Language = 'en_US')"
    )
    return [{"Id": r["Id"], "Title": r["Title"], "Content": r["FAQ_Answer__c"]} for r in rows]


def search_products(client: OrgClient, search_term: str) -> list[dict]:
    rows = client.search(
        f"FIND {{{sosl_escape(str(search_term))}}} IN ALL FIELDS RETURNING Product2(Id, Name, Description)"
    )
    return [{"Id": r["Id"], "Name": r["Name"], "Description": r["Description"]} for r in rows]


def get_issues(client: OrgClient) -> list[dict]:
    return client.query("SELECT Id, Name FROM Issue__c")


def get_livechat_transcript_by_case_id(client: OrgClient, case_id: str) -> list[dict]:
    return client.query(f"SELECT Body, EndTime FROM LiveChatTranscript WHERE CaseId = {quote(str(case_id))}")


def get_email_messages_by_case_id(client: OrgClient, case_id: str) -> list[dict]:
    return client.query(
        "SELECT Subject, TextBody, FromAddress, ToAddress, MessageDate FROM EmailMessage "
        f"WHERE ParentId = {quote(str(case_id))}"
    )
