"""crmarena-sf: the CRMArena Salesforce org, offline or real, behind one front door.

``connect()`` returns an unmodified ``simple_salesforce.Salesforce`` talking either to the
embedded emulator or to a real org; ``mock_salesforce()`` routes any simple-salesforce
login to an emulated org.
"""

__version__ = "0.1.0"

# Both modules import their heavy dependencies (simple-salesforce, duckdb, responses) on first
# use, so importing the package (and starting the CLI) stays fast.
from crmarena_sf.connection.connect import connect  # noqa: E402
from crmarena_sf.connection.mock import mock_salesforce  # noqa: E402

__all__ = ["__version__", "connect", "mock_salesforce"]
