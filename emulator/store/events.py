"""What the store tells the layers above it when an org changes: its change listeners and their events.

The store knows nothing of the engines built on it; they keep what they derive from an org's
data (the search index, row estimates, storage usage) current by listening. A listener is
called as ``listener(org, object_name, record_ids, kind)``:

- ``insert``, ``update``, ``delete``, ``undelete``: records of ``object_name`` were written
  (``record_ids``), inside the write's transaction;
- ``load``: ``object_name`` was bulk loaded (no Ids);
- ``schema grown``: the org's schema just grew; ``object_name`` is a new object or, changed by
  the Metadata API (``createMetadata``), one whose table gained a column (no Ids);
- ``file written``: the org was saved to a file; ``org`` is that file, opened (no object, no Ids).

Each org has its own list (:attr:`Org.listeners`, copied to its forks, so a listener must act on
the org it is handed). :func:`listen_to_every_org` adds a listener every org starts with: the
emulator package subscribes the search index that way (``crmarena_sf/emulator/__init__.py``),
so an org that never searched still gets an up-to-date index in a file it writes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

ChangeListener = Callable[["Org", str, list[str], str], None]
"""Called as ``listener(org, object_name, record_ids, kind)`` (see the module docstring)."""

INSERT = "insert"
UPDATE = "update"
DELETE = "delete"
UNDELETE = "undelete"
RECORD_KINDS = frozenset({INSERT, UPDATE, DELETE, UNDELETE})
"""Events that name written records."""
LOAD = "load"
SCHEMA_GROWN = "schema grown"
FILE_WRITTEN = "file written"

_every_org: list[ChangeListener] = []


def listen_to_every_org(listener: ChangeListener) -> None:
    """Give every org made from now on ``listener`` (once, however often it is asked)."""
    if listener not in _every_org:
        _every_org.append(listener)


def first_listeners() -> list[ChangeListener]:
    """The listeners a new org starts with (a list of its own)."""
    return list(_every_org)
