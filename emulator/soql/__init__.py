"""The SOQL engine: Salesforce's query language on the org's DuckDB tables.

A query goes parse (:mod:`.parser`, a sqlglot-based SOQL dialect) -> bind (:mod:`.binder`,
checked against the schema) -> translate (:mod:`.translate`, one DuckDB SELECT as a
sqlglot tree) -> execute and shape (:mod:`.execute`, :mod:`.shape`). Plans are cached per
query text (:mod:`.plans`). Every failure is a :class:`~crmarena_sf.emulator.errors.SalesforceError`
worded like Salesforce's, with its caret prefix where Salesforce gives one.

Public interface: :func:`query`, :func:`query_more` (the REST bodies of ``/query``,
``/queryAll`` and ``/query/<locator>``; :func:`query_json` and :func:`query_more_json` give
the same bodies as the JSON bytes a client receives, written by DuckDB where it can) and
:func:`select_records` (SOSL's RETURNING clauses run through it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crmarena_sf.emulator.error_boundary import statement_errors
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.soql.errors import SoqlError, to_salesforce_error
from crmarena_sf.emulator.soql.execute import (
    MAX_BATCH,
    batch_size_of,
    fetch_records,
    first_batch,
    first_batch_json,
    next_batch,
    next_batch_json,
    open_locators,
    shape_records,
)
from crmarena_sf.emulator.soql.nodes import WithClause
from crmarena_sf.emulator.soql.plans import plan_for
from crmarena_sf.emulator.soql.selection import RecordSelection
from crmarena_sf.metadata import API_VERSION

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

__all__ = ["query", "query_json", "query_more", "query_more_json", "select_records"]


def query(
    org: Org,
    soql: str,
    *,
    include_deleted: bool = False,
    batch_size: int = 2000,
    api_version: str = API_VERSION,
) -> dict:
    """The REST body of GET /query (or /queryAll when include_deleted): {totalSize, done, records[, nextRecordsUrl]}.

    Raises emulator.errors.SalesforceError (status 400) exactly as Salesforce words it.
    """
    text = soql if isinstance(soql, str) else ""
    with statement_errors(SoqlError, lambda exc: _rendered(exc, text)):
        plan = plan_for(org, text, include_deleted, api_version)
        return first_batch(org, plan, batch_size_of(batch_size), api_version)


def query_json(
    org: Org,
    soql: str,
    *,
    include_deleted: bool = False,
    batch_size: int = 2000,
    api_version: str = API_VERSION,
) -> bytes:
    """:func:`query`'s body as UTF-8 JSON bytes (what REST sends); raises SalesforceError like :func:`query`."""
    text = soql if isinstance(soql, str) else ""
    with statement_errors(SoqlError, lambda exc: _rendered(exc, text)):
        plan = plan_for(org, text, include_deleted, api_version)
        return first_batch_json(org, plan, batch_size_of(batch_size), api_version)


def query_more_json(org: Org, locator: str, *, api_version: str = API_VERSION) -> bytes:
    """:func:`query_more`'s body as UTF-8 JSON bytes."""
    with statement_errors():
        return next_batch_json(org, locator, api_version)


def query_more(org: Org, locator: str, *, api_version: str = API_VERSION) -> dict:
    """The next batch for a query locator (the last path segment of nextRecordsUrl, e.g. '01gEm0000000001AAA-2000').

    Unknown/expired locator -> SalesforceError('INVALID_QUERY_LOCATOR', 'invalid query locator', status=400).
    """
    with statement_errors():
        return next_batch(org, locator, api_version)


def select_records(
    org: Org,
    object_name: str,
    field_list_text: str,
    where_text: str | None = None,
    order_by_text: str | None = None,
    limit: int | None = None,
    offset: int | None = None,
    restrict_ids: list[str] | None = None,
    api_version: str = API_VERSION,
    data_category: WithClause | None = None,
) -> list[dict]:
    """Records of one object as a SOQL query would return them: SOSL's ``RETURNING Obj(fields WHERE ...)``.

    Runs ``SELECT <field_list_text> FROM <object_name> [WHERE <where_text>] [WITH <data_category>]
    [ORDER BY <order_by_text>] [LIMIT limit] [OFFSET offset]`` through the SOQL engine (same
    parser, binder, semantics and record shape), each part read on its own
    (:mod:`crmarena_sf.emulator.soql.selection`); ``data_category`` is a WITH DATA CATEGORY clause
    already parsed. ``restrict_ids`` keeps only those records; without ORDER BY they come back
    in the order of ``restrict_ids`` (a search's relevance order). Errors are SalesforceError
    without the caret prefix (the text is not the caller's). Every matching record is returned
    (no batching).
    """
    selection = RecordSelection(
        object_name, field_list_text, where_text, order_by_text, limit, offset, data_category
    )
    with statement_errors(SoqlError, _without_caret):
        plan = plan_for(org, selection, False, api_version, restrict_ids=restrict_ids is not None)
        if plan.kind != "records":
            raise SalesforceError("MALFORMED_QUERY", "unexpected token: '('")
        params = [list(restrict_ids)] if restrict_ids is not None else None
        rows, as_json = fetch_records(org, plan, params)
        if restrict_ids is not None and not order_by_text:
            rank = {record_id: i for i, record_id in enumerate(restrict_ids)}
            rows.sort(key=lambda row: rank.get(row[0], len(rank)))
        records = shape_records(org, plan, rows, as_json)
        if plan.children:
            open_locators(org, records, MAX_BATCH, api_version)
        return records


def _without_caret(exc: SoqlError) -> SalesforceError:
    """A query the caller did not write (SOSL's RETURNING) gets no caret prefix."""
    return SalesforceError(exc.error_code, exc.message, status=400)


def _rendered(exc: SoqlError, text: str) -> SalesforceError:
    """Salesforce omits the caret prefix when the very first token is wrong (``q=invalid``)."""
    if exc.offset is not None and not text[: exc.offset].strip():
        return SalesforceError(exc.error_code, exc.message, status=400)
    return to_salesforce_error(exc, text)
