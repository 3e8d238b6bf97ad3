"""Expand the compact specs into describe documents: ``python -m crmarena_sf.metadata.build``.

Writes ``metadata/describes/<Object>.json``, one per sObject, in the body format of
``GET /services/data/vXX.X/sobjects/<Object>/describe``. Child relationships are derived
by inverting every reference field across the whole schema, so parent and child always
agree. ``python -m crmarena_sf.metadata.build --check`` fails when the committed documents are stale.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from crmarena_sf.metadata import API_VERSION
from crmarena_sf.metadata.spec import OBJECT_DEFAULTS, expand_field
from crmarena_sf.metadata.specs import all_specs

DESCRIBE_DIR = Path(__file__).parent / "describes"
MASTER_RECORD_TYPE_ID = "012000000000000AAA"
UI_HOST = "https://crmarena-sf.my.salesforce.com"


def build_describes(specs: list[dict] | None = None) -> dict[str, dict[str, Any]]:
    """Describe documents for ``specs`` (default: every spec of the project), keyed by object name."""
    specs = all_specs() if specs is None else specs
    children = _child_relationships(specs)
    _add_person_account_relationships(specs, children)
    return {spec["name"]: _describe(spec, children.get(spec["name"], [])) for spec in specs}


def _child_relationships(specs: list[dict]) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for spec in specs:
        for f in spec["fields"]:
            if f["type"] != "reference":
                continue
            targets = [f["to"]] if isinstance(f["to"], str) else f["to"]
            for parent in targets:
                found.setdefault(parent, []).append(
                    {
                        "cascadeDelete": bool(f.get("cascade", False)),
                        "childSObject": spec["name"],
                        "deprecatedAndHidden": False,
                        "field": f["name"],
                        "junctionIdListNames": [],
                        "junctionReferenceTo": [],
                        "relationshipName": f.get("child"),
                        "restrictedDelete": bool(f.get("restrict", False)),
                    }
                )
    for rels in found.values():
        rels.sort(key=lambda r: (r["childSObject"], r["field"]))
    return found


def _add_person_account_relationships(specs: list[dict], children: dict[str, list[dict]]) -> None:
    """In a person-account org, Account also lists each named child relationship of Contact, prefixed ``Person``.

    A real person-account describe shows them (``PersonCases`` for Case.ContactId ...): the child
    rows point at the person account's contact, so they join on ``Account.PersonContactId``.
    """
    account = next((s for s in specs if s["name"] == "Account"), None)
    if account is None or not any(f["name"] == "IsPersonAccount" for f in account["fields"]):
        return
    person = [
        {**rel, "relationshipName": "Person" + rel["relationshipName"]}
        for rel in children.get("Contact", [])
        if rel["relationshipName"]
    ]
    rels = children.setdefault("Account", [])
    rels.extend(person)
    rels.sort(key=lambda r: (r["childSObject"], r["field"]))


def _describe(spec: dict, children: list[dict]) -> dict[str, Any]:
    spec = dict(spec)
    name = spec.pop("name")
    fields = [expand_field(f) for f in spec.pop("fields")]
    record_types = spec.pop("record_types", [])
    scopes = spec.pop("scopes", [("everything", f"All {spec['labelPlural'].lower()}")])
    base = f"/services/data/v{API_VERSION}/sobjects/{name}"
    prefix = spec.get("keyPrefix")
    doc: dict[str, Any] = dict(OBJECT_DEFAULTS)
    doc.update(
        {
            "childRelationships": children,
            "custom": name.endswith(("__c", "__kav")),
            "fields": fields,
            "name": name,
            "recordTypeInfos": _record_type_infos(base, record_types),
            "supportedScopes": [{"label": label, "name": scope} for scope, label in scopes],
            "urls": {
                "compactLayouts": f"{base}/describe/compactLayouts",
                "rowTemplate": f"{base}/{{ID}}",
                "approvalLayouts": f"{base}/describe/approvalLayouts",
                "uiDetailTemplate": f"{UI_HOST}/{{ID}}",
                "uiEditTemplate": f"{UI_HOST}/{{ID}}/e",
                "defaultValues": f"{base}/defaultValues?recordTypeId&fields",
                "describe": f"{base}/describe",
                "uiNewRecord": f"{UI_HOST}/{prefix}/e",
                "quickActions": f"{base}/quickActions",
                "layouts": f"{base}/describe/layouts",
                "sobject": base,
            },
        }
    )
    doc.update(spec)
    return dict(sorted(doc.items()))


def _record_type_infos(base: str, record_types: list[dict]) -> list[dict]:
    infos = []
    for rt in record_types:
        infos.append(
            {
                "active": True,
                "available": True,
                "defaultRecordTypeMapping": rt.get("default", False),
                "developerName": rt["developerName"],
                "master": False,
                "name": rt["name"],
                "recordTypeId": rt["recordTypeId"],
                "urls": {"layout": f"{base}/describe/layouts/{rt['recordTypeId']}"},
            }
        )
    infos.append(
        {
            "active": True,
            "available": True,
            "defaultRecordTypeMapping": not any(rt.get("default") for rt in record_types),
            "developerName": "Master",
            "master": True,
            "name": "Master",
            "recordTypeId": MASTER_RECORD_TYPE_ID,
            "urls": {"layout": f"{base}/describe/layouts/{MASTER_RECORD_TYPE_ID}"},
        }
    )
    return infos


def render(describe: dict[str, Any]) -> str:
    """A describe document as JSON text: top-level keys one per line, each field and child relationship on one line."""
    lines = ["{"]
    items = list(describe.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key in ("fields", "childRelationships") and value:
            inner = ",\n".join("  " + json.dumps(v, ensure_ascii=False) for v in value)
            lines.append(f" {json.dumps(key)}: [\n{inner}\n ]{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="fail if the committed describes differ from the specs"
    )
    args = parser.parse_args(argv)
    describes = build_describes()
    stale = []
    for name, describe in describes.items():
        path = DESCRIBE_DIR / f"{name}.json"
        text = render(describe)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            DESCRIBE_DIR.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
    extra = {p.stem for p in DESCRIBE_DIR.glob("*.json")} - set(describes)
    if args.check and (stale or extra):
        print(f"stale describe documents: {sorted(stale)}; orphans: {sorted(extra)}", file=sys.stderr)
        return 1
    if not args.check:
        for orphan in extra:
            (DESCRIBE_DIR / f"{orphan}.json").unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
