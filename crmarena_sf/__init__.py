"""crmarena-sf: the CRMArena Salesforce org, offline or real, behind one front door.

``connect()`` returns an unmodified ``simple_salesforce.Salesforce`` talking either to the
embedded emulator or to a real org; ``mock_salesforce()`` routes any simple-salesforce
login to an emulated org.
"""

__version__ = "0.1.0"
