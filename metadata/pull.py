"""Capture describe documents from a live org: the engine of ``crmarena-sf metadata pull``.

The caller logs in (the CLI uses ``crmarena_sf.connect(backend="salesforce")``, which reads the
credentials from the environment or ``.env`` and never prints them). Each object's describe
(``GET /services/data/vXX.X/sobjects/<Object>/describe`` through simple-salesforce) is written as
``<Object>.json`` in the format :func:`crmarena_sf.metadata.read_describes` reads, so
``load_schema(extra_dirs=(DIR,))`` extends the schema with a user's own objects.

An object the org does not have (a describe answered 404 ``NOT_FOUND``, REST API Developer
Guide, "Status Codes and Error Responses",
https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm) is
skipped and reported: a new org lacks CRMArena's custom objects until ``crmarena-sf push``
creates them, and the other describes are still worth having. Any other failure (a refused
session, a server error, the network) writes nothing: the output directory changes only when
every object the org has was described.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

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


class ObjectNotFound(PullError):
    """The org has no such object (its describe answered NOT_FOUND)."""


@dataclass
class Pulled:
    written: list[Path]
    """The describe documents written, in the order asked."""
    missing: list[str]
    """Objects the org does not have, in the order asked."""


def describe(sf: Salesforce, object_name: str) -> dict:
    """The describe document of ``object_name``; PullError with Salesforce's errorCode when refused."""
    try:
        doc = sf.restful(f"sobjects/{object_name}/describe")
    except SalesforceError as exc:
        if getattr(exc, "status", None) == 404 and _salesforce_message(exc).startswith("NOT_FOUND"):
            raise ObjectNotFound(f"{object_name}: {_salesforce_message(exc)}") from None
        raise PullError(f"{object_name}: {_salesforce_message(exc)}") from None
    except requests.RequestException as exc:
        url = urlsplit(getattr(exc.request, "url", None) or sf.base_url)
        raise PullError(
            f"{object_name}: cannot reach Salesforce at {url.scheme}://{url.netloc}: {type(exc).__name__}"
        ) from None
    if not isinstance(doc, dict) or "name" not in doc or "fields" not in doc:
        raise PullError(f"{object_name}: the org did not answer with a describe document")
    return json.loads(json.dumps(doc))  # OrderedDicts -> plain dicts


def pull(
    sf: Salesforce,
    out_dir: Path | str,
    objects: Iterable[str] = CRMARENA_OBJECTS,
    progress: bool = True,
) -> Pulled:
    """Write ``<Object>.json`` for each of ``objects`` the org has into ``out_dir``; what was written and missed.

    All describes are fetched into a temporary directory beside ``out_dir`` first; only when
    every one the org has succeeded are they moved in (one atomic rename per file), so a failure
    leaves ``out_dir`` as it was. PullError when the org has none of ``objects``.
    """
    names = list(dict.fromkeys(objects))
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise PullError(f"{out_dir} exists and is not a directory")
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    try:
        staged, missing = [], []
        with progress_bar(len(names), "describe", enabled=progress) as bar:
            for name in names:
                try:
                    doc = describe(sf, name)
                except ObjectNotFound:
                    missing.append(name)
                    bar.update(1)
                    continue
                path = staging / f"{doc['name']}.json"
                path.write_text(render(doc), encoding="utf-8")
                staged.append(path)
                bar.update(1)
        if not staged:
            raise PullError(f"the org has none of the objects asked for ({', '.join(names)})")
        if not out_dir.exists():
            staging.rename(out_dir)
            return Pulled([out_dir / p.name for p in staged], missing)
        written = []
        for path in staged:
            target = out_dir / path.name
            os.replace(path, target)
            written.append(target)
        return Pulled(written, missing)
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
