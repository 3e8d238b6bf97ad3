"""Publishing Lightning Knowledge article versions.

An article version created through the API is a draft (``PublishStatus = 'Draft'``, which no
client may write); publishing makes it ``Online``, the latest version, and stamps its first and
last publication dates, on the version and on its article (Salesforce Knowledge Developer Guide,
"Publish an Article"; the REST action ``publishKnowledgeArticles``,
:mod:`crmarena_sf.emulator.rest.data.knowledge_actions`). Searches and
queries filtered on ``PublishStatus = 'Online'`` see it from then on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crmarena_sf.emulator import ids
from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.emulator.store.dml import fetch_row
from crmarena_sf.emulator.store.events import UPDATE
from crmarena_sf.emulator.store.knowledge_versions import publish_master

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

DRAFT, ONLINE = "Draft", "Online"


def publish_versions(org: Org, version_ids: list[str]) -> list[SalesforceError | None]:
    """Publish each draft article version; per Id, None or the error that kept it a draft."""
    results: list[SalesforceError | None] = []
    with org.lock:
        for version_id in version_ids:
            try:
                _publish(org, version_id)
                results.append(None)
            except SalesforceError as exc:
                results.append(exc)
    return results


def _publish(org: Org, version_id: str) -> None:
    canonical = ids.normalize(version_id) if isinstance(version_id, str) else None
    obj = org.schema.object_of_id(canonical) if canonical else None
    if obj is None or not obj.name.endswith("__kav") or obj.field("PublishStatus") is None:
        raise SalesforceError("INVALID_ID_FIELD", f"Invalid article version ID: {version_id}", [])
    row = fetch_row(org, obj, canonical)
    if row is None or row.get("IsDeleted"):
        raise SalesforceError("INVALID_ID_FIELD", f"Invalid article version ID: {version_id}", [])
    if row.get("PublishStatus") != DRAFT:
        raise SalesforceError(
            "INVALID_OPERATION",
            f"The article version {version_id} isn't a draft, so it can't be published.",
            [],
        )
    now = org.clock.now()
    changes = {"PublishStatus": ONLINE, "SystemModstamp": now, "LastModifiedDate": now}
    for name, value in (("IsLatestVersion", True), ("LastPublishedDate", now)):
        if obj.field(name) is not None:
            changes[name] = value
    if obj.field("FirstPublishedDate") is not None and row.get("FirstPublishedDate") is None:
        changes["FirstPublishedDate"] = now
    assignments = ", ".join(f"{quote(name)} = ?" for name in changes)
    with org.transaction():
        org.before_write(obj.name)
        org.con.execute(
            f'UPDATE {quote(obj.name)} SET {assignments} WHERE "Id" = ?', [*changes.values(), canonical]
        )
        org.notify(obj.name, [canonical], UPDATE)
        publish_master(org, row, now)
