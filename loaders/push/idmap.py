"""The local map from a dataset's record Ids to the org's, kept in DuckDB as the push goes.

One file per org (``$CRMARENA_SF_CACHE/push/<org Id>.duckdb`` unless ``--state`` names one),
CumulusCI's id-table idea: ``ids(key, object, org_id)`` holds every record the push loaded or
found already loaded, and every record the dataset refers to that the org had before (the
running user, the standard price book, profiles, record types, a person account's contact);
``done(step, key)`` remembers the rows whose after-load update (activating an order, a field
that closed a cycle) was written, and which articles were published. Each batch is committed
as soon as the org has confirmed it, so a killed push loses at most what was in flight, and
that is found again by key on the next run. The org stays the truth: a run re-reads the keys
the org holds and refreshes the map.
"""

from __future__ import annotations

from pathlib import Path

import duckdb


class IdMap:
    """Dataset Id -> org Id for one org, in memory and in a DuckDB file."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path) if path else None
        self.ids: dict[str, str] = {}
        self.objects: dict[str, str] = {}
        self._done: dict[str, set[str]] = {}
        self._con = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._con = duckdb.connect(str(self.path))
            self._con.execute(
                "CREATE TABLE IF NOT EXISTS ids (key VARCHAR PRIMARY KEY, object VARCHAR, org_id VARCHAR)"
            )
            self._con.execute(
                "CREATE TABLE IF NOT EXISTS done (step VARCHAR, key VARCHAR, PRIMARY KEY (step, key))"
            )
            self._con.execute("CREATE TABLE IF NOT EXISTS meta (name VARCHAR PRIMARY KEY, value VARCHAR)")
            for key, obj, org_id in self._con.execute("SELECT key, object, org_id FROM ids").fetchall():
                self.ids[key] = org_id
                self.objects[key] = obj

    def get(self, key: str) -> str | None:
        return self.ids.get(key)

    def __contains__(self, key: str) -> bool:
        return key in self.ids

    def record(self, object_name: str, pairs: dict[str, str]) -> None:
        """Remember ``{dataset Id: org Id}`` for records of ``object_name`` (committed at once)."""
        if not pairs:
            return
        self.ids.update(pairs)
        for key in pairs:
            self.objects[key] = object_name
        if self._con is not None:
            keys = list(pairs)
            self._con.execute(
                "INSERT OR REPLACE INTO ids SELECT unnest(?::VARCHAR[]), ?, unnest(?::VARCHAR[])",
                [keys, object_name, [pairs[k] for k in keys]],
            )

    def forget(self, keys: list[str]) -> None:
        for key in keys:
            self.ids.pop(key, None)
            self.objects.pop(key, None)
        if self._con is not None and keys:
            self._con.execute("DELETE FROM ids WHERE key IN (SELECT unnest(?::VARCHAR[]))", [keys])

    def done(self, step: str) -> set[str]:
        """Keys whose after-load ``step`` was written."""
        if self._con is None:
            return set(self._done.get(step, ()))
        return {r[0] for r in self._con.execute("SELECT key FROM done WHERE step = ?", [step]).fetchall()}

    def mark_done(self, step: str, keys: list[str]) -> None:
        if not keys:
            return
        self._done.setdefault(step, set()).update(keys)
        if self._con is not None:
            self._con.execute(
                "INSERT OR REPLACE INTO done SELECT ?, unnest(?::VARCHAR[])", [step, list(keys)]
            )

    def clear(self) -> None:
        """Forget everything (after a teardown)."""
        self.ids.clear()
        self.objects.clear()
        self._done.clear()
        if self._con is not None:
            self._con.execute("DELETE FROM ids; DELETE FROM done")

    def meta(self, name: str) -> str | None:
        if self._con is None:
            return None
        row = self._con.execute("SELECT value FROM meta WHERE name = ?", [name]).fetchone()
        return row[0] if row else None

    def set_meta(self, name: str, value: str) -> None:
        if self._con is not None:
            self._con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [name, value])

    def mapping(self) -> dict[str, str]:
        """Every known dataset Id -> org Id."""
        return dict(self.ids)

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None
