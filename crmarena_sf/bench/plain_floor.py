"""The plain floor: the org's rows in a plain in-memory DuckDB database, as a user would load them.

A user who wants the CRMArena rows without an emulator exports them into DuckDB and writes the
SQL by hand; that costs less than the same SQL on the org's own tables, which carry the org's
bookkeeping (a file, forks reading through their parent, indexes, the search index). This
floor is that user's: the tables a benchmark query reads, every column and no more, written to
Parquet in a temporary folder and read into a new ``duckdb.connect(":memory:")`` with DuckDB's
default settings (the folder is removed at once).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

import duckdb

_TABLE = re.compile(r'(?:FROM|JOIN)\s+"(\w+)"', re.IGNORECASE)


def tables_read(sqls: Iterable[str]) -> list[str]:
    """The tables hand-written SQL reads (``FROM "X"`` and ``JOIN "X"``), sorted."""
    return sorted({name for sql in sqls for name in _TABLE.findall(sql)})


def plain_copy(org, tables: Iterable[str]) -> duckdb.DuckDBPyConnection:
    """A new in-memory DuckDB database holding ``org``'s rows of ``tables`` (its own tables, no index)."""
    plain = duckdb.connect(":memory:")
    with tempfile.TemporaryDirectory(prefix="crmarena-bench-") as folder:
        for table in tables:
            path = str(Path(folder) / f"{table}.parquet").replace("'", "''")
            with org.lock:
                org.con.execute(f"COPY (SELECT * FROM \"{table}\") TO '{path}' (FORMAT parquet)")
            plain.execute(f"CREATE TABLE \"{table}\" AS SELECT * FROM read_parquet('{path}')")
    return plain
