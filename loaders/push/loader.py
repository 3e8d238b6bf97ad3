"""Loading the plan's steps: records built from rows, written, retried, remembered.

For each step, the rows not yet in the org become records: the key, every planned field with
its references translated to org Ids through the id map (or, for Bulk API 2.0, named by key in
a relationship column), the values the org needs at insert (an order as ``Draft``). Rows the
org refuses are retried (:data:`RETRIES` times by default); a row-level error that would hit
every row (storage full, API requests used up) stops the push at once. Every confirmed row goes
into the id map immediately, so a stop or a kill loses nothing. After all steps: the update
pass (fields deferred to break cycles, orders activated), then Knowledge article versions are
published.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from crmarena_sf.loaders.push import rules
from crmarena_sf.loaders.push.client import PushClient
from crmarena_sf.loaders.push.errors import STOP_CODES, OrgError, stopped
from crmarena_sf.loaders.push.idmap import IdMap
from crmarena_sf.loaders.push.keys import KEY_FIELD
from crmarena_sf.loaders.push.plan import COLLECTION_SIZE, Column, PushPlan, Step
from crmarena_sf.loaders.push.preflight import keyed_records
from crmarena_sf.loaders.push.rows import csv_value, json_value, read_rows
from crmarena_sf.loaders.push.writers import Outcome, insert_collections, upsert_bulk, upsert_collections

from crmarena_sf.progress import progress_bar

RETRIES = 2
UPDATE_STEP = "update"
PUBLISH_STEP = "publish"


@dataclass
class ObjectTally:
    loaded: int = 0
    skipped: int = 0
    failed: int = 0


@dataclass
class Tally:
    """Counts per object, and each row that finally failed: (object, key, code, message)."""

    objects: dict[str, ObjectTally] = field(default_factory=dict)
    failures: list[tuple[str, str, str, str]] = field(default_factory=list)
    unresolved: dict[str, int] = field(default_factory=dict)
    published: int = 0
    updated: int = 0

    def of(self, name: str) -> ObjectTally:
        return self.objects.setdefault(name, ObjectTally())


class Loader:
    """Writes a plan's rows into the org, keeping ``idmap`` up to date."""

    def __init__(
        self,
        client: PushClient,
        plan: PushPlan,
        idmap: IdMap,
        *,
        org_id: str,
        retries: int = RETRIES,
        progress: bool = True,
    ) -> None:
        self.client = client
        self.plan = plan
        self.idmap = idmap
        self.org_id = org_id
        self.retries = retries
        self.progress = progress
        self.tally = Tally()

    # ------------------------------------------------------------------ steps
    def load(self, step: Step) -> None:
        if step.object in rules.KEYLESS:
            self._load_keyless(step)
            return
        tally = self.tally.of(step.object)
        tally.skipped += len(step.rows) - len(step.to_load)
        pending = list(step.to_load)
        with progress_bar(len(pending), step.label, enabled=self.progress and bool(pending)) as bar:

            def confirmed(outcome: Outcome, size: int) -> None:
                self.idmap.record(step.object, outcome.loaded)
                bar.update(len(outcome.loaded))

            failed: dict[str, tuple[str, str]] = {}
            for _attempt in range(self.retries + 1):
                if not pending:
                    break
                outcome = self._write(step, pending, insert=True, on_batch=confirmed)
                tally.loaded += len(outcome.loaded)
                self._stop_on_org_wide(step.object, outcome)
                failed = outcome.failed
                pending = [row for row in pending if row["Id"] in failed]
        for key, (code, message) in failed.items():
            tally.failed += 1
            self.tally.failures.append((step.object, key, code, message))
        if step.object == "Account":
            self.match_person_contacts()

    def _load_keyless(self, step: Step) -> None:
        """Rows of an object that takes no key field: matched on their natural key, inserted if missing."""
        fields = rules.KEYLESS[step.object]
        tally = self.tally.of(step.object)
        records = {}
        for row in step.rows:
            record = self._record(step, row, insert=True, columns=None, bulk=False)
            record.pop(KEY_FIELD, None)
            records[row["Id"]] = record
        existing = {
            tuple(r.get(f) for f in fields): r["Id"]
            for r in self.client.query_all(f"SELECT Id, {', '.join(fields)} FROM {step.object}")
        }
        found = {
            key: existing[tuple(record.get(f) for f in fields)]
            for key, record in records.items()
            if tuple(record.get(f) for f in fields) in existing
        }
        self.idmap.record(step.object, found)
        tally.skipped += len(found)
        pending = {key: record for key, record in records.items() if key not in found}
        failed: dict[str, tuple[str, str]] = {}
        for _attempt in range(self.retries + 1):
            if not pending:
                break
            outcome = insert_collections(self.client, step.object, pending)
            self.idmap.record(step.object, outcome.loaded)
            tally.loaded += len(outcome.loaded)
            self._stop_on_org_wide(step.object, outcome)
            failed = outcome.failed
            pending = {key: record for key, record in pending.items() if key in failed}
        for key, (code, message) in failed.items():
            tally.failed += 1
            self.tally.failures.append((step.object, key, code, message))

    def match_person_contacts(self) -> None:
        """A person account's contact is the org's: map the dataset's contact to ``PersonContactId``."""
        contacts = {
            r["Id"]: r.get("AccountId")
            for r in self._dataset_rows("Contact")
            if not rules.loads_row("Contact", r)
        }
        accounts = {account: contact for contact, account in contacts.items() if account}
        if not accounts:
            return
        org_accounts = {self.idmap.get(a): a for a in accounts if self.idmap.get(a)}
        found: dict[str, str] = {}
        for row in self.client.query_in(
            "SELECT Id, PersonContactId FROM Account WHERE Id", sorted(org_accounts)
        ):
            if row.get("PersonContactId"):
                found[accounts[org_accounts[row["Id"]]]] = row["PersonContactId"]
        self.idmap.record("Contact", found)

    def update_pass(self) -> None:
        """Write what inserts left out: deferred references, and values an insert could not take yet."""
        done = self.idmap.done(UPDATE_STEP)
        for step in self.plan.steps:
            names = self.plan.updates.get(step.object)
            if not names:
                continue
            columns = [c for c in step.columns if c.name in names]
            rows = [r for r in step.rows if r["Id"] in self.idmap and r["Id"] not in done]
            rows = [r for r in rows if any(r.get(c.name) is not None for c in columns)]
            if not rows:
                continue
            outcome = self._write(step, rows, insert=False, columns=columns)
            self._stop_on_org_wide(step.object, outcome)
            self.idmap.mark_done(UPDATE_STEP, list(outcome.loaded))
            self.tally.updated += len(outcome.loaded)
            for key, (code, message) in outcome.failed.items():
                self.tally.failures.append((step.object, key, code, message))

    def publish(self) -> None:
        """Publish the article versions the dataset has online that the org holds as drafts."""
        for name in [n for n in self.plan.loaded_objects if n.endswith("__kav")]:
            online = {
                r["Id"]
                for step in self.plan.steps
                if step.object == name
                for r in step.rows
                if r.get("PublishStatus") == rules.PUBLISHED
            }
            drafts = keyed_records(self.client, name, KEY_FIELD, statuses=("Draft",))
            wanted = sorted(key for key in drafts if key in online)
            for start in range(0, len(wanted), COLLECTION_SIZE):
                chunk = wanted[start : start + COLLECTION_SIZE]
                body = {"inputs": [{"articleVersionIdList": [drafts[key] for key in chunk]}]}
                result = self.client.rest(
                    "actions/standard/publishKnowledgeArticles", method="POST", json=body
                )
                first = result[0] if isinstance(result, list) and result else {}
                if first.get("isSuccess"):
                    self.tally.published += len(chunk)
                    self.idmap.mark_done(PUBLISH_STEP, chunk)
                    continue
                for error in first.get("errors") or []:
                    self.tally.failures.append(
                        (name, ",".join(chunk), str(error.get("statusCode")), str(error.get("message")))
                    )

    # ------------------------------------------------------------------ records
    def _write(
        self,
        step: Step,
        rows: list[dict[str, Any]],
        *,
        insert: bool,
        columns: list[Column] | None = None,
        on_batch: Callable | None = None,
    ) -> Outcome:
        bulk = step.transport == "bulk"
        records = [self._record(step, row, insert=insert, columns=columns, bulk=bulk) for row in rows]
        if bulk:
            header = sorted({k for r in records for k in r})
            records = [{k: r.get(k, "") for k in header} for r in records]
            return upsert_bulk(self.client, step.object, records, on_batch)
        return upsert_collections(self.client, step.object, records, on_batch)

    def _record(
        self, step: Step, row: dict[str, Any], *, insert: bool, columns: list[Column] | None, bulk: bool
    ) -> dict[str, Any]:
        name = step.object
        record: dict[str, Any] = {KEY_FIELD: row["Id"]}
        for column in columns if columns is not None else step.columns:
            if insert and column.deferred:
                continue
            if insert and rules.drops_on_insert(name, column.name, row):
                continue
            value = row.get(column.name)
            if insert:
                overridden, replacement = rules.insert_value(name, column.name, row)
                if overridden:
                    value = replacement
            if value is None:
                continue
            header, value = self._value(name, column, value, bulk)
            if value is None:  # it points at a record the org does not have: left for the org to default
                where = f"{name}.{column.name}"
                self.tally.unresolved[where] = self.tally.unresolved.get(where, 0) + 1
                continue
            record[header] = value
        if name == "User":
            if insert and record.get("Username"):
                record["Username"] = rules.username(record["Username"], self.org_id)
            if insert and self.plan.inactive_users and "IsActive" in {c.name for c in step.columns}:
                record["IsActive"] = "false" if bulk else False
        return record

    def _value(self, name: str, column: Column, value: Any, bulk: bool) -> tuple[str, Any]:
        if column.kind == "reference" and bulk and column.relationship:
            return f"{column.relationship}.{KEY_FIELD}", value
        if column.kind in ("reference", "id_text"):
            resolved = self.idmap.get(value)
            return column.name, resolved
        if column.kind == "id_list":
            resolved = [self.idmap.get(v) for v in value]
            resolved = [v for v in resolved if v]
            return column.name, resolved or None
        return column.name, csv_value(value) if bulk else json_value(value)

    def _stop_on_org_wide(self, name: str, outcome: Outcome) -> None:
        for code, message in outcome.failed.values():
            if code in STOP_CODES:
                raise stopped(OrgError(code, message), f"loading {name}")

    def _dataset_rows(self, name: str) -> list[dict[str, Any]]:
        return read_rows(self.plan.dataset, name) if name in self.plan.dataset.objects else []
