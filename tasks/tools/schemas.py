"""The tools' JSON schemas for function calling, with CRMArena's names and parameters.

Descriptions are written for this implementation (half-open periods, what "handled" counts);
CRMArena's schema bugs are fixed: ``search_knowledge_articles`` requires the ``search_term``
it takes (the original declared ``keywords``), ``get_purchase_history`` documents the date it
accepts. Dates are strings ``YYYY-MM-DDTHH:MM:SSZ`` (UTC).
"""

from __future__ import annotations

from typing import Any

DATE = {"type": "string", "description": "a UTC date-time, YYYY-MM-DDTHH:MM:SSZ"}
IDS = {"type": "array", "items": {"type": "string"}}
CASES = {
    "type": "array",
    "items": {"type": "object"},
    "description": "case records as other tools return them",
}
VALUES = {"type": "object", "description": "Id -> number", "additionalProperties": {"type": "number"}}


def _tool(
    name: str, description: str, required: dict[str, Any], optional: dict[str, Any] | None = None
) -> dict:
    properties = {**required, **(optional or {})}
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": properties, "required": list(required)},
        },
    }


def _described(schema: dict, text: str) -> dict:
    return {**schema, "description": text}


HELPERS = [
    _tool(
        "get_agents_with_max_cases",
        "Agent (OwnerId) Ids tied for the most cases in the given list.",
        {"subset_cases": CASES},
    ),
    _tool(
        "get_agents_with_min_cases",
        "Agent (OwnerId) Ids tied for the fewest cases in the given list.",
        {"subset_cases": CASES},
    ),
    _tool(
        "calculate_average_handle_time",
        "Average handle time (ClosedDate - CreatedDate) in minutes per OwnerId of closed cases.",
        {"cases": _described(CASES, "cases with OwnerId, CreatedDate and ClosedDate")},
    ),
    _tool(
        "get_start_date",
        "The date-time interval_count periods before end_date (calendar arithmetic; a quarter is 3 months).",
        {
            "end_date": DATE,
            "period": {"type": "string", "enum": ["day", "week", "month", "quarter"]},
            "interval_count": {"type": "integer", "minimum": 0},
        },
    ),
    _tool(
        "get_period",
        "Start and end (exclusive) of a named period of a year: a month name, Q1-Q4, or Spring/Summer/Fall/Winter "
        "(the three months from March/June/September/December 1 of that year).",
        {"period_name": {"type": "string"}, "year": {"type": "integer"}},
    ),
    _tool(
        "get_agent_handled_cases_by_period",
        "Per agent, how many cases were first assigned to them (their 'Owner Assignment' without a previous "
        "owner) in [start_date, end_date).",
        {"start_date": DATE, "end_date": DATE},
    ),
    _tool(
        "get_qualified_agent_ids_by_case_count",
        "Agents whose case count is strictly greater than n_cases.",
        {"agent_handled_cases": VALUES, "n_cases": {"type": "integer"}},
    ),
    _tool(
        "get_cases",
        "Cases (OwnerId, CreatedDate, ClosedDate, AccountId) created in [start_date, end_date), optionally "
        "filtered by owners, case Ids, order items, issues and statuses.",
        {"start_date": DATE, "end_date": DATE},
        {"agent_ids": IDS, "case_ids": IDS, "order_item_ids": IDS, "issue_ids": IDS, "statuses": IDS},
    ),
    _tool(
        "get_non_transferred_case_ids",
        "Ids of cases first assigned in [start_date, end_date) that were never transferred to another agent.",
        {"start_date": DATE, "end_date": DATE},
    ),
    _tool(
        "get_agent_transferred_cases_by_period",
        "Per agent, how many times they transferred a case to another agent in [start_date, end_date); with "
        "qualified_agent_ids, exactly those agents (0 for none).",
        {"start_date": DATE, "end_date": DATE},
        {"qualified_agent_ids": IDS},
    ),
    _tool(
        "get_shipping_state",
        "The given cases, each with its account's ShippingState added.",
        {"cases": _described(CASES, "cases with AccountId")},
    ),
    _tool(
        "calculate_region_average_closure_times",
        "Average closure time in seconds per ShippingState of closed cases.",
        {"cases": _described(CASES, "cases with ShippingState, CreatedDate and ClosedDate")},
    ),
    _tool(
        "get_order_item_ids_by_product",
        "Ids of the order items of a product.",
        {"product_id": {"type": "string"}},
    ),
    _tool(
        "get_issue_counts",
        "Per issue Id, how many cases about the given order items were created in [start_date, end_date).",
        {"start_date": DATE, "end_date": DATE, "order_item_ids": IDS},
    ),
    _tool(
        "find_id_with_max_value",
        "The Ids tied for the highest value (null for no values).",
        {"values_by_id": VALUES},
    ),
    _tool(
        "find_id_with_min_value",
        "The Ids tied for the lowest value (null for no values).",
        {"values_by_id": VALUES},
    ),
    _tool("get_account_id_by_contact_id", "The AccountId of a contact.", {"contact_id": {"type": "string"}}),
    _tool(
        "get_purchase_history",
        "Order items (Product2Id) of the account's Activated orders on purchase_date among the given products.",
        {
            "account_id": {"type": "string"},
            "purchase_date": {
                "type": "string",
                "description": "the order date, YYYY-MM-DD (a date-time is accepted)",
            },
            "related_product_ids": IDS,
        },
    ),
    _tool(
        "get_month_to_case_count",
        "Cases per month name (months of different years count together).",
        {"cases": _described(CASES, "cases with CreatedDate")},
    ),
    _tool(
        "search_knowledge_articles",
        "Published knowledge articles (Id, Title, Content) matching the search term.",
        {"search_term": {"type": "string"}},
    ),
    _tool(
        "search_products",
        "Products (Id, Name, Description) matching the search term.",
        {"search_term": {"type": "string"}},
    ),
    _tool("get_issues", "Every issue (Id, Name).", {}),
    _tool(
        "get_livechat_transcript_by_case_id",
        "The chat transcripts (Body, EndTime) of a case.",
        {"case_id": {"type": "string"}},
    ),
    _tool(
        "get_email_messages_by_case_id",
        "The emails (Subject, TextBody, FromAddress, ToAddress, MessageDate) of a case.",
        {"case_id": {"type": "string"}},
    ),
]

RESPOND = _tool(
    "respond",
    "Give the final answer to the question. Call it once, with only the answer asked for.",
    {"content": {"type": "string"}},
)
QUERY_TOOLS = [
    _tool(
        "issue_soql_query",
        "Run a SOQL query and return its records (or the error).",
        {"query": {"type": "string"}},
    ),
    _tool(
        "issue_sosl_query",
        "Run a SOSL search and return its records (or the error).",
        {"query": {"type": "string"}},
    ),
]

TOOL_SCHEMAS = [*HELPERS, RESPOND, *QUERY_TOOLS]
"""The 27 tools: CRMArena's 25 (its 24 helpers and respond) plus free-form SOQL and SOSL."""
