"""An org: a DuckDB catalog holding one table per sObject, plus the org's clock and settings.

Life cycle: :meth:`Org.new` makes a brand-new org (schema plus what a new Salesforce org
contains), :meth:`Org.open` reopens an org file (read-only, or writable while letting other
processes read it: see :mod:`crmarena_sf.emulator.store.files`), :meth:`Org.fork` makes a private copy
that costs about a millisecond whatever the org's size: a fork is an empty in-memory
catalog whose DuckDB search path continues into its parent's, so it reads the parent's
tables in place, and a table is copied only when either side first writes to it
(copy-on-write per table). Record operations live in :mod:`crmarena_sf.emulator.store.dml`; this
module owns the connection, the transaction and who reads whose tables.

Threads. DuckDB refuses a statement on a connection (or cursor) that is running one for
another thread ("connection is busy with another call"), and a result must be fetched before
the next statement, so every DuckDB handle here has one rule that keeps it safe:

- ``_root`` (the DuckDB connection of the first org of a family; its forks are catalogs
  attached to it): used only under the process-wide ``_root_lock`` (ATTACH, DETACH, cursor());
- ``_con`` (the org's own cursor): used only by the thread holding the org's lock, for a whole
  statement and the fetching of its result. :attr:`Org.con` hands it out; helpers that run a
  statement on it (:meth:`table_names`, :meth:`count`, :meth:`refresh_counters`) take the lock
  themselves. To read an ancestor's tables a fork uses its own cursor with the ancestor's
  qualified names, never the ancestor's cursor; locks are taken in one order, an org before
  its forks, so two threads never wait on each other;
- the read pool's cursors (:mod:`crmarena_sf.emulator.store.readers`): each lent to one thread at a time;
- ``_write_lock.connection`` (an org file opened writable): used inside a transaction, that
  is under the org's lock.

With ``CRMARENA_SF_CHECK_THREADS=1`` in the environment (the test suite sets it), a thread
that takes an org's own cursor without holding its lock raises :class:`CursorMisuse` at
once, rather than racing another thread only now and then; the thread that made the org may
still use it unlocked (building, loading).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
from crmarena_sf.emulator import ids
from crmarena_sf.emulator.clock import OrgClock
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store import dml, parsed
from crmarena_sf.emulator.store.ddl import create_table_sql, quote
from crmarena_sf.emulator.store.events import FILE_WRITTEN, ChangeListener, first_listeners
from crmarena_sf.emulator.store.files import FileInUse, NotAnOrgFile, WriteLock, attach, sql_string
from crmarena_sf.emulator.store.indexes import copy_indexes, ensure_indexes, inherit_indexed
from crmarena_sf.emulator.store.readers import NO_LOCK, ReaderPool
from crmarena_sf.emulator.store.settings import SAVED_KEY, read_settings, saved_schema, write_settings
from crmarena_sf.metadata import load_schema
from crmarena_sf.metadata.model import Schema, SObject

from crmarena_sf import interrupts

_fork_numbers = itertools.count(1)
_templates: dict[tuple[str, tuple[str, ...]], Org] = {}
_templates_lock = threading.Lock()
_root_lock = threading.RLock()

CHECK_THREADS = os.environ.get("CRMARENA_SF_CHECK_THREADS", "") not in ("", "0")
"""Raise :class:`CursorMisuse` when a thread takes an org's cursor without its lock (see the module docstring)."""


ADMIN_USER_ID = ids.make_id("005", 1)
"""The Id of every org's admin user, the running user (made once: every query's plan key holds it)."""


class CursorMisuse(RuntimeError):
    """An org's own cursor taken by a thread that neither holds the org's lock nor made the org."""


class Org:
    """One Salesforce org stored in DuckDB. Use :meth:`new`, :meth:`open` or :meth:`fork` to get one."""

    def __init__(
        self,
        connection: duckdb.DuckDBPyConnection,
        catalog: str,
        schema: Schema,
        profile: str,
        clock: OrgClock | None = None,
        timezone: str = "UTC",
        path: str | None = None,
    ) -> None:
        self._root = connection
        self._creator = threading.get_ident()
        """The thread that made this org: it may use the cursor without the lock (see CHECK_THREADS)."""
        self._con = connection.cursor()
        self._con.execute(f"USE {quote(catalog)}")
        self.catalog = catalog
        self.schema = schema
        self.profile = profile
        self.clock = clock or OrgClock()
        self.timezone = timezone
        self.path = path
        self._lock = threading.RLock()
        self._path_version = 0
        """Bumped whenever the search path changes: read cursors configured before are out of date."""
        self._read_pool = ReaderPool(
            self._new_read_cursor, self._configure_cursor, lambda: self._path_version
        )
        self.listeners: list[ChangeListener] = first_listeners()
        """Told of every write and schema change (:mod:`crmarena_sf.emulator.store.events`); copied by
        :meth:`fork`, so a listener must act on the org it is given."""
        self.cache: dict[str, Any] = {}
        """Per-org caches other layers keep (plans, indexes); cleared on reopen, not copied by fork."""
        self._depth = 0
        self._counters: dict[str, int] = {}
        self._autonumbers: dict[tuple[str, str], int] = {}
        self._source: dict[str, Org] = {}
        """table -> the org whose physical table this fork reads through its search path (copy-on-write)."""
        self._readers: dict[str, weakref.WeakSet[Org]] = {}
        """table -> forks that read this org's physical table."""
        self._closed = False
        self._parent: Org | None = None
        self._children: weakref.WeakSet[Org] = weakref.WeakSet()
        self._path = [catalog]
        """Catalogs DuckDB searches for an unqualified table: this org's, then its ancestors'."""
        self._materialized_in_tx: list[tuple[str, Org]] = []
        self.layout_version = 0
        self.index_generation = 0
        """Bumped whenever this org creates indexes (:mod:`crmarena_sf.emulator.store.indexes`)."""
        self._read_through_cache: tuple[int, tuple[tuple[str, str], ...]] | None = None
        """Bumped whenever a table moves (copy-on-write): SQL built with :meth:`table_sql` is stale after a bump."""
        """Tables this org copied inside the open transaction: a rollback makes them read through again."""
        self.read_only = False
        """True for an org file attached read-only (:meth:`open` with ``read_only``): fork it to write."""
        self._read_only_tables: tuple[str, ...] | None = None
        """A read-only org file's table names, asked once (:meth:`table_names`)."""
        self._write_lock: WriteLock | None = None
        """For an org file opened writable: takes the file for writing around each transaction."""

    # ------------------------------------------------------------------ cursors and locks
    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """The cursor this thread's statements run on: the org's own, or inside :meth:`reading` the thread's."""
        reader = self._read_pool.cursor
        if reader is not None:
            return reader
        if CHECK_THREADS and threading.get_ident() != self._creator and not self._lock._is_owned():
            raise CursorMisuse(
                f"{threading.current_thread().name} took the cursor of org {self.catalog} without its lock"
            )
        return self._con

    @con.setter
    def con(self, cursor: duckdb.DuckDBPyConnection) -> None:
        """Replace the org's own cursor (tests wrap it to record the SQL it runs)."""
        self._con = cursor

    @property
    def lock(self) -> threading.RLock:
        """The org's lock (writes, and reads outside :meth:`reading`); a reading thread needs none."""
        return NO_LOCK if self._read_pool.active else self._lock  # type: ignore[return-value]

    def reading(self) -> contextlib.AbstractContextManager[None]:
        """Read one committed snapshot on a cursor of this thread's own, beside writers (see
        :mod:`crmarena_sf.emulator.store.readers`); inside a write already, read that write's cursor instead."""
        if self._lock._is_owned():  # this thread is writing: it must see its own uncommitted rows
            return contextlib.nullcontext()
        return self._read_pool.reading()

    def _new_read_cursor(self) -> duckdb.DuckDBPyConnection:
        with _root_lock:
            return self._root.cursor()

    def _configure_cursor(self, cursor: duckdb.DuckDBPyConnection) -> None:
        cursor.execute(f"USE {quote(self.catalog)}")
        if len(self._path) > 1:
            cursor.execute(f"SET search_path = {sql_string(','.join(f'{c}.main' for c in self._path))}")

    # ------------------------------------------------------------------ life cycle
    @classmethod
    def new(
        cls,
        profile: str = "crmarena",
        path: str | Path | None = None,
        *,
        clock: OrgClock | None = None,
        timezone: str = "UTC",
        seed: bool = True,
        extra_describe_dirs: tuple[str, ...] = (),
    ) -> Org:
        """A brand-new org: every table of the ``profile`` schema, and (``seed``) what a new org contains.

        ``path`` makes it a DuckDB file (refused if it exists); otherwise it lives in memory. An
        in-memory seeded org is a fork of a per-process template, so making one costs milliseconds.
        """
        if path is None and seed:
            key = (profile, tuple(extra_describe_dirs))
            with _templates_lock:
                template = _templates.get(key)
                if template is None:
                    template = _templates[key] = cls._build(
                        profile, None, None, "UTC", True, extra_describe_dirs
                    )
            org = template.fork()
            org.timezone = timezone
            if clock is not None:
                org.clock = clock
            return org
        return cls._build(profile, path, clock, timezone, seed, extra_describe_dirs)

    @classmethod
    def _build(
        cls,
        profile: str,
        path: str | Path | None,
        clock: OrgClock | None,
        timezone: str,
        seed: bool,
        extra_describe_dirs: tuple[str, ...],
    ) -> Org:
        schema = load_schema(profile, extra_describe_dirs)
        if path is not None:
            path = Path(path)
            if path.exists():
                raise FileExistsError(f"{path} already exists; open it with Org.open or choose another path")
            connection = duckdb.connect(str(path))
        else:
            connection = duckdb.connect(":memory:")
        catalog = connection.execute("SELECT current_database()").fetchone()[0]
        org = cls(connection, catalog, schema, profile, clock, timezone, str(path) if path else None)
        with org.transaction():
            for obj in schema:
                org.con.execute(create_table_sql(obj))
            write_settings(org, profile, timezone, extra_describe_dirs)
            if seed:
                from crmarena_sf.emulator.store.seed import seed_new_org

                seed_new_org(org)
        return org

    @classmethod
    def open(cls, path: str | Path, *, clock: OrgClock | None = None, read_only: bool = False) -> Org:
        """Reopen an org file written by :meth:`new` (with ``path``) or :meth:`save`.

        The file is attached to an in-memory database, so other processes may read it while
        this org is open. ``read_only``: any number of processes may do so at once, the file
        never changes, and forks (which live in memory) still work, so a read-only org is a
        template to fork from. Otherwise writes go into the file: the org holds DuckDB's write
        lock only while a transaction runs (:class:`~crmarena_sf.emulator.store.files.WriteLock`), and a
        write that finds the file in use by another process fails with ``UNABLE_TO_LOCK_ROW``.

        Raises :class:`~crmarena_sf.emulator.store.files.FileInUse` when another process holds the file
        (for writing; or, when this org is to write, at all) and
        :class:`~crmarena_sf.emulator.store.files.NotAnOrgFile` (a ``ValueError``) for a file that is not an org file.
        """
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no org file at {path}")
        if not _is_duckdb_file(path):
            raise NotAnOrgFile(f"{path} is not a crmarena-sf org file: it is not a DuckDB database at all")
        connection = duckdb.connect(":memory:")
        catalog = f"{'readonly' if read_only else 'orgfile'}_{next(_fork_numbers)}"
        try:
            # Writable: attach for writing once, so a file this org could never write fails now.
            attach(connection, path, catalog, read_only=read_only)
            rows = read_settings(connection, catalog)
        except FileInUse:
            connection.close()
            raise
        except duckdb.CatalogException:
            connection.close()
            raise NotAnOrgFile(
                f"{path} is not a crmarena-sf org file: a DuckDB database without an org's tables "
                "(crmarena-sf load DATASET --org FILE.duckdb makes one)"
            ) from None
        except duckdb.Error as exc:
            connection.close()
            reason = str(exc).splitlines()[0]
            raise NotAnOrgFile(f"{path} is not a crmarena-sf org file ({reason})") from None
        profile = rows.get("profile", "crmarena")
        extra = tuple(json.loads(rows.get("extra_describe_dirs", "[]")))
        schema = saved_schema(load_schema(profile, extra), rows.get(SAVED_KEY))
        org = cls(connection, catalog, schema, profile, clock, rows.get("timezone", "UTC"), str(path))
        org.read_only = read_only
        if not read_only:
            org._write_lock = WriteLock(connection.cursor(), path, catalog, org._settle_cursors)
            org._write_lock.writing = True
            org._write_lock.release()  # read-only between transactions
        org.refresh_counters()
        return org

    def save(self, path: str | Path, *, index: bool = True) -> None:
        """Write this org (committed state) to a new DuckDB file that :meth:`open` reads.

        ``index`` (default) tells the listeners the file was written (``file written``,
        :mod:`crmarena_sf.emulator.store.events`): the search index brings its tables in the file up
        to date, so processes that open the file read-only never build one (they could not store it
        in the file).
        """
        path = Path(path)
        if path.exists():
            raise FileExistsError(f"{path} already exists")
        alias = f"save_{next(_fork_numbers)}"
        with self.lock:
            self.con.execute(f"ATTACH {sql_string(str(path))} AS {quote(alias)}")
            try:
                for table in self.table_names():
                    self.con.execute(
                        f"CREATE TABLE {quote(alias)}.{quote(table)} AS SELECT * FROM {quote(table)}"
                    )
            finally:
                self.con.execute(f"DETACH {quote(alias)}")
        with Org.open(path) as saved:
            ensure_indexes(saved)
            if index:
                saved.notify("", [], FILE_WRITTEN)  # the search index (the SOSL engine's) writes itself in

    def checkpoint(self) -> None:
        """Write what is committed into the org's file now (DuckDB's CHECKPOINT; nothing for an org in memory).

        Run on the connection the org was made with: DuckDB refuses it on a cursor while another
        cursor of the database holds a result open.
        """
        with _root_lock:
            self._root.execute("CHECKPOINT")

    def fork(self) -> Org:
        """A private copy of this org's committed state; writes on either side stay on that side."""
        with self.lock:
            if self._depth:
                raise RuntimeError("cannot fork an org inside a transaction")
            catalog = f"fork_{next(_fork_numbers)}"
            with _root_lock:  # a DuckDB connection is not thread-safe; forks of one template share it
                self._root.execute(f"ATTACH ':memory:' AS {quote(catalog)}")
                child = Org(self._root, catalog, self.schema, self.profile, OrgClock(), self.timezone)
            if self.clock.frozen:
                child.clock.freeze(self.clock.now())
            child._counters = dict(self._counters)
            child._autonumbers = dict(self._autonumbers)
            child.listeners = list(self.listeners)  # listeners take the org as argument: they serve forks too
            for table in self.table_names():
                owner = self._source.get(table, self)
                child._source[table] = owner
                owner._readers.setdefault(table, weakref.WeakSet()).add(child)
            child._parent = self  # the child's search path goes through this org's catalog
            child._path = [catalog, *self._path]
            child._set_search_path()
            inherit_indexed(self, child)
            self._children.add(child)
            child._finalizer = weakref.finalize(child, _detach, self._root, catalog)
            return child

    def close(self) -> None:
        """Release this org (a fork's memory is freed; an org file is closed)."""
        if self._closed:
            return
        with self.lock:
            for table, readers in list(self._readers.items()):
                for reader in list(readers):
                    reader._materialize(table)
            for child in list(self._children):
                if child._closed:
                    continue
                for table in [t for t, owner in child._source.items() if owner is not self]:
                    child._materialize(table)  # it may resolve through this catalog no more
                child._drop_from_path(self.catalog)
            self._closed = True
            if self._parent is not None:
                self._parent._children.discard(self)
            for table, owner in self._source.items():
                owner._readers.get(table, weakref.WeakSet()).discard(self)
            self._read_pool.close()
            self._con.close()
            if self.catalog.startswith("fork_"):
                self._finalizer()  # once: a closed fork's finalizer has nothing left to do
            else:
                if self._write_lock is not None:
                    self._write_lock.connection.close()
                self._root.close()  # releases the file (and its lock) for other processes

    @property
    def closed(self) -> bool:
        """True once :meth:`close` ran."""
        return self._closed

    def open_forks(self) -> list[Org]:
        """The forks of this org that are still open (not their own forks)."""
        return [child for child in list(self._children) if not child._closed]

    def __enter__(self) -> Org:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ settings
    @property
    def user_id(self) -> str:
        """The running user: the org's admin user."""
        return ADMIN_USER_ID

    def sobject(self, name: str) -> SObject:
        """The describe of ``name``; 404 NOT_FOUND (the REST answer) when the org has no such object."""
        obj = self.schema.get(name)
        if obj is None:
            raise SalesforceError("NOT_FOUND", "The requested resource does not exist", status=404)
        return obj

    # ------------------------------------------------------------------ transactions
    @contextlib.contextmanager
    def transaction(self) -> Iterator[Org]:
        """All writes inside commit together or not at all (re-entrant; the outermost block decides)."""
        if self._read_pool.active:
            raise RuntimeError("a write inside Org.reading(): writes take the org's lock and its own cursor")
        with self.lock:
            outermost = self._depth == 0
            if outermost:
                self._take_file()
                try:
                    parsed.execute(self.con, "BEGIN TRANSACTION")
                except BaseException:
                    self._release_file()
                    raise
            self._depth += 1
            try:
                yield self
            except BaseException:
                self._depth -= 1
                if outermost:
                    try:
                        parsed.execute(self.con, "ROLLBACK")
                        self._read_through_again_after_rollback()
                    finally:
                        self._release_file()
                raise
            else:
                self._depth -= 1
                if outermost:
                    try:
                        parsed.execute(self.con, "COMMIT")
                        self._materialized_in_tx.clear()
                    finally:
                        self._release_file()

    def _take_file(self) -> None:
        """An org file opened writable: attach it for writing for the transaction about to start."""
        if self._write_lock is None:
            return
        try:
            changed = self._write_lock.acquire()
        except FileInUse as exc:
            # Salesforce's answer when a record stays locked by another transaction (it too waits 10 s).
            raise SalesforceError(
                "UNABLE_TO_LOCK_ROW", f"unable to obtain exclusive access to this record: {exc}", []
            ) from None
        if changed:  # another process wrote the file between our transactions: continue its Ids
            self.refresh_counters()

    def _settle_cursors(self) -> None:
        """End any half-read result on this org's and its forks' cursors (they pin an attached file)."""
        for org in [self, *self._descendants()]:
            if not org._closed:
                with org._lock, contextlib.suppress(duckdb.Error):  # a fork's cursor: under the fork's lock
                    org._con.execute("SELECT 1")

    def _descendants(self) -> list[Org]:
        found = []
        for child in list(self._children):
            found.extend([child, *child._descendants()])
        return found

    def _release_file(self) -> None:
        if self._write_lock is not None:
            self._write_lock.release()

    def table_sql(self, table: str) -> str:
        """The SQL name to *read* ``table`` from: the physical table, even while this fork shares its parent's.

        An unqualified name works too (the search path finds it); a qualified one spares DuckDB
        the lookup and says exactly which copy is read. Cache SQL built from this name together
        with :attr:`layout_version`.
        """
        owner = self._source.get(table)
        if owner is None:
            return quote(table)
        return f"{quote(owner.catalog)}.main.{quote(table)}"

    @property
    def read_through(self) -> tuple[tuple[str, str], ...]:
        """``(table, catalog)`` for each table this fork still reads from another org, sorted.

        Query compilers qualify those tables with the catalog and key their caches on this
        value, which sibling forks of one template share until they write.
        """
        cached = self._read_through_cache
        if cached is None or cached[0] != self.layout_version:
            # list() copies the items at once: a writer may move a table meanwhile (Org.reading)
            value = tuple(sorted((table, owner.catalog) for table, owner in list(self._source.items())))
            cached = self._read_through_cache = (self.layout_version, value)
        return cached[1]

    def read_through_owners(self) -> list[tuple[str, Org]]:
        """``(table, org)`` for each table this fork reads from another org: that org."""
        return list(self._source.items())

    def before_write(self, table: str) -> None:
        """Make ``table`` private to this org before writing it (copy-on-write between forks)."""
        if table in self._source:
            self._materialize(table)
        readers = self._readers.get(table)
        if readers:
            for reader in list(readers):
                reader._materialize(table)

    def _materialize(self, table: str) -> None:
        if table not in self._source:
            return
        with self.lock:
            # Asked again under the lock: the parent's writer and this fork's own may both get here.
            owner = self._source.get(table)
            if owner is None or self._closed:
                return
            # Once this org holds its own copy, descendants that still read an ancestor's table
            # would find this copy first on their search path: give them theirs before it changes.
            for child in list(self._children):
                child._materialize(table)
            source = f"{quote(owner.catalog)}.main.{quote(table)}"
            if self._depth:
                # DuckDB writes one attached database per transaction; this one already is ours.
                self.con.execute(f"CREATE TABLE {quote(table)} AS SELECT * FROM {source}")
                copy_indexes(self, table, owner.catalog)
                self._materialized_in_tx.append((table, owner))
            else:
                self.con.execute("BEGIN")
                try:
                    self.con.execute(f"CREATE TABLE {quote(table)} AS SELECT * FROM {source}")
                    copy_indexes(self, table, owner.catalog)  # a copy keeps the table's indexes
                except BaseException:
                    self.con.execute("ROLLBACK")
                    raise
                self.con.execute("COMMIT")
            del self._source[table]
            owner._readers.get(table, weakref.WeakSet()).discard(self)
            self.layout_version += 1

    def _set_search_path(self) -> None:
        path = ",".join(f"{catalog}.main" for catalog in self._path)
        self._con.execute(f"SET search_path = {sql_string(path)}")
        self._path_version += 1

    def _drop_from_path(self, catalog: str) -> None:
        with self.lock:  # another thread may be querying this fork on its cursor
            for child in list(self._children):
                child._drop_from_path(catalog)
            if catalog in self._path:
                self._path.remove(catalog)
                self._set_search_path()

    def _read_through_again_after_rollback(self) -> None:
        """A rollback undid the copies made inside the transaction: read the owner's tables again."""
        for table, owner in self._materialized_in_tx:
            self.layout_version += 1
            self._source[table] = owner
            owner._readers.setdefault(table, weakref.WeakSet()).add(self)
        self._materialized_in_tx.clear()

    def table_names(self) -> list[str]:
        """Every table this org reads: its own and those a fork still shares with its parent, sorted.

        An org file attached read-only cannot gain or lose a table (DuckDB refuses DDL on it), so
        its list is asked once: every fork of a template asks it (about 1 ms each).
        """
        if self._read_only_tables is not None:
            return list(self._read_only_tables)
        with self.lock:
            # duckdb_tables(), not information_schema.tables (a view that also gathers views): half
            # the cost, and every fork asks it of its parent
            rows = self.con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = ? AND schema_name = 'main'",
                [self.catalog],
            ).fetchall()
        names = sorted({r[0] for r in rows} | set(self._source))
        if self.read_only:
            self._read_only_tables = tuple(names)
        return names

    def own_tables(self) -> list[str]:
        """The tables this org holds itself (a fork's copies; every table of an org that is no fork)."""
        return [table for table in self.table_names() if table not in self._source]

    def has_table(self, table: str) -> bool:
        """True when ``table`` exists for this org (its own, or shared with its parent)."""
        return table in self._source or table in self.table_names()

    # ------------------------------------------------------------------ ids
    def new_id(self, obj: SObject) -> str:
        """A fresh 18-character Id for a record of ``obj``."""
        prefix = obj.keyPrefix
        self._counters[prefix] = self._counters.get(prefix, 0) + 1
        return ids.make_id(prefix, self._counters[prefix])

    def next_autonumber(self, obj: SObject, field: str) -> str:
        from crmarena_sf.emulator.store.derive import AUTONUMBER_FORMATS

        digits, first = AUTONUMBER_FORMATS.get((obj.name, field), (8, 1))
        key = (obj.name, field)
        value = self._autonumbers.get(key, first - 1) + 1
        self._autonumbers[key] = value
        return str(value).zfill(digits)

    def refresh_counters(self) -> None:
        """Recompute Id counters and auto-numbers from the stored rows (after a bulk load or reopen)."""
        with self.lock:
            self._refresh_counters()

    def _refresh_counters(self) -> None:
        from crmarena_sf.emulator.store.derive import AUTONUMBER_FORMATS

        held = set(self.table_names())
        for obj in self.schema:
            if not obj.keyPrefix or obj.name not in held:  # an object a file written before lacks: no rows
                continue
            pattern = f"{obj.keyPrefix}{ids.EMULATOR_POD}0%"
            row = self.con.execute(
                f'SELECT max("Id") FROM {quote(obj.name)} WHERE "Id" LIKE ?', [pattern]
            ).fetchone()
            if row and row[0]:
                self._counters[obj.keyPrefix] = max(
                    self._counters.get(obj.keyPrefix, 0), ids.counter_of(row[0])
                )
            for f in obj.fields:
                if f.autoNumber:
                    found = self.con.execute(
                        f"SELECT max(TRY_CAST({quote(f.name)} AS BIGINT)) FROM {quote(obj.name)}"
                    ).fetchone()[0]
                    if found is not None:
                        self._autonumbers[(obj.name, f.name)] = int(found)
                    else:
                        self._autonumbers.setdefault(
                            (obj.name, f.name), AUTONUMBER_FORMATS.get((obj.name, f.name), (8, 1))[1] - 1
                        )

    # ------------------------------------------------------------------ records (see dml)
    def insert(self, object_name: str, values: dict[str, Any], **options: Any) -> str:
        """Create one record; returns its Id. Raises SalesforceError as a real org would refuse it."""
        return dml.insert(self, object_name, values, **options)

    def insert_many(
        self, object_name: str, rows: list[dict[str, Any]], **options: Any
    ) -> list[str | SalesforceError]:
        """Create many records of one object; per row the new Id or the error. Valid rows are kept."""
        return dml.insert_many(self, object_name, rows, **options)

    def update(self, object_name: str, record_id: str, values: dict[str, Any]) -> None:
        dml.update(self, object_name, record_id, values)

    def delete(self, object_name: str, record_id: str, *, hard: bool = False) -> None:
        """Delete a record into the recycle bin, or with ``hard`` for good (see :func:`dml.delete`)."""
        dml.delete(self, object_name, record_id, hard=hard)

    def undelete(self, object_name: str, record_id: str) -> None:
        dml.undelete(self, object_name, record_id)

    def get(
        self, object_name: str, record_id: str, fields: list[str] | None = None, include_deleted: bool = False
    ) -> dict[str, Any]:
        return dml.get(self, object_name, record_id, fields, include_deleted)

    def count(self, object_name: str, include_deleted: bool = False) -> int:
        """How many records of an object the org holds."""
        obj = self.sobject(object_name)
        where = "" if include_deleted or obj.field("IsDeleted") is None else ' WHERE NOT "IsDeleted"'
        with self.lock:
            return self.con.execute(f"SELECT count(*) FROM {quote(obj.name)}{where}").fetchone()[0]

    def notify(self, object_name: str, record_ids: list[str], kind: str) -> None:
        """Tell every listener of an event (:mod:`crmarena_sf.emulator.store.events`)."""
        for listener in self.listeners:
            listener(self, object_name, record_ids, kind)


DUCKDB_MAGIC = b"DUCK"
"""Bytes 8-11 of every DuckDB database file (DuckDB's storage format: its main header)."""


def _is_duckdb_file(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(12)[8:12] == DUCKDB_MAGIC
    except OSError:
        return True  # let DuckDB say what is wrong with it


def _detach(root: duckdb.DuckDBPyConnection, catalog: str) -> None:
    with _root_lock:
        try:
            root.execute(f"DETACH {quote(catalog)}")
        except duckdb.Error:
            pass
        except RuntimeError as exc:
            # Ctrl-C inside the DETACH (DuckDB's "Query interrupted"; the CLI and the runner keep the
            # interrupt itself): a finalizer cannot pass it on, and must not print it.
            if not interrupts.is_interrupt(exc):
                raise
