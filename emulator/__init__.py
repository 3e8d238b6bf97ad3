"""The offline Salesforce org: DuckDB storage, SOQL/SOSL engines and the REST API.

The store (:mod:`crmarena_sf.emulator.store`) is the ground floor: it imports none of the
engines. What an engine keeps from an org follows the store's events
(:mod:`crmarena_sf.emulator.store.events`); here, before any org exists, the search index is
subscribed to the events every org has (its schema growing, the org being written to a file).
"""

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.events import FILE_WRITTEN, SCHEMA_GROWN, listen_to_every_org
from crmarena_sf.emulator.store.org import Org

__all__ = ["Org", "SalesforceError"]


def _search_index(org: Org, object_name: str, record_ids: list[str], kind: str) -> None:
    """The search index's part in every org's events (the engine is imported only once one concerns it)."""
    if kind in (SCHEMA_GROWN, FILE_WRITTEN):
        from crmarena_sf.emulator.sosl.index import on_org_event

        on_org_event(org, object_name, record_ids, kind)


listen_to_every_org(_search_index)
