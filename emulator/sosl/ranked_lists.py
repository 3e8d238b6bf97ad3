"""Per word, its records already in ranking order: a common word's best few without reading all its matches.

A one-word search's ranking (:mod:`.matcher`) depends on a record only through the word's
weighted occurrences in it (``tf``) and the record's length: for one ``tf`` the shorter record
scores higher, and equal lengths go by Id. So for each (word, ``tf``) this table keeps the
records sorted by (length, Id), and the best ``k`` of the whole search are among the first ``k``
of each ``tf`` (a handful of lists): a search for the best 20 of a word held by 1,674
products reads a few short slices instead of 3,348 occurrences (issue 26).

Table ``_sf_search_ranked_<Object>(token, tf, n, missing, lens, ids)``: ``n`` records hold
``token`` with that ``tf`` (name fields weigh three, as in the ranking); the first
:data:`LIST_LENGTH` of them are listed in ``ids`` with their lengths in ``lens`` (tokens over
every searchable field, as the ranking counts them), both as comma-separated text (DuckDB hands
a string over faster than a list; an Id holds no comma). ``missing`` counts those that have no
length (only a phone number's digits), which the ranking handles otherwise. Only for searches
of all fields (``IN ALL FIELDS``, the default).

It is built with the object's index, and only for objects searched in DuckDB (token tables
of at least :data:`~crmarena_sf.emulator.sosl.index.TOKEN_INDEX_MIN` rows; smaller ones are
held in memory, :mod:`.postings`). A write does not rewrite lists (a word in every record
would cost a write the whole list): it notes the words of the records it removes from the
index and of those it adds in ``_sf_search_stale_<Object>(token)``, and a search of a noted
word ranks every match as before. A rebuild of the object starts both tables afresh.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crmarena_sf.emulator.sosl.fields import name_fields
from crmarena_sf.emulator.store import parsed
from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.emulator.store.files import sql_string
from crmarena_sf.emulator.store.indexes import index_name

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org
    from crmarena_sf.metadata.model import SObject

RANKED_PREFIX = "_sf_search_ranked_"
STALE_PREFIX = "_sf_search_stale_"
KNOWN_KEY = "sosl.ranked"
"""``org.cache``: the names of the objects that have ranked lists in this org."""
STALE_KEY = "sosl.stale"
"""``org.cache``: per object name, the words noted in its stale table (read once per org)."""
LIST_LENGTH = 100
"""Records kept per list, and the most best matches a search reads from the lists: one that wants
more (a RETURNING without LIMIT wants up to 2,000) ranks every match, in the one query the
matcher sends for all its objects. A longer list would cost every search of the word the
reading of it (a word in every record of 50,000 products is a list of 50,000)."""

Group = tuple[float, int, list[int], list[str]]
"""(tf, how many records, the first lengths, the first Ids) of one word's records of one ``tf``."""


def ranked_table(object_name: str) -> str:
    return RANKED_PREFIX + object_name


def stale_table(object_name: str) -> str:
    return STALE_PREFIX + object_name


def has_lists(org: Org, object_name: str) -> bool:
    """True when ``object_name`` has ranked lists in ``org`` (its own, or its parent's)."""
    known = org.cache.get(KNOWN_KEY)
    if known is None:
        known = note_tables(org, org.table_names())
    return object_name in known


def note_tables(org: Org, tables: list[str]) -> set[str]:
    """Remember which objects have lists, from the org's table names (asked anyway by the index)."""
    known = org.cache[KNOWN_KEY] = {
        name[len(RANKED_PREFIX) :] for name in tables if name.startswith(RANKED_PREFIX)
    }
    return known


def fill(org: Org, obj: SObject, tokens: str, docs: str, *, build: bool) -> None:
    """(Re)make ``obj``'s lists from its freshly built token and length tables (``tokens``, ``docs``:
    their SQL names); ``build``: make them if the object has none yet (else only refill existing ones)."""
    if not build and not has_lists(org, obj.name):
        return
    ranked, stale = ranked_table(obj.name), stale_table(obj.name)
    for table in (ranked, stale):
        org.before_write(table)
    names = ", ".join(sql_string(name) for name in sorted(name_fields(obj))) or "NULL"
    org.con.execute(
        f"CREATE TABLE IF NOT EXISTS {quote(ranked)} "
        "(token VARCHAR, tf DOUBLE, n INTEGER, missing INTEGER, lens VARCHAR, ids VARCHAR);\n"
        f"CREATE TABLE IF NOT EXISTS {quote(stale)} (token VARCHAR);\n"
        f"DELETE FROM {quote(ranked)};\n"
        f"DELETE FROM {quote(stale)};\n"
        f"INSERT INTO {quote(ranked)} "
        "SELECT token, tf, count(*)::INTEGER, count(*) FILTER (WHERE len IS NULL)::INTEGER, "
        f"array_to_string(list(len ORDER BY len NULLS LAST, record_id)[1:{LIST_LENGTH}], ','), "
        f"array_to_string(list(record_id ORDER BY len NULLS LAST, record_id)[1:{LIST_LENGTH}], ',') "
        "FROM (SELECT t.token, t.record_id, "
        f"sum(CASE WHEN t.field IN ({names}) THEN 3.0 ELSE 1.0 END)::DOUBLE AS tf, any_value(d.len) AS len "
        f"FROM {tokens} t LEFT JOIN (SELECT record_id, sum(len)::INTEGER AS len FROM {docs} GROUP BY ALL) d "
        "USING (record_id) GROUP BY t.token, t.record_id) "
        "GROUP BY token, tf ORDER BY token, tf;\n"
        f"CREATE INDEX IF NOT EXISTS {quote(index_name(ranked, 'token'))} ON {quote(ranked)} (token)"
    )
    _forget(org, obj)


def empty(org: Org, obj: SObject) -> None:
    """Empty ``obj``'s lists (a rebuild of an object that has no live records left)."""
    if not has_lists(org, obj.name):
        return
    for table in (ranked_table(obj.name), stale_table(obj.name)):
        org.before_write(table)
        org.con.execute(f"DELETE FROM {quote(table)}")
    _forget(org, obj)


def _forget(org: Org, obj: SObject) -> None:
    """Ask the catalog again at the next use (a build's transaction may yet roll back)."""
    org.cache.pop(KNOWN_KEY, None)
    org.cache.get(STALE_KEY, {}).pop(obj.name, None)


def mark_stale(org: Org, obj: SObject, words: list[str] | set[str]) -> None:
    """Note that ``words``' lists no longer tell their records (a write changed some of them)."""
    if not words or not has_lists(org, obj.name):
        return
    stale = stale_table(obj.name)
    org.before_write(stale)
    org.con.execute(f"INSERT INTO {quote(stale)} SELECT DISTINCT unnest(?::VARCHAR[])", [sorted(set(words))])
    known = org.cache.get(STALE_KEY, {}).get(obj.name)
    if known is not None:  # a rollback leaves words here the table forgets: they are only ranked in full
        known.update(words)


def _stale_words(org: Org, obj: SObject) -> set[str]:
    per_object = org.cache.setdefault(STALE_KEY, {})
    known = per_object.get(obj.name)
    if known is None:
        rows = org.con.execute(f"SELECT DISTINCT token FROM {org.table_sql(stale_table(obj.name))}")
        known = per_object[obj.name] = {token for (token,) in rows.fetchall()}
    return known


def groups(org: Org, obj: SObject, forms: tuple[str, ...], k: int) -> list[Group] | None:
    """The groups of the one form of ``forms`` that records hold, each cut to its first ``k``; [] when
    no record holds any; None when the lists cannot answer (a form was written since the lists
    were made, several forms occur, a record has no length, or a list cut at
    :data:`LIST_LENGTH` is shorter than ``k``)."""
    if not _stale_words(org, obj).isdisjoint(forms):
        return None
    marks = ", ".join("?" * len(forms))
    rows = parsed.execute(
        org.con,
        f"SELECT token, tf, n, missing, lens, ids FROM {org.table_sql(ranked_table(obj.name))} "
        f"WHERE token IN ({marks})",
        list(forms),
    ).fetchall()
    if len({row[0] for row in rows}) > 1:
        return None
    found = []
    for _, tf, n, missing, lens, ids in rows:
        listed = ids.split(",", k)[:k]
        if missing or n > len(listed) < k:
            return None
        found.append((tf, n, [int(length) for length in lens.split(",", k)[:k]], listed))
    return found
