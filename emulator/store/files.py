"""Org files shared between processes: DuckDB's lock rule, attaching, waiting, and "in use".

DuckDB lets any number of processes open a database file read-only, or one process open it
for writing, never both (https://duckdb.org/docs/current/connect/concurrency). So that readers
(``connect()``, ``crmarena-sf query``, ``crmarena-sf serve``) can open an org file while another
process uses it, every org file is *attached* to an in-memory DuckDB database: read-only by
readers for as long as they live, and read-only by a writable org too except while one of
its transactions runs (:class:`WriteLock` re-attaches the file for writing around it).

A lock another process holds usually goes away within milliseconds (a writer's transaction);
attaching waits up to :data:`LOCK_WAIT_SECONDS` for it. A lock that stays, such as a
``crmarena-sf serve`` reading the file while someone wants to write it, ends in
:class:`FileInUse`, whose message names the holder as DuckDB reports it (program and PID) and,
where the system tells, its command line. So a writable org cannot write while another
process reads the file, and since it attaches the file for writing once when it opens, a
second writable org of the file in another process is refused at once rather than taking
turns with the first.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb
from crmarena_sf.emulator.store.ddl import quote

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

LOCK_WAIT_SECONDS = 10.0
"""How long attaching a file waits for another process's lock to go away: as long as Salesforce
waits for a record lock before UNABLE_TO_LOCK_ROW (Knowledge Article 000229525)."""

_POLL_SECONDS = 0.02
_HOLDER = re.compile(r"Conflicting lock is held in (?P<program>.+?) \(PID (?P<pid>\d+)\)")


class NotAnOrgFile(ValueError):
    """A file that is not a crmarena-sf org file (another DuckDB database, or not DuckDB at all)."""


class FileInUse(OSError):
    """An org file another process (or another connection of this one) holds; the message says who."""

    def __init__(self, path: str | Path, holder: str, wanted: str) -> None:
        self.path = str(path)
        self.holder = holder
        super().__init__(f"{path} is in use by {holder}; {wanted}")


def attach(connection: duckdb.DuckDBPyConnection, path: str | Path, alias: str, *, read_only: bool) -> None:
    """``ATTACH path AS alias``, read-only or for writing, waiting a moment for another process's lock.

    Raises :class:`FileInUse` when the lock stays; any other DuckDB error (not a database file,
    a newer storage version ...) propagates unchanged.
    """
    mode = " (READ_ONLY)" if read_only else ""
    statement = f"ATTACH {sql_string(str(path))} AS {quote(alias)}{mode}"
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            connection.execute(statement)
            return
        except duckdb.Error as exc:
            holder = lock_holder(exc)
            if holder is None:
                raise
            if holder.startswith("this process") or time.monotonic() >= deadline:
                raise FileInUse(path, holder, _wanted(read_only)) from None
        time.sleep(_POLL_SECONDS)


def detach(connection: duckdb.DuckDBPyConnection, alias: str) -> None:
    """``DETACH alias`` (a file attached for writing is checkpointed first, so readers see every commit)."""
    connection.execute(f"DETACH {quote(alias)}")


def lock_holder(exc: BaseException) -> str | None:
    """Who holds the lock a DuckDB error complains about, or None when the error is not about a lock."""
    text = str(exc)
    found = _HOLDER.search(text)
    if found:
        pid = int(found["pid"])
        command = _command_line(pid)
        program = Path(found["program"]).name
        return f"another process (PID {pid}: {command or program})"
    if "Could not set lock" in text:
        return "another process"
    if "Unique file handle conflict" in text or "already attached" in text:
        return "this process (another connection has it open)"
    return None


def _wanted(read_only: bool) -> str:
    if read_only:
        return "it is open for writing; try again when the writer is done"
    return (
        "writing needs it to itself while a write runs (DuckDB lets many processes read a file "
        "or one write it, not both); stop the other reader or write a copy"
    )


def _command_line(pid: int) -> str | None:
    """The holder's command line where the system shows it (Linux /proc), shortened to its arguments."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    parts = [part.decode(errors="replace") for part in raw.split(b"\0") if part]
    if not parts:
        return None
    # ".../bin/python .../bin/crmarena-sf serve ..." or "python -m pytest": the program, not the interpreter.
    if Path(parts[0]).name.startswith("python") and len(parts) > 1:
        if not parts[1].startswith("-"):
            parts = parts[1:]
        elif parts[1] == "-m" and len(parts) > 2:
            parts = parts[2:]
    parts[0] = Path(parts[0]).name
    text = " ".join(parts)
    return text if len(text) <= 120 else text[:119] + "…"


UNCOMPRESSED_MAX_ROWS = 250_000
"""An org file loaded with at most this many records is stored uncompressed, and in a larger one
every record table of at most this many rows (:func:`store_for_size`, :func:`uncompress_small_tables`)."""


def store_for_size(connection: duckdb.DuckDBPyConnection, counts: dict[str, int]) -> bool:
    """Before loading ``counts`` (records per object) into an org file: store it all uncompressed
    when the org is small. True when it does.

    DuckDB compresses a file's columns (dictionaries, FSST for text, bit packing) and
    decompresses what a query reads at every query, even once the blocks sit in its buffer
    pool: a small query on a compressed file costs up to half again what it costs on the same
    rows in memory (an email's text most), and each record read through an index unpacks the
    whole vector around it. Uncompressed, the file reads as fast as memory, for about twice the
    disk (the default CRMArena org, 42,000 records: 21 MB becomes 49 MB), and every process
    that opens it still shares the operating system's one copy of its pages, which a copy into
    memory at each open would not. A larger org is compressed, but for its smaller tables
    (:func:`uncompress_small_tables`).
    """
    if sum(counts.values()) > UNCOMPRESSED_MAX_ROWS:
        return False
    connection.execute("SET force_compression = 'uncompressed'")
    return True


def uncompress_small_tables(org: Org, counts: dict[str, int]) -> list[str]:
    """After loading a large org file: rewrite its record tables of at most
    :data:`UNCOMPRESSED_MAX_ROWS` rows uncompressed (the records lookups and searches read one
    by one: accounts, contacts, cases, products), the large ones staying compressed. Returns the
    tables rewritten (none for an org :func:`store_for_size` stores uncompressed already).

    Each is copied in its row order, the copy replacing it; indexes are made afterwards
    (:func:`crmarena_sf.emulator.store.indexes.ensure_indexes`).
    """
    if sum(counts.values()) <= UNCOMPRESSED_MAX_ROWS:
        return []
    small = [name for name, rows in sorted(counts.items()) if 0 < rows <= UNCOMPRESSED_MAX_ROWS]
    if not small:
        return []
    with org.lock:
        org.checkpoint()  # the load, compressed, before compression goes off
        org.con.execute("SET force_compression = 'uncompressed'")
        try:
            with org.transaction():
                for name in small:
                    copy = quote(f"{name}__uncompressed")
                    org.con.execute(f"CREATE TABLE {copy} AS SELECT * FROM {quote(name)}")
                    org.con.execute(f"DROP TABLE {quote(name)}")
                    org.con.execute(f"ALTER TABLE {copy} RENAME TO {quote(name)}")
            org.checkpoint()  # written now, while compression is off
        finally:
            org.con.execute("SET force_compression = 'auto'")
    return small


def sql_string(text: str) -> str:
    """A SQL string literal (paths are the only text this module puts into SQL)."""
    return "'" + text.replace("'", "''") + "'"


class WriteLock:
    """Attaches an org file for writing around each transaction of a writable org, read-only between them.

    Between transactions the org holds the same shared lock as any reader, so other processes
    can open the file; a transaction first re-attaches it for writing (waiting for readers up
    to :data:`LOCK_WAIT_SECONDS`) and the commit detaches it again, which checkpoints it, so a
    reader that opens the file next sees every committed write. The alias never changes, so
    the org's cursors and its forks' search paths stay valid across the switch; a fork that
    another thread queries while the org switches may find the file detached for that moment.
    """

    def __init__(
        self,
        connection: duckdb.DuckDBPyConnection,
        path: str | Path,
        alias: str,
        settle: Callable[[], None] = lambda: None,
    ) -> None:
        self.connection = connection
        self.path = Path(path)
        self.alias = alias
        self.settle = settle
        """Called before each detach: a cursor whose last result is not fully read keeps the
        detached database (and its file) alive, so the re-attach would find the file still open."""
        self.writing = False
        self._seen = self._signature()

    def acquire(self) -> bool:
        """Attach the file for writing; True when another process wrote it since this org last did.

        Raises :class:`FileInUse` (the file attached read-only again) when the lock stays taken.
        """
        self.settle()
        detach(self.connection, self.alias)
        try:
            changed = self._signature() != self._seen
            attach(self.connection, self.path, self.alias, read_only=False)
        except BaseException:
            attach(self.connection, self.path, self.alias, read_only=True)
            raise
        self.writing = True
        return changed

    def release(self) -> None:
        """Checkpoint and detach the file, then attach it read-only again."""
        if not self.writing:
            return
        self.writing = False
        self.settle()
        detach(self.connection, self.alias)
        self._seen = self._signature()
        attach(self.connection, self.path, self.alias, read_only=True)

    def _signature(self) -> tuple[int, int, int] | None:
        try:
            stat = self.path.stat()
        except OSError:
            return None
        return (stat.st_ino, stat.st_size, stat.st_mtime_ns)
