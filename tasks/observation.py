"""What an agent sees when it runs SOQL or SOSL: CRMArena's connector, reproduced.

CRMArena's ``crm_sandbox/env/connect_sandbox.py`` (SalesforceAIResearch/CRMArena) sends a
query that starts with ``FIND`` to ``search()`` and reads ``searchRecords``; anything else,
with a ```sql / ```soql fence stripped, to ``query_all()``. Each top-level record loses its
``attributes`` (nested parents keep theirs), a column that is None in every row is dropped,
and an API error becomes ``"{errorCode}: {message}"``. Act and ReAct agents see
``"Salesforce instance output: " + str(result)``; the ``issue_soql_query`` and
``issue_sosl_query`` tools return the same result. The same observation on the emulator and
on a real org is what makes the scores comparable with the published ones.
"""

from __future__ import annotations

import re
from typing import Any

OBSERVATION_PREFIX = "Salesforce instance output: "
_FENCE = re.compile(r"^\s*```(?:sql|soql|sosl)?\s*|\s*```\s*$", re.IGNORECASE)


def run_query(sf: Any, query: str) -> list[dict] | str:
    """The records a query or search returns as CRMArena's connector shapes them, or ``CODE: message``."""
    from simple_salesforce.exceptions import SalesforceError

    try:
        if query.startswith("FIND"):
            records = (sf.search(query) or {}).get("searchRecords", [])
        else:
            records = sf.query_all(_FENCE.sub("", query))["records"]
    except SalesforceError as exc:
        return error_text(exc)
    rows = [{k: v for k, v in r.items() if k != "attributes"} for r in records]
    if rows:
        empty = [k for k in rows[0] if all(r.get(k) is None for r in rows)]
        rows = [{k: v for k, v in r.items() if k not in empty} for r in rows]
    return rows


def error_text(exc: Exception) -> str:
    """``errorCode: message`` from a simple-salesforce error (its body is a list of Salesforce errors)."""
    content = getattr(exc, "content", None)
    if isinstance(content, list) and content and isinstance(content[0], dict):
        return f"{content[0].get('errorCode', 'UNKNOWN_EXCEPTION')}: {content[0].get('message', '')}"
    return f"{type(exc).__name__}: {exc}"


def observation(result: Any) -> str:
    """The text an Act/ReAct agent reads after an ``execute`` action."""
    return OBSERVATION_PREFIX + str(result)
