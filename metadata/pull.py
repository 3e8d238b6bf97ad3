"""Capture describe documents from a live org: the engine of ``crmarena-sf metadata pull``.

The caller logs in (the CLI uses ``crmarena_sf.connect(backend="salesforce")``, which reads the
credentials from the environment or ``.env`` and never prints them). Each object's describe
(``GET /services/data/vXX.X/sobjects/<Object>/describe`` through simple-salesforce) is written as
``<Object>.json`` in the format :func:`crmarena_sf.metadata.read_describes` reads, so
``load_schema(extra_dirs=(DIR,))`` extends the schema with a user's own objects. Nothing reaches
the output directory unless every describe succeeded.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

import requests
from crmarena_sf.metadata.build import render
from simple_salesforce import Salesforce
from simple_salesforce.exceptions import SalesforceError

from crmarena_sf.progress import progress_bar

CRMARENA_OBJECTS = (
    "User",
    "Account",
    "Contact",
    "Case",
    "Knowledge__kav",
    "ProductCategory",
    "Product2",
    "ProductCategoryProduct",
    "Pricebook2",
    "PricebookEntry",
    "Order",
    "OrderItem",
    "EmailMessage",
    "LiveChatTranscript",
    "Issue__c",
    "CaseHistory__c",
)
"""The objects pulled by default: CRMArena's 16 (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db)."""


class PullError(Exception):
    """A failure the user can fix (refused login, unknown object ...); one line, no secrets."""


def describe(sf: Salesforce, object_name: str) -> dict:
    """The describe document of ``object_name``; PullError with Salesforce's errorCode when refused."""
    try:
        doc = sf.restful(f"sobjects/{object_name}/describe")
    except SalesforceError as exc:
        raise PullError(f"{object_name}: {_salesforce_message(exc)}") from None
    except requests.RequestException as exc:
        raise PullError(f"{object_name}: cannot reach Salesforce: {type(exc).__name__}") from None
    if not isinstance(doc, dict) or "name" not in doc or "fields" not in doc:
        raise PullError(f"{object_name}: the org did not answer with a describe document")
    return json.loads(json.dumps(doc))  # OrderedDicts -> plain dicts


def pull(
    sf: Salesforce,
    out_dir: Path | str,
    objects: Iterable[str] = CRMARENA_OBJECTS,
    progress: bool = True,
) -> list[Path]:
    """Write ``<Object>.json`` for each of ``objects`` into ``out_dir``; the written paths, in order.

    All describes are fetched into a temporary directory beside ``out_dir`` first; only when
    every one succeeded are they moved in (one atomic rename per file), so a failure leaves
    ``out_dir`` as it was.
    """
    names = list(dict.fromkeys(objects))
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise PullError(f"{out_dir} exists and is not a directory")
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    try:
        staged = []
        with progress_bar(len(names), "describe", enabled=progress) as bar:
            for name in names:
                doc = describe(sf, name)
                path = staging / f"{doc['name']}.json"
                path.write_text(render(doc), encoding="utf-8")
                staged.append(path)
                bar.update(1)
        if not out_dir.exists():
            staging.rename(out_dir)
            return [out_dir / p.name for p in staged]
        written = []
        for path in staged:
            target = out_dir / path.name
            os.replace(path, target)
            written.append(target)
        return written
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _salesforce_message(exc: SalesforceError) -> str:
    content = getattr(exc, "content", None)
    if isinstance(content, list) and content and isinstance(content[0], dict):
        first = content[0]
        return f"{first.get('errorCode', exc.status)}: {_one_line(str(first.get('message', '')))}"
    return f"HTTP {getattr(exc, 'status', '?')}"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())
