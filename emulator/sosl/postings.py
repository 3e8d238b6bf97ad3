"""Small token tables held in memory, shared by every org that reads the same state of them.

A FIND on knowledge articles or products (CRMArena's searches) would otherwise spend most
of its time in DuckDB's fixed cost per query on a table of a few thousand rows. An object
whose index holds fewer than :data:`MAX_TOKENS` tokens is read once into a token ->
occurrences mapping, keyed by the table's *version* (a random name the index gives each
state of the table, :func:`crmarena_sf.emulator.sosl.index.version`): a template org and all its forks
read the same physical table, so they share one copy, and any write gives the writer's table
a new version. Copies are pure functions of their version, kept in a bounded LRU.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from crmarena_sf.emulator.sosl.index import TOKEN_INDEX_MIN, tokens_table, version

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org
    from crmarena_sf.metadata.model import SObject

MAX_TOKENS = TOKEN_INDEX_MIN
"""Token tables at least this large stay in DuckDB (where they have an index on ``token``)."""
MAX_COPIES = 64

Occurrence = tuple[str, str, int]
"""(record Id, field, position) of one token."""


class Postings(dict[str, list[Occurrence]]):
    """token -> its occurrences; and per token, on first use, the same by record (for phrases).

    A phrase is checked from its rarest word: the other words' occurrences are looked up by
    record instead of read whole, so a phrase with a word in every record ("example", "com"
    of an email address) costs what its rarest word does.
    """

    def __init__(self) -> None:
        super().__init__()
        self._by_record: dict[str, dict[str, set[tuple[str, int]]]] = {}
        self._lock = threading.Lock()

    def by_record(self, token: str) -> dict[str, set[tuple[str, int]]]:
        """record Id -> {(field, position)} where ``token`` occurs (built once per copy)."""
        found = self._by_record.get(token)
        if found is None:
            found = {}
            for record_id, field, pos in self.get(token, ()):
                found.setdefault(record_id, set()).add((field, pos))
            with self._lock:
                self._by_record[token] = found
        return found


_copies: OrderedDict[str, Postings] = OrderedDict()
_lock = threading.Lock()


def postings_of(org: Org, obj: SObject, n_tokens: int) -> Postings | None:
    """The in-memory postings of ``obj``'s token table, or None when it is large or unversioned."""
    if n_tokens >= MAX_TOKENS:
        return None
    name = version(org, obj.name)
    if name is None:
        return None
    with _lock:
        found = _copies.get(name)
        if found is not None:
            _copies.move_to_end(name)
            return found
    found = Postings()
    rows = org.con.execute(
        f"SELECT token, record_id, field, pos FROM {org.table_sql(tokens_table(obj.name))}"
    )
    for token, record_id, field, pos in rows.fetchall():
        found.setdefault(token, []).append((record_id, field, pos))
    with _lock:
        _copies[name] = found
        while len(_copies) > MAX_COPIES:
            _copies.popitem(last=False)
    return found


def leaf_occurrences(
    postings: Postings,
    pieces: tuple[str, ...],
    lookup: tuple[str, ...] | None,
    fields: tuple[str, ...] | None,
) -> list[Occurrence]:
    """Occurrences of one leaf: a plain word's forms, a wildcard word, or consecutive pieces in one field."""
    wanted = None if fields is None else set(fields)
    if lookup is not None:
        found = [o for token in lookup for o in postings.get(token, ())]
    elif len(pieces) == 1:
        found = _matching(postings, pieces[0])
    else:
        found = _phrase(postings, pieces)
    return found if wanted is None else [o for o in found if o[1] in wanted]


def _matching(postings: Postings, piece: str) -> list[Occurrence]:
    if "*" not in piece and "?" not in piece:
        return list(postings.get(piece, ()))
    pattern = _wildcard(piece)
    return [o for token, found in postings.items() if pattern.fullmatch(token) for o in found]


def _phrase(postings: Postings, pieces: tuple[str, ...]) -> list[Occurrence]:
    """Occurrences of the first piece followed, position by position in the same field, by the others."""
    if any("*" in piece or "?" in piece for piece in pieces):
        return _phrase_scan(postings, pieces)
    lists = [postings.get(piece, ()) for piece in pieces]
    rarest = min(range(len(pieces)), key=lambda i: len(lists[i]))
    others = [(i, postings.by_record(piece)) for i, piece in enumerate(pieces) if i != rarest]
    found = []
    for r, f, p in lists[rarest]:
        start = p - rarest
        if start > 0 and all((f, start + i) in by_record.get(r, ()) for i, by_record in others):
            found.append((r, f, start))
    return found


def _phrase_scan(postings: Postings, pieces: tuple[str, ...]) -> list[Occurrence]:
    """:func:`_phrase` for pieces with wildcards: every piece's matches, read whole."""
    later = [{(r, f, p) for r, f, p in _matching(postings, piece)} for piece in pieces[1:]]
    return [
        (r, f, p)
        for r, f, p in _matching(postings, pieces[0])
        if p > 0 and all((r, f, p + j) in found for j, found in enumerate(later, 1))
    ]


def _wildcard(piece: str) -> re.Pattern:
    """``*`` is any run of characters (none included), ``?`` exactly one (tokens hold no other syntax)."""
    return re.compile("".join(".*" if ch == "*" else "." if ch == "?" else re.escape(ch) for ch in piece))
