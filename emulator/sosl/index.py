"""The search index: token tables inside the org's DuckDB catalog, kept in step with every write.

Per indexed object (see :mod:`.fields`) two tables:

- ``_sf_search_tokens_<Object>(record_id, field, pos, token)``: one row per token occurrence
  of a searchable field of a live record (position from 1; a phone number's digits run
  together get position 0), written sorted by token so DuckDB's zone maps skip most of
  the table for a lookup;
- ``_sf_search_docs_<Object>(record_id, field, len)``: tokens per field, for ranking.

and one ``_sf_search_meta(object, fingerprint, version)`` table; ``version`` is a random
name given to each state of an object's token table (new on every build and every write),
so a copy of the tokens held in memory can be shared by every org reading that same state
(a template and its forks; :mod:`.postings`).

Life cycle. :func:`ensure_index` builds the index on an org's first search and registers
:func:`on_change` in ``org.listeners`` (the store's events, :mod:`crmarena_sf.emulator.store.events`;
:func:`on_org_event` hears every org's schema growing and files written); from then on every insert, update, delete and
undelete updates the index inside the write's transaction, and a bulk load (kind
``"load"``) rebuilds the object. In an org that lives in memory (a fork, a new org) a write
only notes its records in ``_sf_search_pending(object, record_id)``, in the same transaction,
and the next :func:`ensure_index` (every search calls it first) indexes everything noted in
one batch: a search still sees every write before it, and a write no longer pays for
tokenising (half of a record write's cost). The note is a table, so a fork sees its parent's
notes and catches up for itself (copy-on-write, like the token tables). Listeners and tables pass to forks (tables copy-on-write,
read through ``org.table_sql``), so a fork of an indexed org never rebuilds anything; the
per-org ``org.cache`` only remembers that the tables exist. An org reopened from a file
has the tables but not the listener, and may have been written since it was opened: its
first search compares each object's fingerprint (a hash of its searchable text) with the
one stored when the object was last built and rebuilds the objects that differ (any
object written since its build, whether or not a listener kept its index current; in an
org file the listener stores the new fingerprint with each write, so a file written by a
writable org is not rebuilt by the processes that open it next).
Deleted records (``IsDeleted``) are not in the index.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import duckdb
from crmarena_sf.emulator.sosl import ranked_lists
from crmarena_sf.emulator.sosl.fields import indexed_fields, indexed_objects
from crmarena_sf.emulator.sosl.text import (
    PHONE_GROUPS_SQL,
    phone_digits,
    phone_digits_sql,
    searchable_text,
    searchable_text_sql,
    token_list_sql,
    tokens,
)
from crmarena_sf.emulator.store import parsed
from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.emulator.store.events import (
    DELETE,
    FILE_WRITTEN,
    INSERT,
    LOAD,
    RECORD_KINDS,
    SCHEMA_GROWN,
    UNDELETE,
    UPDATE,
)
from crmarena_sf.emulator.store.indexes import index_name
from crmarena_sf.metadata.model import SObject

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

CACHE_KEY = "sosl.index"
GENERATION_KEY = "sosl.generation"
VERSIONS_KEY = "sosl.versions"
META_TABLE = "_sf_search_meta"
TOKENS_PREFIX = "_sf_search_tokens_"
DOCS_PREFIX = "_sf_search_docs_"
LOAD_KIND = LOAD
PENDING_TABLE = "_sf_search_pending"
PENDING_KEY = "sosl.pending"
"""``org.cache`` flag: True once a write noted records, False once caught up (absent: look at the table)."""
TOKEN_INDEX_MIN = 100_000
"""Token tables this large are searched in DuckDB (smaller ones in memory, :mod:`.postings`) and get
an ART index on ``token``: a word's lookup then reads its rows, not the row group around them."""
STAGE_TABLE = "_sf_search_stage"
"""A temporary table (per connection, outside the org's catalog) holding a full build's token lists."""


class ProgressBar(Protocol):
    """What a build reports progress to (a tqdm bar qualifies)."""

    def update(self, n: int = 1) -> object: ...

    def set_postfix_str(self, text: str) -> object: ...


ProgressFactory = Callable[[int], AbstractContextManager[ProgressBar]]
"""``progress(total)``: a context manager yielding the bar for a build of ``total`` objects."""


def tokens_table(object_name: str) -> str:
    return TOKENS_PREFIX + object_name


def docs_table(object_name: str) -> str:
    return DOCS_PREFIX + object_name


@dataclass
class IndexState:
    """What an org's index holds (kept in ``org.cache``; rediscovered from the catalog by a fork)."""

    objects: set[str] = field(default_factory=set)


# ---------------------------------------------------------------------------- entry points
def ensure_index(org: Org, progress: ProgressFactory | None = None) -> IndexState:
    """The org's index, built (or checked, for a reopened org) on first use.

    ``progress(total)``, when given, opens a progress bar (a context manager yielding an
    object with tqdm's ``update`` and ``set_postfix_str``) for a build: a large org takes
    seconds per object, and a caller that shows a bar says what the wait is for.
    """
    state = org.cache.get(CACHE_KEY)
    if state is not None and state.objects:
        _catch_up(org, state)
        return state
    with org.lock:
        state = _discover(org)
        wanted = [obj for obj in indexed_objects(org.schema)]
        listening = on_change in org.listeners
        stale = [obj for obj in wanted if obj.name not in state.objects]
        if state.objects and not listening:
            stale += _changed_since_indexed(org, [o for o in wanted if o.name in state.objects])
        if stale and progress is not None:
            with progress(len(stale)) as bar:
                build_objects(org, stale, bar)
        elif stale:
            build_objects(org, stale)
        if stale:
            state.objects.update(obj.name for obj in stale)
        if not listening:
            org.listeners.append(on_change)
        org.cache[CACHE_KEY] = state
        _catch_up(org, state)
        return state


def on_change(org: Org, object_name: str, record_ids: list[str], kind: str) -> None:
    """Change listener: keep the index of ``object_name`` in step with a write (no-op without an index)."""
    if kind not in RECORD_KINDS and kind != LOAD_KIND:
        return  # the org's structural events are :func:`on_org_event`'s
    state = org.cache.get(CACHE_KEY)
    if state is None:
        state = org.cache[CACHE_KEY] = _discover(org)
    if object_name not in state.objects:
        return
    obj = org.schema.get(object_name)
    if kind == LOAD_KIND:
        _bump(org, object_name)
        build_objects(org, [obj])
        return
    if not record_ids:
        return
    if org.path is None:
        _note(org, object_name, record_ids)
        return
    _bump(org, object_name)
    if kind in (UPDATE, DELETE):
        _unindex(org, obj, record_ids)
    if kind in (INSERT, UPDATE, UNDELETE):
        _index(org, obj, record_ids)
    org.before_write(META_TABLE)
    if org.path is None:
        org.con.execute(
            f"UPDATE {META_TABLE} SET version = ? WHERE object = ?", [uuid.uuid4().hex, object_name]
        )
    else:
        # An org file: the index stays current, so say so in the file, or every process that opens
        # it would find the object changed since its build and rebuild it in memory.
        org.con.execute(
            f"UPDATE {META_TABLE} SET version = ?, fingerprint = ({_fingerprint_sql(org, obj)}) WHERE object = ?",
            [uuid.uuid4().hex, object_name],
        )


def on_org_event(org: Org, object_name: str, record_ids: list[str], kind: str) -> None:
    """Listener of every org (``crmarena_sf.emulator`` subscribes it): keep an index in step with the
    org's schema, and write one into a file the org is saved to.

    ``schema grown``: in an org that has an index, a new object joins it at once and an object that
    gained fields is rebuilt (the index holds an object's searchable fields by name); an org that
    never searched builds every object at its first search. ``file written``: the file gets an
    up-to-date index, so processes that open it read-only never build one.
    """
    if kind not in (SCHEMA_GROWN, FILE_WRITTEN):
        return
    with org.lock:
        tables = org.table_names()
        if kind == FILE_WRITTEN:
            ensure_index(org)
        elif META_TABLE in tables:  # else no search yet: the first one builds every object anew
            ensure_index(org)
            if tokens_table(object_name) in tables:
                org.notify(object_name, [], LOAD_KIND)


def build_objects(org: Org, objects: list[SObject], bar: ProgressBar | None = None) -> None:
    """(Re)build the index of ``objects`` from their live records, in one transaction.

    Statements are batched: the tables of every object are made (or emptied) at once, and
    only objects holding records are tokenised (a new org has mostly empty objects). ``bar``
    advances by one per object.
    """
    for obj in objects:
        _bump(org, obj.name)
    with org.transaction():
        # A fork reading its parent's meta table copies it first; created below, it would exist twice.
        org.before_write(META_TABLE)
        ddl = [
            f"CREATE TABLE IF NOT EXISTS {META_TABLE} (object VARCHAR, fingerprint HUGEINT, version VARCHAR)"
        ]
        for obj in objects:
            for table, columns in (
                (tokens_table(obj.name), "record_id VARCHAR, field VARCHAR, pos INTEGER, token VARCHAR"),
                (docs_table(obj.name), "record_id VARCHAR, field VARCHAR, len INTEGER"),
            ):
                org.before_write(table)
                ddl.append(f"CREATE TABLE IF NOT EXISTS {quote(table)} ({columns})")
                ddl.append(f"DELETE FROM {quote(table)}")
        org.con.execute(";\n".join(ddl))
        counts = org.con.execute(
            " UNION ALL ".join(
                f"SELECT {i}, count(*) FROM {org.table_sql(obj.name)} WHERE {_live(obj)}"
                for i, obj in enumerate(objects)
            )
        ).fetchall()
        for i, n in counts:
            if n:
                if bar is not None:
                    bar.set_postfix_str(objects[i].name)
                _fill(org, objects[i])
            else:
                ranked_lists.empty(org, objects[i])
            if bar is not None:
                bar.update(1)
        org.con.execute(
            f"DELETE FROM {META_TABLE} WHERE object IN (SELECT unnest(?::VARCHAR[]))",
            [[o.name for o in objects]],
        )
        org.con.execute(
            f"INSERT INTO {META_TABLE} "
            + " UNION ALL ".join(
                f"SELECT {_sql_string(o.name)}, ({_fingerprint_sql(org, o)}), {_sql_string(uuid.uuid4().hex)}"
                for o in objects
            )
        )


def _fill(org: Org, obj: SObject) -> None:
    """Tokenise every live record of ``obj`` into its (empty) index tables, sorted by token."""
    tokens, docs = tokens_table(obj.name), docs_table(obj.name)
    org.con.execute(f"CREATE OR REPLACE TEMP TABLE {STAGE_TABLE} AS {_stage_sql(org, obj)}")
    phones = _phone_sql(org, obj)
    rows = _tokens_sql(STAGE_TABLE) + (f" UNION ALL {phones}" if phones else "")
    org.con.execute(f"INSERT INTO {quote(tokens)} SELECT * FROM ({rows}) ORDER BY token")
    n_tokens = org.con.execute(f"SELECT count(*) FROM {quote(tokens)}").fetchone()[0]
    if n_tokens >= TOKEN_INDEX_MIN:
        org.con.execute(
            f"CREATE INDEX IF NOT EXISTS {quote(index_name(tokens, 'token'))} ON {quote(tokens)} (token)"
        )
    org.con.execute(f"INSERT INTO {quote(docs)} {_docs_sql(STAGE_TABLE)}")
    org.con.execute(f"DROP TABLE {STAGE_TABLE}")  # a failed build rolls back with the transaction
    ranked_lists.fill(org, obj, quote(tokens), quote(docs), build=n_tokens >= TOKEN_INDEX_MIN)


def version(org: Org, object_name: str) -> str | None:
    """The name of the current state of an object's token table (cached per org until it changes)."""
    versions = org.cache.setdefault(VERSIONS_KEY, {})
    current = generation(org, object_name)
    cached = versions.get(object_name)
    if cached is None or cached[0] != current:
        try:
            row = org.con.execute(
                f"SELECT version FROM {org.table_sql(META_TABLE)} WHERE object = ?", [object_name]
            ).fetchone()
        except duckdb.Error:  # an index built before versions existed: no shared copies
            row = None
        cached = versions[object_name] = (current, row[0] if row else None)
    return cached[1]


def generation(org: Org, object_name: str) -> int:
    """A number that changes whenever the object's index does (keys caches of index statistics)."""
    return org.cache.get(GENERATION_KEY, {}).get(object_name, 0)


def _bump(org: Org, object_name: str) -> None:
    generations = org.cache.setdefault(GENERATION_KEY, {})
    generations[object_name] = generations.get(object_name, 0) + 1


# ---------------------------------------------------------------------------- deferred (in-memory orgs)
def _note(org: Org, object_name: str, record_ids: list[str]) -> None:
    """Remember that ``record_ids`` changed (inside the write's transaction: a rollback forgets them too)."""
    org.before_write(PENDING_TABLE)  # a fork reading its parent's notes copies them first
    if not org.cache.get(PENDING_TABLE):
        if PENDING_TABLE in org.table_names():
            org.cache[PENDING_TABLE] = (
                True  # known to exist for good (one made in this write could roll back)
            )
        else:
            org.con.execute(f"CREATE TABLE {PENDING_TABLE} (object VARCHAR, record_id VARCHAR)")
    if len(record_ids) == 1:  # a REST write: the short statement, parsed once
        parsed.execute(org.con, f"INSERT INTO {PENDING_TABLE} VALUES (?, ?)", [object_name, record_ids[0]])
    else:
        org.con.execute(
            f"INSERT INTO {PENDING_TABLE} SELECT ?, unnest(?::VARCHAR[])", [object_name, list(record_ids)]
        )
    org.cache[PENDING_KEY] = True


def _catch_up(org: Org, state: IndexState) -> None:
    """Index the records writes noted since the last catch-up, one batch per object."""
    if org.cache.get(PENDING_KEY) is False or org.read_only:
        return
    with org.lock:
        try:
            noted = org.con.execute(
                f"SELECT object, list(DISTINCT record_id ORDER BY record_id) FROM {org.table_sql(PENDING_TABLE)} "
                "GROUP BY object ORDER BY object"
            ).fetchall()
        except duckdb.CatalogException:  # nothing was ever noted here
            noted = []
        if noted:
            with org.transaction():
                for object_name, record_ids in noted:
                    obj = org.schema.get(object_name)
                    if obj is None or object_name not in state.objects:
                        continue
                    _bump(org, object_name)
                    _unindex(org, obj, record_ids)
                    _index(org, obj, record_ids)
                    org.before_write(META_TABLE)
                    org.con.execute(
                        f"UPDATE {META_TABLE} SET version = ? WHERE object = ?",
                        [uuid.uuid4().hex, object_name],
                    )
                org.before_write(PENDING_TABLE)
                org.con.execute(f"DELETE FROM {PENDING_TABLE}")
        org.cache[PENDING_KEY] = False


# ---------------------------------------------------------------------------- incremental
def _index(org: Org, obj: SObject, record_ids: list[str]) -> None:
    """Add the tokens of a few live records, tokenised here (the SQL pipeline's fixed cost is larger)."""
    fields = indexed_fields(obj)
    columns = ", ".join(quote(f.name) for f in fields)
    if len(record_ids) <= 64:
        id_filter, params = f'"Id" IN ({", ".join("?" * len(record_ids))})', list(record_ids)
    else:
        id_filter, params = '"Id" IN (SELECT unnest(?::VARCHAR[]))', [list(record_ids)]
    rows = org.con.execute(
        f'SELECT "Id", {columns} FROM {org.table_sql(obj.name)} WHERE {id_filter} AND {_live(obj)}', params
    ).fetchall()
    token_rows: tuple[list, list, list, list] = ([], [], [], [])
    doc_rows: tuple[list, list, list] = ([], [], [])
    for row in rows:
        record_id = row[0]
        for f, value in zip(fields, row[1:]):
            if value is None:
                continue
            found = tokens(searchable_text(value, f.htmlFormatted))
            for pos, token in enumerate(found, 1):
                for column, item in zip(token_rows, (record_id, f.name, pos, token)):
                    column.append(item)
            if found:
                for column, item in zip(doc_rows, (record_id, f.name, len(found))):
                    column.append(item)
            digits = phone_digits(value) if f.type == "phone" else None
            if digits:
                for column, item in zip(token_rows, (record_id, f.name, 0, digits)):
                    column.append(item)
    tokens_name, docs_name = tokens_table(obj.name), docs_table(obj.name)
    ranked_lists.mark_stale(org, obj, token_rows[3])
    if token_rows[0]:
        org.before_write(tokens_name)
        org.con.execute(
            f"INSERT INTO {quote(tokens_name)} SELECT unnest(?::VARCHAR[]), unnest(?::VARCHAR[]), "
            "unnest(?::INTEGER[]), unnest(?::VARCHAR[])",
            list(token_rows),
        )
    if doc_rows[0]:
        org.before_write(docs_name)
        org.con.execute(
            f"INSERT INTO {quote(docs_name)} SELECT unnest(?::VARCHAR[]), unnest(?::VARCHAR[]), unnest(?::INTEGER[])",
            list(doc_rows),
        )


def _unindex(org: Org, obj: SObject, record_ids: list[str]) -> None:
    """Remove the tokens and lengths of ``record_ids``; the words removed are noted for the ranked lists."""
    tokens, docs = tokens_table(obj.name), docs_table(obj.name)
    delete = "DELETE FROM {} WHERE record_id IN (SELECT unnest(?::VARCHAR[]))"
    for table in (tokens, docs):
        org.before_write(table)
    if ranked_lists.has_lists(org, obj.name):
        removed = org.con.execute(delete.format(quote(tokens)) + " RETURNING token", [record_ids]).fetchall()
        ranked_lists.mark_stale(org, obj, {token for (token,) in removed})
    else:
        org.con.execute(delete.format(quote(tokens)), [record_ids])
    org.con.execute(delete.format(quote(docs)), [record_ids])


def _live(obj: SObject) -> str:
    """WHERE text for the records the index holds: the live ones."""
    return 'NOT coalesce("IsDeleted", false)' if obj.field("IsDeleted") is not None else "true"


def _stage_sql(org: Org, obj: SObject) -> str:
    """SELECT (record_id, field, t): each non-null searchable field of a live record and its token list.

    One scan of the object's table: the fields are UNPIVOTed into rows (nulls dropped), rich
    text is stripped of tags and entities first, then every value is tokenised.
    """
    fields = indexed_fields(obj)
    columns = ", ".join(
        f"{searchable_text_sql(quote(f.name), f.htmlFormatted)} AS {quote(f.name)}" for f in fields
    )
    names = ", ".join(quote(f.name) for f in fields)
    source = f'SELECT "Id" AS record_id, {columns} FROM {org.table_sql(obj.name)} WHERE {_live(obj)}'
    return (
        f"SELECT record_id, field, {token_list_sql('txt')} AS t "
        f"FROM (UNPIVOT ({source}) ON {names} INTO NAME field VALUE txt)"
    )


def _tokens_sql(stage: str) -> str:
    return (
        f"SELECT record_id, field, generate_subscripts(t, 1)::INTEGER AS pos, unnest(t) AS token FROM {stage}"
    )


def _docs_sql(stage: str) -> str:
    return f"SELECT record_id, field, len(t)::INTEGER FROM {stage} WHERE len(t) > 0"


def _phone_sql(org: Org, obj: SObject) -> str | None:
    """SELECT rows for phone numbers' digits run together (position 0), for numbers of several digit groups."""
    phones = ", ".join(quote(f.name) for f in indexed_fields(obj) if f.type == "phone")
    if not phones:
        return None
    return (
        f"SELECT record_id, field, 0 AS pos, {phone_digits_sql('txt')} AS token FROM (UNPIVOT "
        f'(SELECT "Id" AS record_id, {phones} FROM {org.table_sql(obj.name)} WHERE {_live(obj)}) '
        f"ON {phones} INTO NAME field VALUE txt) WHERE regexp_matches(txt, {PHONE_GROUPS_SQL})"
    )


# ---------------------------------------------------------------------------- state and freshness
def _discover(org: Org) -> IndexState:
    """The objects whose token tables exist in this org's catalog (a fork sees its parent's)."""
    tables = org.table_names()
    ranked_lists.note_tables(org, tables)
    names = {name[len(TOKENS_PREFIX) :] for name in tables if name.startswith(TOKENS_PREFIX)}
    return IndexState({name for name in names if org.schema.get(name) is not None})


def _fingerprint_sql(org: Org, obj: SObject) -> str:
    """A hash of every live record's searchable text: it changes when what the index holds should."""
    columns = ", ".join(['"Id"'] + [quote(f.name) for f in indexed_fields(obj)])
    deleted = ', "IsDeleted"' if obj.field("IsDeleted") is not None else ""
    return f"SELECT coalesce(sum(hash({columns}{deleted})), 0)::HUGEINT FROM {org.table_sql(obj.name)}"


def _changed_since_indexed(org: Org, objects: list[SObject]) -> list[SObject]:
    """Objects whose stored fingerprint is missing or differs from their current text."""
    if not objects:
        return []
    try:
        stored = dict(
            org.con.execute(f"SELECT object, fingerprint FROM {org.table_sql(META_TABLE)}").fetchall()
        )
    except duckdb.CatalogException:  # no meta table: nothing can be trusted
        return list(objects)
    changed = []
    for obj in objects:
        expected = stored.get(obj.name)
        if expected is None or org.con.execute(_fingerprint_sql(org, obj)).fetchone()[0] != expected:
            changed.append(obj)
    return changed


def _sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
