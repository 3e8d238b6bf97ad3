"""Reads beside writes: a thread inside :meth:`Org.reading` reads one committed snapshot on a cursor of its own.

An org normally runs every statement on one DuckDB cursor under one lock, so a read waits for
any write in progress. DuckDB isolates transactions on different connections of one database
(MVCC: a reader sees the state committed when its transaction began, and never blocks or is
blocked by a writer; DuckDB documentation, "Concurrency", https://duckdb.org/docs/stable/connect/concurrency).
So a reading thread borrows a cursor from the org's pool, opens a transaction on it and, until
it leaves, gets that cursor from ``org.con`` and a no-op from ``org.lock``: its queries run in
parallel with other readers and with the writer (DuckDB runs them outside Python's GIL), and a
query with child subqueries reads parents and children from the same snapshot. A write inside
a reading block is refused: writes go through the org's lock and its own cursor.

Cursors are configured like the org's own (its catalog, and for a fork the search path into
its parents); one whose configuration is out of date (the search path changed since) is
configured again when borrowed.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

import duckdb
from crmarena_sf.emulator.store import parsed


class _NoLock:
    """What ``org.lock`` is for a reading thread: its snapshot needs no lock."""

    def __enter__(self) -> _NoLock:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def acquire(self, *args: object, **kwargs: object) -> bool:
        return True

    def release(self) -> None:
        return None


NO_LOCK = _NoLock()


class ReaderPool:
    """Read cursors of one org, lent to one thread at a time."""

    def __init__(
        self,
        new_cursor: Callable[[], duckdb.DuckDBPyConnection],
        configure: Callable[[duckdb.DuckDBPyConnection], None],
        version: Callable[[], int],
    ) -> None:
        self._new_cursor = new_cursor
        self._configure = configure
        self._version = version
        self._free: list[tuple[duckdb.DuckDBPyConnection, int]] = []
        self._lent: dict[int, int] = {}
        """Cursor id -> the search-path version a lent cursor was configured for."""
        self._lock = threading.Lock()
        self.local = threading.local()
        """``local.cursor``: the cursor the current thread reads with, while it reads."""

    @property
    def active(self) -> bool:
        """True while the current thread is inside a reading block."""
        return getattr(self.local, "active", False)

    @property
    def cursor(self) -> duckdb.DuckDBPyConnection | None:
        """The current thread's read cursor inside a reading block (borrowed, and its snapshot begun,
        on first use: a block that never touches the database costs nothing), else None."""
        if not getattr(self.local, "active", False):
            return None
        cursor = getattr(self.local, "cursor", None)
        if cursor is None:
            cursor = self.local.cursor = self._borrow()
            parsed.execute(cursor, "BEGIN TRANSACTION")
        return cursor

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Read one snapshot on a borrowed cursor until the block ends (nested blocks share it)."""
        if self.active:
            yield
            return
        self.local.active = True
        try:
            yield
        finally:
            self.local.active = False
            cursor, self.local.cursor = getattr(self.local, "cursor", None), None
            if cursor is not None:
                self._give_back(cursor)

    def _give_back(self, cursor: duckdb.DuckDBPyConnection) -> None:
        try:
            parsed.execute(cursor, "ROLLBACK")  # it only read: nothing to keep
        except duckdb.Error:
            cursor.close()
            self._lent.pop(id(cursor), None)
            return
        with self._lock:
            self._free.append((cursor, self._lent.pop(id(cursor), -1)))

    def _borrow(self) -> duckdb.DuckDBPyConnection:
        current = self._version()
        with self._lock:
            while self._free:
                cursor, version = self._free.pop()
                if version == current:
                    self._lent[id(cursor)] = version
                    return cursor
                cursor.close()
        cursor = self._new_cursor()
        self._configure(cursor)
        with self._lock:
            self._lent[id(cursor)] = current
        return cursor

    def close(self) -> None:
        """Close the idle cursors (an org being closed has no readers left)."""
        with self._lock:
            for cursor, _ in self._free:
                with contextlib.suppress(duckdb.Error):
                    cursor.close()
            self._free.clear()
