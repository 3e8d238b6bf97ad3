"""CRMArena's published leaderboard (v1), for setting a run beside it.

The numbers are the v1 rows of the CRMArena leaderboard, which match the paper's first
version (Huang et al., "CRMArena: Understanding the Capacity of LLM Agents to Perform
Professional CRM Tasks in Realistic Environments", arXiv 2411.02305v1, November 2024):
https://huggingface.co/spaces/Salesforce/CRMArena-Leaderboard, file
``crmarena_results/all_results.csv``. They were measured on the original CRMArena org (the
authors' live Salesforce org and its task file), not on an org this project generates, so a
run here is comparable in kind, not number for number.

Every row is a model under one of CRMArena's three agent frameworks: Act (an action per turn),
ReAct (a thought, then an action) and function calling (the 27 tool functions). A task score
is its mean reward x 100; Overall is the unweighted mean of the nine.
"""

from __future__ import annotations

from dataclasses import dataclass

SOURCE = "https://huggingface.co/spaces/Salesforce/CRMArena-Leaderboard (crmarena_results/all_results.csv)"
PAPER = "arXiv 2411.02305v1 (November 2024)"

COLUMNS: tuple[tuple[str, str], ...] = (
    ("NCR", "case_routing"),
    ("HTU", "handle_time"),
    ("TCU", "transfer_count"),
    ("NED", "named_entity_disambiguation"),
    ("PVI", "policy_violation_identification"),
    ("KQA", "knowledge_qa"),
    ("TII", "top_issue_identification"),
    ("MTA", "monthly_trend_analysis"),
    ("BRI", "best_region_identification"),
)
"""The leaderboard's columns in its order: abbreviation and our task name."""

ABBREVIATIONS = {task: abbreviation for abbreviation, task in COLUMNS}


@dataclass(frozen=True)
class LeaderboardRow:
    framework: str
    model: str
    scores: dict[str, float]
    """Task name -> score (0-100), for all nine tasks."""
    overall: float


def _row(framework: str, model: str, values: tuple[float, ...], overall: float) -> LeaderboardRow:
    return LeaderboardRow(framework, model, dict(zip((t for _, t in COLUMNS), values, strict=True)), overall)


FRAMEWORKS = ("Act", "ReAct", "Function calling")

ROWS: tuple[LeaderboardRow, ...] = (
    # NCR, HTU, TCU, NED, PVI, KQA, TII, MTA, BRI -> Overall
    _row("Act", "gpt-4o", (43.1, 10.0, 17.7, 30.8, 28.5, 29.3, 68.5, 29.2, 7.7), 29.4),
    _row("Act", "gpt-4o-mini", (0.8, 38.5, 23.8, 9.2, 0.0, 43.1, 26.9, 3.8, 3.8), 16.7),
    _row("Act", "claude-3.5-sonnet", (78.5, 24.6, 15.4, 51.5, 28.5, 44.7, 45.4, 20.8, 26.9), 37.4),
    _row("Act", "claude-3-sonnet", (9.2, 26.9, 24.6, 30.8, 23.8, 16.6, 16.2, 1.5, 0.0), 16.6),
    _row("Act", "llama3.1-405b", (46.2, 17.7, 17.7, 13.9, 30.0, 47.0, 15.4, 5.4, 6.9), 22.2),
    _row("Act", "llama3.1-70b", (28.5, 20.0, 24.6, 6.2, 30.0, 47.9, 8.5, 0.0, 1.5), 18.6),
    _row("ReAct", "gpt-4o", (70.0, 39.2, 22.3, 30.8, 35.4, 50.2, 64.6, 20.9, 10.8), 38.2),
    _row("ReAct", "gpt-4o-mini", (40.8, 36.9, 25.4, 31.5, 24.6, 52.8, 30.0, 6.2, 6.2), 28.3),
    _row("ReAct", "claude-3.5-sonnet", (62.9, 20.0, 11.5, 52.3, 30.0, 45.0, 43.9, 20.8, 21.5), 34.3),
    _row("ReAct", "claude-3-sonnet", (7.7, 24.6, 26.9, 29.2, 28.5, 16.0, 22.3, 0.8, 0.0), 17.3),
    _row("ReAct", "llama3.1-405b", (81.5, 22.3, 15.4, 33.9, 34.6, 55.3, 34.6, 13.9, 13.1), 33.8),
    _row("ReAct", "llama3.1-70b", (48.5, 20.0, 13.9, 33.1, 37.7, 48.7, 23.9, 13.9, 10.8), 27.8),
    _row("Function calling", "gpt-4o", (60.0, 47.7, 81.5, 46.2, 39.2, 30.4, 97.7, 27.7, 59.2), 54.4),
    _row("Function calling", "gpt-4o-mini", (0.8, 10.8, 10.8, 17.7, 13.8, 39.7, 60.0, 0.0, 21.5), 19.5),
    _row(
        "Function calling", "claude-3.5-sonnet", (4.6, 33.1, 82.3, 52.3, 30.0, 40.5, 69.2, 26.9, 36.9), 41.8
    ),
    _row("Function calling", "claude-3-sonnet", (0.8, 1.5, 30.0, 25.4, 41.5, 23.2, 12.3, 1.5, 0.0), 15.1),
    _row("Function calling", "llama3.1-405b", (16.2, 31.5, 64.6, 50.0, 26.9, 47.6, 95.4, 86.9, 42.3), 51.3),
    _row("Function calling", "llama3.1-70b", (1.5, 23.1, 44.6, 53.8, 37.4, 42.4, 93.8, 43.8, 29.2), 41.1),
)
"""The v1 leaderboard: Act, ReAct and function-calling rows, six models each."""
