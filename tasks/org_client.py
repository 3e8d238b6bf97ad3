"""How everything in tasks/ reads an org: SOQL and SOSL through an unmodified simple-salesforce client.

:class:`OrgClient` wraps a ``simple_salesforce.Salesforce`` (emulator or real org alike) and
keeps a log of every query it sent, which becomes the reference agent's trajectory. Values
put into queries go through :func:`quote` (SOQL string literals) or :func:`soql_datetime`;
no other text is ever pasted into a query.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

SOQL_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"'}
"""Escape sequences of a SOQL string literal (SOQL and SOSL Reference, "Quoted String Escape Sequences")."""

SOSL_RESERVED = set("?&|!{}[]()^~*:\\\"'+-")
"""Characters a SOSL search term must escape with a backslash (SOQL and SOSL Reference, FIND clause)."""


def quote(value: str) -> str:
    """A SOQL string literal holding ``value``."""
    return "'" + "".join(SOQL_ESCAPES.get(ch, ch) for ch in str(value)) + "'"


def quote_list(values: Iterable[str]) -> str:
    """``('a', 'b')``: a SOQL IN list."""
    return "(" + ", ".join(quote(v) for v in values) + ")"


def soql_datetime(moment: dt.datetime) -> str:
    """An unquoted SOQL datetime literal (UTC)."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def sosl_escape(term: str) -> str:
    """``term`` with every SOSL reserved character escaped, so ``women's`` becomes ``women\\'s``."""
    return "".join("\\" + ch if ch in SOSL_RESERVED else ch for ch in term)


def strip_attributes(record: Any) -> Any:
    """A record (and its nested parents and child lists) without the REST ``attributes`` entries."""
    if isinstance(record, dict):
        if "records" in record and "totalSize" in record:
            return [strip_attributes(r) for r in record["records"]]
        return {k: strip_attributes(v) for k, v in record.items() if k != "attributes"}
    if isinstance(record, list):
        return [strip_attributes(r) for r in record]
    return record


class OrgClient:
    """SOQL and SOSL on one org, logged in the order they were sent."""

    def __init__(self, sf: Any) -> None:
        self.sf = sf
        self.log: list[dict[str, Any]] = []

    def query(self, soql: str) -> list[dict[str, Any]]:
        """Every record of a SOQL query (all pages), without ``attributes``."""
        result = self.sf.query_all(soql)
        records = strip_attributes(result["records"])
        self.log.append({"action": "soql", "query": soql, "records": len(records)})
        return records

    def search(self, sosl: str) -> list[dict[str, Any]]:
        """The searchRecords of a SOSL search, without ``attributes``."""
        result = self.sf.search(sosl) or {}
        records = strip_attributes(result.get("searchRecords", []))
        self.log.append({"action": "sosl", "query": sosl, "records": len(records)})
        return records
