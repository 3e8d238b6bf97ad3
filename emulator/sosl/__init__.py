"""SOSL: Salesforce's text search (``FIND {...}``) over an index kept inside the org's DuckDB.

A search goes parse (:mod:`.statement`, with the search term language of :mod:`.terms`)
-> index (:mod:`.index`, built on an org's first search, then kept current by a change
listener) -> match and rank per object (:mod:`.matcher`) -> RETURNING (:mod:`.returning`,
whose field lists, WHERE and ORDER BY are SOQL run by :mod:`crmarena_sf.emulator.soql`). Every failure
is a :class:`~crmarena_sf.emulator.errors.SalesforceError` worded like Salesforce's.

Public interface: :func:`search` (the REST body of ``GET /search?q=``) and
:func:`ensure_index` (build an org's index ahead of time, e.g. on a template org before
forking it per episode, so no fork pays for it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import duckdb
from crmarena_sf.emulator.error_boundary import statement_errors
from crmarena_sf.emulator.sosl import index
from crmarena_sf.emulator.sosl.errors import SoslSyntaxError
from crmarena_sf.emulator.sosl.returning import records, targets
from crmarena_sf.emulator.sosl.statement import Statement, parse
from crmarena_sf.metadata import API_VERSION

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

__all__ = ["ensure_index", "search"]

_PARSED: dict[str, Statement] = {}
_PARSED_MAX = 512


def search(org: Org, sosl: str, *, api_version: str = API_VERSION) -> dict:
    """The REST body of GET /search: {"searchRecords": [{"attributes": {"type", "url"}, <fields>...}, ...]}.

    Raises emulator.errors.SalesforceError (INVALID_SEARCH, MALFORMED_SEARCH with Salesforce's caret prefix,
    INVALID_TYPE / INVALID_FIELD as SOQL words them for RETURNING).
    """
    text = sosl if isinstance(sosl, str) else ""
    with statement_errors(SoslSyntaxError, lambda exc: exc.render(text)):
        statement = _parsed(text)
        with org.lock:
            try:
                return _run(org, statement, text, api_version)
            except duckdb.CatalogException:
                # The index tables vanished under the cached state (a rolled-back build): rebuild once.
                org.cache.pop(index.CACHE_KEY, None)
                return _run(org, statement, text, api_version)


def ensure_index(org: Org, progress: index.ProgressFactory | None = None) -> None:
    """Build ``org``'s search index now if it has none (a fork of an indexed org already has one).

    ``progress(total)`` opens a progress bar for a build (see :func:`.index.ensure_index`).
    """
    with org.lock:
        index.ensure_index(org, progress)


def _run(org: Org, statement: Statement, text: str, api_version: str) -> dict:
    found = targets(org, statement)
    state = index.ensure_index(org)
    return {"searchRecords": records(org, statement, found, state, api_version)}


def _parsed(text: str) -> Statement:
    """The parsed statement, cached by text (parsing is pure)."""
    statement = _PARSED.get(text)
    if statement is None:
        statement = parse(text)
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[text] = statement
    return statement
