"""PK chunking of Bulk API 1.0 query jobs: the ``Sforce-Enable-PKChunking`` header.

Bulk API Developer Guide, "PK Chunking"
(https://developer.salesforce.com/docs/atlas.en-us.api_asynch.meta/api_asynch/async_api_headers_enable_pk_chunking.htm)
and "Walk Through a Bulk Query Sample Using PK Chunking"
(https://developer.salesforce.com/docs/atlas.en-us.api_asynch.meta/api_asynch/asynch_api_code_curl_walkthrough_pk_chunking.htm):
the header on a query job's creation (``TRUE``, or ``chunkSize=50000; startRow=<Id>``; the
default chunk size is 100,000, the largest 250,000) splits each batch's query into one query
per chunk of record Ids, ``... WHERE Id >= 'a' AND Id < 'b'``, each run as a batch of its own;
the batch the client added ends ``NotProcessed`` and the client reads the chunks' batches. It
works for Account, Asset, Campaign, CampaignMember, Case, CaseArticle, CaseHistory, Contact,
Event, EventRelation, Lead, LoginHistory, Opportunity, Task, User, WorkOrder, WorkOrderLineItem,
custom objects and sharing objects, and only for queries with no clause but WHERE; when
chunking fails the batch ends ``Failed``.

The emulator cuts the chunks at every ``chunkSize``-th Id of the object's records, deleted ones
included (the guide: soft-deleted records count toward a chunk but are not returned), so a
chunk holds at most ``chunkSize`` records; Salesforce cuts at fixed steps of the Id space.
The wordings of the failures (an unsupported object, a query with other clauses, a chunk
size out of range) are modelled: no public payload shows a real org's.
"""

from __future__ import annotations

from dataclasses import dataclass

from crmarena_sf.emulator.soql.errors import SoqlError
from crmarena_sf.emulator.soql.lexer import tokenize
from crmarena_sf.emulator.soql.parser import parse
from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.emulator.store.org import Org
from sqlglot.tokens import TokenType

HEADER = "Sforce-Enable-PKChunking"
DEFAULT_CHUNK_SIZE = 100_000
MAX_CHUNK_SIZE = 250_000
SUPPORTED = frozenset(
    "Account Asset Campaign CampaignMember Case CaseArticle CaseHistory Contact Event EventRelation Lead "
    "LoginHistory Opportunity Task User WorkOrder WorkOrderLineItem".split()
)


class ChunkingError(ValueError):
    """The header or the query does not allow PK chunking; the message says why."""


@dataclass(frozen=True)
class Chunking:
    """What the header asks for."""

    size: int = DEFAULT_CHUNK_SIZE
    start_row: str | None = None


def requested(value: str | None) -> Chunking | None:
    """The chunking the header's value asks for; None when absent or ``false``; ChunkingError when unusable."""
    if value is None or value.strip().lower() in ("", "false"):
        return None
    if value.strip().lower() == "true":
        return Chunking()
    options: dict[str, str] = {}
    for part in value.split(";"):
        if not part.strip():
            continue  # "chunkSize=400;" as salesforce-bulk writes it
        key, sep, item = part.partition("=")
        if not sep:
            raise ChunkingError(f"Invalid {HEADER} header value: {value.strip()}")
        options[key.strip().lower()] = item.strip()
    unknown = set(options) - {"chunksize", "startrow", "parent"}
    if unknown:
        raise ChunkingError(f"Invalid {HEADER} header option: {sorted(unknown)[0]}")
    size = options.get("chunksize", str(DEFAULT_CHUNK_SIZE))
    if not size.isdigit() or not 1 <= int(size) <= MAX_CHUNK_SIZE:
        raise ChunkingError(
            f"Invalid chunk size {size}: it must be a whole number from 1 to {MAX_CHUNK_SIZE}"
        )
    return Chunking(int(size), options.get("startrow") or None)


def chunk_queries(org: Org, object_name: str, text: str, chunking: Chunking) -> list[str]:
    """The query of each chunk, in Id order; ChunkingError when this object or query cannot be chunked."""
    obj = org.sobject(object_name)
    sharing = object_name.endswith("Share")
    if object_name not in SUPPORTED and not obj.custom and not sharing:
        raise ChunkingError(f"PK chunking is not supported for the object {object_name}")
    try:
        tree = parse(text)
    except SoqlError as exc:
        raise ChunkingError(f"{exc.error_code}: {exc.message}") from None
    clauses = {
        key for key, value in tree.args.items() if value and key not in ("expressions", "from_", "where")
    }
    if clauses or any(t.kind == TokenType.VAR and t.upper == "SELECT" for t in tokenize(text)[1:]):
        raise ChunkingError("PK chunking works only with queries that have no clause but WHERE")
    bounds = _bounds(org, obj.name, chunking)
    return [_with_bounds(text, low, high) for low, high in zip(bounds, [*bounds[1:], None])]


def _bounds(org: Org, table: str, chunking: Chunking) -> list[str]:
    """The first Id of each chunk."""
    where, params = ("", []) if chunking.start_row is None else (' WHERE "Id" >= ?', [chunking.start_row])
    with org.lock:
        rows = org.con.execute(
            f'SELECT "Id" FROM (SELECT "Id", row_number() OVER (ORDER BY "Id") - 1 AS n '
            f'FROM {quote(table)}{where}) WHERE n % {chunking.size} = 0 ORDER BY "Id"',
            params,
        ).fetchall()
    return [row[0] for row in rows] or [chunking.start_row or ""]


def _with_bounds(text: str, low: str, high: str | None) -> str:
    """``text`` restricted to ``low <= Id < high``: its WHERE condition (if any) kept in parentheses."""
    bound = f"Id >= '{low}'" + ("" if high is None else f" AND Id < '{high}'")
    where = next((t for t in tokenize(text) if t.kind == TokenType.VAR and t.upper == "WHERE"), None)
    if where is None:
        return f"{text.rstrip()} WHERE {bound}"
    return f"{text[: where.end]} ({text[where.end :].strip()}) AND {bound}"
