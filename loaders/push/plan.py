"""What a push will do: which objects, in which order, which fields, by which API, at what cost.

The order comes from the metadata and the data: an object is loaded after every object its
rows point at (references, Id-valued text, Id lists), computed by :mod:`crmarena_sf.loaders.push.ordering`;
a cycle, or a row pointing at another row of its own object, is broken by writing that field in
an update pass once everything is loaded (CumulusCI's ``after`` steps). A field is written when
the target org has it (or the push creates it) and it is createable there; the rest is listed
as not written. Large steps go through Bulk API 2.0 and small ones through sObject Collections
(:func:`transport`); the estimates of storage and API calls are what preflight compares with
the org's limits. :meth:`PushPlan.describe` is what ``--dry-run`` prints.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from crmarena_sf.emulator.store import seed
from crmarena_sf.emulator.store.storage import EMAIL_TEXT_FIELDS, record_kb
from crmarena_sf.loaders.dataset import Dataset
from crmarena_sf.loaders.push import rules
from crmarena_sf.loaders.push.keys import PERMISSION_SET, dataset_fingerprint
from crmarena_sf.loaders.push.ordering import order_objects
from crmarena_sf.loaders.push.preflight import TargetOrgFacts
from crmarena_sf.loaders.push.rows import read_rows
from crmarena_sf.loaders.push.target import Target
from crmarena_sf.metadata.model import Schema

COLLECTION_SIZE = 200
"""Records per sObject Collections call (REST API Developer Guide, "sObject Collections")."""
DEFAULT_BULK_THRESHOLD = 2000
"""Rows from which a step goes through Bulk API 2.0: below ~2,000 records Salesforce recommends
the REST API (Salesforce Developer Limits and Allocations Quick Reference, "Bulk API")."""
BULK_JOB_CALLS = 7
"""API calls of one Bulk API 2.0 job: create, upload, close, a few polls, successful and failed results."""
QUERY_PAGE = 2000
SETUP_CALLS = 12
"""Describes after the schema change, the permission set, its grants and assignment, the person contacts."""


@dataclass
class Column:
    """One field a step writes."""

    name: str
    kind: str
    """``value``, ``reference`` (an Id field), ``id_text`` (Ids in a text field) or ``id_list``."""
    nillable: bool = True
    deferred: bool = False
    """Written by the update pass, after every object is loaded (a cycle or a self-reference)."""
    relationship: str | None = None
    """For Bulk API: the relationship name whose parent is named by key (``Account``)."""


@dataclass
class Step:
    """The rows of one object loaded together (an object with phases has one step per phase)."""

    object: str
    phase: int
    rows: list[dict[str, Any]]
    columns: list[Column]
    to_load: list[dict[str, Any]] = field(default_factory=list)
    transport: str = "collections"

    @property
    def label(self) -> str:
        if self.object == "PricebookEntry":
            return "PricebookEntry (standard prices)" if self.phase == 0 else "PricebookEntry (price books)"
        return self.object

    @property
    def update_columns(self) -> list[Column]:
        return [c for c in self.columns if c.deferred]


@dataclass
class PushPlan:
    dataset: Dataset
    fingerprint: str
    target: Target
    steps: list[Step]
    skipped: dict[str, str]
    """Object -> why it is not loaded (``missing`` when the org lacks it)."""
    not_written: dict[str, list[str]]
    made_by_org: dict[str, int]
    """Object -> rows the org makes itself (a person account's contact, the standard price book)."""
    needs_person_accounts: bool
    inactive_users: bool
    updates: dict[str, list[str]]
    """Object -> fields written by the update pass."""
    standard_price_books: set[str]
    bulk_threshold: int
    present: dict[str, dict[str, str]] = field(default_factory=dict)
    storage_kb: float = 0.0
    api_calls: int = 0

    @property
    def loaded_objects(self) -> list[str]:
        seen: list[str] = []
        for step in self.steps:
            if step.object not in seen:
                seen.append(step.object)
        return seen

    def writes(self, object_name: str, field_name: str) -> bool | None:
        """True if the step writes the field, False if the dataset has it but the org will not take it, else None."""
        if field_name in self.not_written.get(object_name, []):
            return False
        for step in self.steps:
            if step.object == object_name and any(c.name == field_name for c in step.columns):
                return True
        return None

    def apply_present(self, present: dict[str, dict[str, str]]) -> None:
        """Set what the org already holds (``{object: {key: Id}}``) and the estimates that follow from it."""
        self.present = present
        kb, calls = 0.0, 0
        for step in self.steps:
            held = present.get(step.object, {})
            step.to_load = [row for row in step.rows if row["Id"] not in held]
            step.transport = transport(step, len(step.to_load), self.bulk_threshold)
            kb += sum(_row_kb(step.object, row) for row in step.to_load)
            calls += _write_calls(step.transport, len(step.to_load))
            if step.update_columns:
                calls += _write_calls(step.transport, len(step.rows))
            if step.object.endswith("__kav"):
                calls += math.ceil(len(step.rows) / COLLECTION_SIZE) + 2
        for name in self.loaded_objects:
            calls += 1 + len(present.get(name, {})) // QUERY_PAGE
        needs = self.target.needs
        metadata_calls = math.ceil(len(needs.objects) / 10) + math.ceil(len(needs.fields) / 10)
        calls += metadata_calls + SETUP_CALLS
        self.storage_kb = kb
        self.api_calls = calls

    def to_json(self) -> dict[str, Any]:
        """The plan as data (``--dry-run --json``)."""
        return {
            "dataset": str(self.dataset.path),
            "fingerprint": self.fingerprint,
            "create_objects": [o.name for o in self.target.needs.objects],
            "create_fields": [f"{name}.{f.name}" for name, f in self.target.needs.fields],
            "steps": [
                {
                    "object": s.object,
                    "label": s.label,
                    "to_load": len(s.to_load),
                    "already_loaded": len(s.rows) - len(s.to_load),
                    "transport": s.transport,
                    "update_pass": [c.name for c in s.update_columns],
                }
                for s in self.steps
            ],
            "skipped": self.skipped,
            "made_by_org": self.made_by_org,
            "not_written": self.not_written,
            "inactive_users": self.inactive_users,
            "storage_mb": round(self.storage_kb / 1024, 3),
            "api_calls": self.api_calls,
        }

    def describe(self) -> str:
        """The plan as text (``--dry-run``)."""
        lines = [f"push plan for {self.dataset.path} (dataset {self.fingerprint})"]
        needs = self.target.needs
        if needs:
            lines.append("schema to create (Metadata API):")
            for obj in needs.objects:
                lines.append(f"  object {obj.name} ({obj.label})")
            by_object: dict[str, list[str]] = {}
            for name, f in needs.fields:
                by_object.setdefault(name, []).append(f.name)
            for name, names in by_object.items():
                lines.append(f"  fields on {name}: {', '.join(names)}")
        else:
            lines.append("schema to create: nothing (the org has every field)")
        lines.append(f"permission set {PERMISSION_SET} granting the push's fields, assigned to you")
        lines.append("objects, in load order:")
        width = max((len(s.label) for s in self.steps), default=10)
        for step in self.steps:
            held = len(step.rows) - len(step.to_load)
            extra = f", {held} already in the org" if held else ""
            deferred = [c.name for c in step.update_columns]
            after = f"; then {', '.join(deferred)} in the update pass" if deferred else ""
            lines.append(
                f"  {step.label:<{width}}  {len(step.to_load):>6} to load via {step.transport}{extra}{after}"
            )
        for name, count in self.made_by_org.items():
            lines.append(f"  {name}: {count} made by the org itself (not loaded, matched after loading)")
        for name, why in self.skipped.items():
            lines.append(f"  {name}: skipped ({_why(why)})")
        if self.inactive_users:
            lines.append("agents are loaded as inactive users (not enough free Salesforce user licences)")
        if any(step.object.endswith("__kav") for step in self.steps):
            lines.append("article versions are published after loading (publishKnowledgeArticles)")
        for name, fields in self.not_written.items():
            if fields:
                lines.append(
                    f"  not written on {name} (the org sets them, or lacks them): {', '.join(fields)}"
                )
        lines.append(
            f"estimated data storage: {self.storage_kb / 1024:.2f} MB; API calls: about {self.api_calls}"
        )
        return "\n".join(lines)


def _why(reason: str) -> str:
    return {"missing": "the org has no such object", "skip": "--skip"}.get(reason, reason)


def transport(step: Step, rows: int, threshold: int) -> str:
    """Bulk API 2.0 for big steps; collections for small ones and for rows carrying Id lists,
    which Bulk API 2.0's CSV has no documented form for."""
    if rows >= threshold and not any(c.kind == "id_list" for c in step.columns):
        return "bulk"
    return "collections"


def _write_calls(kind: str, rows: int) -> int:
    if not rows:
        return 0
    return BULK_JOB_CALLS if kind == "bulk" else math.ceil(rows / COLLECTION_SIZE)


def _row_kb(object_name: str, row: dict[str, Any]) -> float:
    if object_name == "EmailMessage":
        return sum(len(str(row.get(f) or "").encode("utf-8")) for f in EMAIL_TEXT_FIELDS) / 1024
    return record_kb(object_name, person=rules.is_person_row(object_name, row))


# ---------------------------------------------------------------------------- making a plan
NOT_PUSHED = {
    "Knowledge__DataCategorySelection": "an article's data categories need the org's category groups "
    "(Setup, Data Categories), which a push does not create",
}
"""Objects of a dataset a push leaves out, and why (the benchmark's tasks do not use them)."""


def make_plan(
    dataset: Dataset,
    facts: TargetOrgFacts,
    source: Schema,
    *,
    skip: set[str] = frozenset(),
    bulk_threshold: int = DEFAULT_BULK_THRESHOLD,
) -> PushPlan:
    """The plan for pushing ``dataset`` (described by ``source``) into the org ``facts`` describes."""
    skipped: dict[str, str] = {}
    rows_of: dict[str, list[dict[str, Any]]] = {}
    made_by_org: dict[str, int] = {}
    for name in dataset.objects:
        src = source.get(name)
        if name in skip or src is None:
            skipped[name] = "skip" if name in skip else "not in the dataset's metadata"
            continue
        if name in NOT_PUSHED:
            skipped[name] = NOT_PUSHED[name]
            continue
        present_in_org = name in facts.describes
        if not present_in_org and not name.endswith("__c"):
            skipped[name] = "missing"
            continue
        if present_in_org and not facts.describes[name].createable:
            skipped[name] = "the org creates these itself"
            continue
        rows = read_rows(dataset, name)
        loaded = [r for r in rows if rules.loads_row(name, r)]
        if len(loaded) < len(rows):
            made_by_org[name] = len(rows) - len(loaded)
        if loaded:
            rows_of[name] = loaded
        elif not rows:
            skipped[name] = "no rows"
    target = Target(facts.describes, source, list(rows_of))
    ids_of = {row["Id"]: name for name, rows in rows_of.items() for row in rows}
    # A row pointing at a person account's contact waits for the account that makes it.
    waits_for = dict(ids_of)
    if "Account" in rows_of and "Contact" in dataset.objects:
        waits_for.update(
            {r["Id"]: "Account" for r in read_rows(dataset, "Contact") if not rules.loads_row("Contact", r)}
        )
    standard_books = {seed.STANDARD_PRICEBOOK_ID} | {
        r["Id"]
        for r in (read_rows(dataset, "Pricebook2") if "Pricebook2" in dataset.objects else [])
        if r.get("IsStandard")
    }
    columns_of: dict[str, list[Column]] = {}
    edges: dict[str, dict[str, list[Column]]] = {}
    not_written: dict[str, list[str]] = {}
    for name, rows in rows_of.items():
        columns, dropped = _columns(name, rows, target, source, ids_of)
        columns_of[name] = columns
        not_written[name] = dropped
        for column in columns:
            for parent in _targets(column, rows, waits_for):
                edges.setdefault(name, {}).setdefault(parent, []).append(column)
    order, deferred = order_objects(sorted(rows_of), edges)
    for column in deferred:
        column.deferred = True
    steps: list[Step] = []
    for name in order:
        phases: dict[int, list[dict[str, Any]]] = {}
        for row in rows_of[name]:
            phases.setdefault(rules.row_phase(name, row, standard_books), []).append(row)
        for phase in sorted(phases):
            steps.append(Step(name, phase, phases[phase], columns_of[name]))
    _choose_relationship_columns(steps, target, ids_of)
    updates = {s.object: [c.name for c in s.update_columns] for s in steps if s.update_columns}
    for step in steps:
        for column in step.columns:
            if any(rules.insert_value(step.object, column.name, row)[0] for row in step.rows):
                updates.setdefault(step.object, [])
                if column.name not in updates[step.object]:
                    updates[step.object].append(column.name)
    users = rows_of.get("User", [])
    wanted_active = sum(1 for r in users if r.get("IsActive"))
    free = facts.free_user_licences
    plan = PushPlan(
        dataset=dataset,
        fingerprint=dataset_fingerprint(dataset),
        target=target,
        steps=steps,
        skipped=skipped,
        not_written={k: v for k, v in not_written.items() if v},
        made_by_org=made_by_org,
        needs_person_accounts=any(rules.is_person_row("Account", r) for r in rows_of.get("Account", [])),
        inactive_users=bool(wanted_active and (free is None or wanted_active > free)),
        updates=updates,
        standard_price_books=standard_books,
        bulk_threshold=bulk_threshold,
    )
    plan.apply_present({})
    return plan


def _columns(
    name: str, rows: list[dict[str, Any]], target: Target, source: Schema, ids_of: dict[str, str]
) -> tuple[list[Column], list[str]]:
    """The fields a step writes, and the dataset's fields it cannot write."""
    used = Counter(k for row in rows for k, v in row.items() if v is not None and k != "Id")
    columns, dropped = [], []
    src = source.get(name)
    for field_name in [f.name for f in src.fields if f.name in used]:
        if rules.never_written(name, field_name):
            continue
        f = target.field(name, field_name)
        if f is None or not f.createable:
            dropped.append(field_name)
            continue
        if f.type == "junctionidlist":
            kind = "id_list"
        elif f.is_reference:
            kind = "reference"
        elif field_name in rules.ID_TEXT_FIELDS.get(name, ()):
            kind = "id_text"
        else:
            kind = "value"
        columns.append(Column(field_name, kind, nillable=f.nillable or f.defaultedOnCreate))
    return columns, dropped


def _targets(column: Column, rows: list[dict[str, Any]], ids_of: dict[str, str]) -> set[str]:
    """The loaded objects a column's values point at."""
    if column.kind == "value":
        return set()
    found = set()
    for row in rows:
        value = row.get(column.name)
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if item in ids_of:
                found.add(ids_of[item])
    return found


def _choose_relationship_columns(steps: list[Step], target: Target, ids_of: dict[str, str]) -> None:
    """A Bulk API reference column names its parent by key (``Account.CRMArena_Key__c``) when every
    value is a record the push loads with a key into that one parent object; else it carries Ids."""
    for step in steps:
        for column in step.columns:
            if column.kind != "reference" or column.deferred:
                continue
            f = target.field(step.object, column.name)
            if (
                f is None
                or len(f.referenceTo) != 1
                or not f.relationshipName
                or f.referenceTo[0] in rules.KEYLESS
            ):
                continue
            values = {row.get(column.name) for row in step.rows} - {None}
            if values and all(ids_of.get(v) == f.referenceTo[0] for v in values):
                column.relationship = f.relationshipName
