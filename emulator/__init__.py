"""The offline Salesforce org: DuckDB storage, SOQL/SOSL engines and the REST API."""

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.store.org import Org

__all__ = ["Org", "SalesforceError"]
