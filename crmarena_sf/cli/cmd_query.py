"""``crmarena-sf query "SOQL"`` and ``crmarena-sf search "SOSL"``: results as a table or ``--json``.

Both go through the front door (``connect()``), so they answer exactly what an agent's
simple-salesforce client would get, from the embedded emulator or ``--backend salesforce``.
Every page of a query is fetched; ``--json`` prints ``{totalSize, done, records}``.
"""

from __future__ import annotations

import json
from typing import Any

from crmarena_sf.cli.arguments import add_org_options, connect_for_cli
from crmarena_sf.cli.errors import client_call

MAX_CELL = 60
"""Longest cell a table shows (``--json`` shows everything)."""


def register(subparsers) -> None:
    query = subparsers.add_parser("query", help="run a SOQL query", description="Run a SOQL query.")
    query.add_argument("soql", help='the query, e.g. "SELECT Id, Name FROM Account LIMIT 5"')
    query.add_argument("--include-deleted", action="store_true", help="queryAll: include deleted records")
    _common(query)
    query.set_defaults(func=run_query)
    search = subparsers.add_parser("search", help="run a SOSL search", description="Run a SOSL search.")
    search.add_argument("sosl", help='the search, e.g. "FIND {Acme} RETURNING Account(Name)"')
    _common(search)
    search.set_defaults(func=run_search)


def _common(parser) -> None:
    add_org_options(parser)
    parser.add_argument("--json", action="store_true", help="print the JSON result instead of a table")


def run_query(args) -> int:
    sf = _connect(args)
    result = client_call(lambda: _query_every_page(sf, args.soql, args.include_deleted))
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return 0
    records = result["records"]
    if records:
        print(format_table(records))
    print(f"({result['totalSize']} record{'s' if result['totalSize'] != 1 else ''})")
    return 0


def _query_every_page(sf, soql: str, include_deleted: bool) -> dict[str, Any]:
    """Every page of a query; unlike ``query_all`` it keeps the server's totalSize (``SELECT COUNT()``)."""
    page = sf.query(soql, include_deleted=include_deleted)
    total, records = page["totalSize"], list(page["records"])
    while not page["done"]:
        page = sf.query_more(page["nextRecordsUrl"], identifier_is_url=True)
        records.extend(page["records"])
    return {"totalSize": total, "done": True, "records": records}


def run_search(args) -> int:
    sf = _connect(args)
    result = client_call(lambda: sf.search(args.sosl)) or {"searchRecords": []}
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return 0
    records = result.get("searchRecords", [])
    if records:
        print(format_table(records, with_type=True))
    print(f"({len(records)} record{'s' if len(records) != 1 else ''})")
    return 0


def _connect(args):
    return connect_for_cli(args.org, args.backend)


def _is_child_result(value: Any) -> bool:
    """A child subquery's result inside a record: ``{totalSize, done, records}``."""
    return isinstance(value, dict) and "records" in value and "totalSize" in value


def _count(n: int) -> str:
    return f"[{n} record{'' if n == 1 else 's'}]"


def flatten(record: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A REST record as columns: parents as ``Account.Name``, child subqueries as a record count."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        if key == "attributes":
            continue
        if _is_child_result(value):
            out[prefix + key] = _count(value["totalSize"])
        elif isinstance(value, dict) and "attributes" in value:
            out.update(flatten(value, f"{prefix}{key}."))
        elif isinstance(value, dict):
            out[prefix + key] = json.dumps(value, ensure_ascii=False)
        else:
            out[prefix + key] = value
    return out


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value).replace("\r", " ").replace("\n", " ")
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def _columns(rows: list[dict[str, Any]]) -> list[str]:
    """Columns in first-seen order; a parent that is null in some rows gives way to its dotted fields."""
    seen: list[str] = []
    for row in rows:
        seen.extend(k for k in row if k not in seen)
    columns: list[str] = []
    for name in seen:
        if name in columns:
            continue
        nested = [other for other in seen if other.startswith(name + ".")]
        columns.extend(nested or [name])
    return list(dict.fromkeys(columns))


def format_table(records: list[dict[str, Any]], with_type: bool = False) -> str:
    """An aligned text table of ``records`` (columns in first-seen order).

    A child subquery shows as a count in its column and, under its parent's row, as an
    indented table of the child rows (``(SELECT Subject FROM Cases)`` lists the subjects).
    """
    rows = []
    for record in records:
        row = flatten(record)
        if with_type:
            row = {"type": (record.get("attributes") or {}).get("type"), **row}
        rows.append(row)
    columns = _columns(rows)
    texts = [[cell(row.get(c)) for c in columns] for row in rows]
    widths = [max([len(c)] + [len(t[i]) for t in texts]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for record, text in zip(records, texts, strict=True):
        lines.append("  ".join(t.ljust(w) for t, w in zip(text, widths, strict=True)).rstrip())
        lines.extend(_child_tables(record))
    return "\n".join(lines)


def _child_tables(record: dict[str, Any]) -> list[str]:
    """The child rows of ``record``'s subqueries, each as a labelled table indented under it."""
    lines = []
    for key, value in record.items():
        if not _is_child_result(value) or not value["records"]:
            continue
        shown = len(value["records"])
        more = f" ({shown} of {value['totalSize']} shown)" if shown < value["totalSize"] else ""
        lines.append(f"  {key}{more}:")
        lines.extend("    " + line for line in format_table(value["records"]).splitlines())
    return lines
