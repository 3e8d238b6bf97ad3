"""The offline Salesforce org: DuckDB storage, SOQL/SOSL engines and the REST API."""

from emulator.errors import SalesforceError
from emulator.store.org import Org

__all__ = ["Org", "SalesforceError"]
