"""A push from start to end, and its teardown.

:func:`push`: read the org (nothing written), plan, stop with every problem found or print the
plan for ``--dry-run``; else create the schema, grant it, load each step, run the update pass,
publish the articles, and report. :func:`teardown`: delete every record carrying the push's key,
children first, and nothing else. Both stop with :class:`~crmarena_sf.loaders.push.errors.PushStopped`
(carrying the report so far) when the org refuses something no retry fixes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crmarena_sf.loaders.dataset import Dataset
from crmarena_sf.loaders.default_org import cache_root
from crmarena_sf.loaders.push import preflight
from crmarena_sf.loaders.push.client import PushClient, soql_string
from crmarena_sf.loaders.push.errors import OrgError, PushStopped, stopped
from crmarena_sf.loaders.push.idmap import IdMap
from crmarena_sf.loaders.push.keys import KEY_FIELD, PERMISSION_SET, TORN_DOWN
from crmarena_sf.loaders.push.loader import RETRIES, Loader
from crmarena_sf.loaders.push.ordering import order_objects
from crmarena_sf.loaders.push.plan import COLLECTION_SIZE, DEFAULT_BULK_THRESHOLD, PushPlan, make_plan
from crmarena_sf.loaders.push.references import seeded_references
from crmarena_sf.loaders.push.report import PushReport
from crmarena_sf.loaders.push.schema_deploy import deploy_schema, grant_access
from crmarena_sf.metadata import load_schema
from crmarena_sf.metadata.model import SObject


@dataclass
class PushOptions:
    skip: set[str] = field(default_factory=set)
    bulk_threshold: int = DEFAULT_BULK_THRESHOLD
    retries: int = RETRIES
    state: str | Path | None = None
    """The id map file (default ``$CRMARENA_SF_CACHE/push/<org Id>.duckdb``)."""
    dry_run: bool = False
    progress: bool = True
    bulk_poll_seconds: float = 2.0


class PushRefused(PushStopped):
    """Preflight found reasons not to start; nothing was written."""

    def __init__(self, reasons: list[str]) -> None:
        super().__init__(
            "the push cannot start (nothing was written):\n" + "\n".join(f"  - {r}" for r in reasons)
        )
        self.reasons = reasons


def default_state_path(org_id: str) -> Path:
    return cache_root() / "push" / f"{org_id}.duckdb"


def prepare(
    client: PushClient, dataset: Dataset, options: PushOptions
) -> tuple[preflight.TargetOrgFacts, PushPlan]:
    """Read the org and plan the push (reads only)."""
    facts = preflight.read_org(client, dataset.objects)
    plan = make_plan(
        dataset, facts, dataset_schema(dataset), skip=options.skip, bulk_threshold=options.bulk_threshold
    )
    plan.apply_present(preflight.read_present(client, plan, KEY_FIELD))
    return facts, plan


def dataset_schema(dataset: Dataset):
    """The metadata the dataset was made for: its schema profile, with an imported org's key prefixes."""
    from crmarena_sf.metadata.crmarena_pro import with_key_prefixes

    schema = load_schema(dataset.schema_profile)
    return with_key_prefixes(schema, dataset.key_prefixes)[0] if dataset.key_prefixes else schema


def push(sf: Any, dataset_dir: str | Path, options: PushOptions | None = None) -> tuple[PushReport, PushPlan]:
    """Push the dataset at ``dataset_dir`` into the org behind ``sf`` (a simple_salesforce.Salesforce)."""
    options = options or PushOptions()
    started = time.monotonic()
    dataset = Dataset(dataset_dir)
    client = PushClient(sf, bulk_poll_seconds=options.bulk_poll_seconds)
    report = PushReport(str(dataset.path))
    doing = "reading the org"
    idmap: IdMap | None = None
    try:
        facts, plan = prepare(client, dataset, options)
        report.org_id = facts.org_id
        reasons = preflight.problems(facts, plan)
        if reasons:
            raise PushRefused(reasons)
        if options.dry_run:
            return report, plan
        state = Path(options.state) if options.state else default_state_path(facts.org_id)
        idmap = IdMap(state)
        report.state = str(state)
        if idmap.meta("dataset") not in (None, plan.fingerprint):
            idmap.clear()
        idmap.set_meta("dataset", plan.fingerprint)
        doing = "creating the schema (Metadata API)"
        report.schema_created = deploy_schema(client, plan)
        doing = "granting the push's fields (permission set)"
        report.warnings += grant_access(client, plan, facts.user_id, facts.permission_set)
        doing = "matching records every org has"
        _record_known(client, facts, plan, idmap)
        loader = Loader(
            client, plan, idmap, org_id=facts.org_id, retries=options.retries, progress=options.progress
        )
        report.tally = loader.tally
        for step in plan.steps:
            doing = f"loading {step.label}"
            loader.load(step)
        doing = "the update pass"
        loader.update_pass()
        doing = "publishing articles"
        loader.publish()
        return report, plan
    except OrgError as exc:
        error = stopped(exc, doing)
        error.report = report
        raise error from None
    except PushStopped as exc:
        exc.report = report
        raise
    finally:
        report.api_calls = client.calls
        report.seconds = time.monotonic() - started
        if idmap is not None:
            idmap.close()


def _record_known(client: PushClient, facts: preflight.TargetOrgFacts, plan: PushPlan, idmap: IdMap) -> None:
    """Put in the id map what the org already holds: records loaded before, and the records every
    org has that the dataset points at (the running user, the standard price book ...)."""
    source = dataset_schema(plan.dataset)
    for name, present in plan.present.items():
        idmap.record(name, present)
    loaded = {row["Id"] for step in plan.steps for row in step.rows}
    wanted: set[str] = set()
    for step in plan.steps:
        for column in step.columns:
            if column.kind == "value":
                continue
            for row in step.rows:
                value = row.get(column.name)
                for item in value if isinstance(value, (list, tuple)) else [value]:
                    if isinstance(item, str) and item not in loaded:
                        wanted.add(item)
    known = seeded_references(client, facts, wanted, source, plan.standard_price_books)
    by_object: dict[str, dict[str, str]] = {}
    for dataset_id, org_id in known.items():
        obj = source.object_of_id(dataset_id)
        by_object.setdefault(obj.name if obj else "", {})[dataset_id] = org_id
    for name, pairs in by_object.items():
        idmap.record(name, pairs)


# ---------------------------------------------------------------------------- teardown
@dataclass
class TeardownReport:
    org_id: str = ""
    deleted: dict[str, int] = field(default_factory=dict)
    kept: dict[str, int] = field(default_factory=dict)
    """Records with the key that Salesforce never deletes (users are deactivated, not deleted)."""
    failures: list[tuple[str, str, str, str]] = field(default_factory=list)
    api_calls: int = 0

    def render(self) -> str:
        lines = [
            f"teardown of org {self.org_id}: deleted {sum(self.deleted.values())} records carrying {KEY_FIELD}"
        ]
        for name, count in self.deleted.items():
            lines.append(f"  {name}: {count}")
        for name, count in self.kept.items():
            lines.append(f"  {name}: {count} kept (Salesforce does not delete users; they stay inactive)")
        for name, record_id, code, message in self.failures:
            lines.append(f"  failed {name} {record_id}: {code}: {message}")
        lines.append(f"API calls used: {self.api_calls}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "org_id": self.org_id,
            "deleted": self.deleted,
            "kept": self.kept,
            "failures": [
                {"object": o, "id": i, "errorCode": c, "message": m} for o, i, c, m in self.failures
            ],
            "api_calls": self.api_calls,
        }


def _delete_records(
    client: PushClient, name: str, ids: list[str], report: TeardownReport
) -> list[tuple[str, str, str, str]]:
    """Delete ``ids`` of ``name`` in collections of COLLECTION_SIZE; the failures, as (object, Id, code, message)."""
    failures = []
    for start in range(0, len(ids), COLLECTION_SIZE):
        chunk = ids[start : start + COLLECTION_SIZE]
        results = client.rest(
            "composite/sobjects", method="DELETE", params={"ids": ",".join(chunk), "allOrNone": "false"}
        )
        for record_id, result in zip(chunk, results, strict=False):
            if result.get("success"):
                report.deleted[name] = report.deleted.get(name, 0) + 1
            else:
                error = (result.get("errors") or [{}])[0]
                failures.append((name, record_id, str(error.get("statusCode")), str(error.get("message"))))
    return failures


def teardown(sf: Any, *, state: str | Path | None = None) -> TeardownReport:
    """Delete every record that carries the push's key (children first); touch nothing else."""
    client = PushClient(sf)
    report = TeardownReport()
    doing = "reading the org"
    try:
        report.org_id, _ = client.identity()
        names = {o["name"] for o in client.rest("sobjects")["sobjects"]}
        candidates = sorted(names & set(load_schema("crmarena-pro").names))  # every object a push loads
        describes: dict[str, SObject] = {}
        for name in candidates:
            doc = SObject.model_validate(client.rest(f"sobjects/{name}/describe"))
            if doc.field(KEY_FIELD) is not None:
                describes[name] = doc
        edges: dict[str, dict[str, list]] = {}
        for name, doc in describes.items():
            for f in doc.fields:
                for parent in f.referenceTo if f.is_reference else []:
                    if parent in describes and parent != name:
                        edges.setdefault(name, {}).setdefault(parent, []).append(f)
        order, _ = order_objects(sorted(describes), edges)
        # Children first; a record a restricted child still holds (a price book entry its
        # opportunity products use, a contact with cases) answers DELETE_FAILED until that child
        # goes, which a later object's cascade may do: such records are tried again, pass after
        # pass, while a pass deletes anything (Object Reference, restrictedDelete).
        waiting = list(reversed(order))
        while waiting:
            blocked: list[str] = []
            deleted_before = sum(report.deleted.values())
            failures: list[tuple[str, str, str, str]] = []
            for name in waiting:
                doing = f"deleting {name}"
                keyed = preflight.keyed_records(
                    client, name, KEY_FIELD, statuses=("Online", "Draft", "Archived")
                )
                if not keyed:
                    continue
                if not describes[name].deletable:
                    report.kept[name] = len(keyed)
                    continue
                failed = _delete_records(client, name, sorted(keyed.values()), report)
                if any(code == "DELETE_FAILED" for _, _, code, _ in failed):
                    blocked.append(name)
                failures.extend(failed)
            if not blocked or sum(report.deleted.values()) == deleted_before:
                report.failures.extend(failures)
                break
            waiting = blocked
        doing = "marking the permission set"
        found = []
        if "PermissionSet" in names:
            found = client.query_all(
                f"SELECT Id FROM PermissionSet WHERE Name = {soql_string(PERMISSION_SET)}"
            )
        if found and not report.failures:
            client.rest(
                f"sobjects/PermissionSet/{found[0]['Id']}", method="PATCH", json={"Description": TORN_DOWN}
            )
        if not report.failures:
            idmap = IdMap(Path(state) if state else default_state_path(report.org_id))
            idmap.clear()
            idmap.close()
        return report
    except OrgError as exc:
        error = stopped(exc, doing)
        error.report = report
        raise error from None
    finally:
        report.api_calls = client.calls
