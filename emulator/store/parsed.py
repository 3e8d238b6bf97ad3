"""Statements the store runs on every REST call, parsed by DuckDB once.

DuckDB parses a statement's text before it binds and plans it; for the store's short
single-record statements (a record's row by Id, a one-row INSERT, an UPDATE of a few columns,
the search index's change note, and the ``BEGIN``/``COMMIT``/``ROLLBACK`` around a write or a
snapshot read, whose parse alone takes about 20 µs) the parse is a sizeable share of the
call. A parsed statement is not tied to a cursor or a transaction: each run binds and plans it
anew on the catalog as it is then (the SOQL engine keeps its plans' statements the same way,
:func:`crmarena_sf.emulator.soql.execute.run`). The texts are the store's own (quoted
identifiers of the schema, values always bound as parameters), so they are few; the cache is
bounded anyway, and a fork's statements (its own catalog name) are entries of their own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import duckdb

MAX_STATEMENTS = 512
"""Parsed statements kept (least recently used first out)."""

_parsed: OrderedDict[str, object] = OrderedDict()
_parsed_lock = threading.Lock()


def execute(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None):
    """``con.execute(sql, params)`` on the statement DuckDB parsed the first time ``sql`` ran."""
    with _parsed_lock:
        statement = _parsed.get(sql)
        if statement is not None:
            _parsed.move_to_end(sql)
    if statement is None:
        statement = con.extract_statements(sql)[0]
        with _parsed_lock:
            _parsed[sql] = statement
            while len(_parsed) > MAX_STATEMENTS:
                _parsed.popitem(last=False)
    return con.execute(statement, params)
