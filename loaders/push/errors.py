"""Why a push stops, and what the user should do about it.

A push stops on what no retry can fix within the run: a refused login, an org whose API is
off, an expired password, the day's API requests used up, full data storage, a network that
went away. Each stop says what happened (Salesforce's own error code and message) and what to
change; :attr:`PushStopped.resumable` tells whether running the same command again continues
where it stopped (everything loaded so far stays in the org and in the local id map). Codes
are Salesforce's (REST API Developer Guide, "Status Codes and Error Responses"; SOAP API
Developer Guide, "Core Data Types Used in API Calls", StatusCode and ExceptionCode).
"""

from __future__ import annotations

ADVICE = {
    "INVALID_LOGIN": "check SALESFORCE_USERNAME, SALESFORCE_PASSWORD and SALESFORCE_SECURITY_TOKEN "
    "(a new security token comes by email from Settings > Reset My Security Token; SALESFORCE_DOMAIN=test for a sandbox)",
    "INVALID_SESSION_ID": "the session expired or was revoked: log in again (a new SALESFORCE_SESSION_ID, "
    "or username, password and security token)",
    "INVALID_OPERATION_WITH_EXPIRED_PASSWORD": "the user's password has expired: log in to Salesforce in a "
    "browser, set a new password, then update SALESFORCE_PASSWORD (and the security token Salesforce emails)",
    "API_CURRENTLY_DISABLED": "the API is off for this user: use an edition with API access (Developer "
    "Edition has it) and a profile or permission set with the 'API Enabled' permission",
    "API_DISABLED_FOR_ORG": "this org's edition has no API access: use a Developer Edition org or a sandbox",
    "REQUEST_LIMIT_EXCEEDED": "the org's API requests for the last 24 hours are used up: run the same "
    "command again when the allowance has recovered; the push resumes where it stopped",
    "NETWORK": "check the network (or the org's status) and run the same command again; the push resumes "
    "where it stopped",
    "STORAGE_LIMIT_EXCEEDED": "the org's data storage is full: push a smaller dataset (crmarena-sf generate "
    "--profile dev-org) or delete records (crmarena-sf push --teardown removes what a push loaded)",
}
"""Error code -> what to change. Codes not listed are reported with Salesforce's message alone."""

RESUMABLE = {"REQUEST_LIMIT_EXCEEDED", "STORAGE_LIMIT_EXCEEDED", "INVALID_SESSION_ID", "NETWORK"}
"""Stops after which the same command continues the push (nothing loaded is lost)."""

STOP_CODES = set(ADVICE) | {"UNKNOWN_EXCEPTION", "SERVER_UNAVAILABLE"}
"""Errors that end the run even when they come back for a single record (they would fail every record)."""


class OrgError(Exception):
    """An error answer from the org: Salesforce's error code, message and HTTP status."""

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status


class PushStopped(Exception):
    """The push stopped; the message says why and what to do; ``resumable`` if the same command continues it."""

    def __init__(self, message: str, *, resumable: bool = False, code: str | None = None) -> None:
        super().__init__(message)
        self.resumable = resumable
        self.code = code
        self.report = None
        """What was done before the stop (a PushReport or TeardownReport), when there is one."""


def stopped(error: OrgError, doing: str) -> PushStopped:
    """The stop for an org error met while ``doing`` something (``"reading the org's limits"``)."""
    advice = ADVICE.get(error.code)
    text = f"{doing}: {error.code}: {error.message}"
    if advice:
        text += f" -- {advice}"
    resumable = error.code in RESUMABLE
    if resumable:
        text += " (nothing loaded is lost)"
    return PushStopped(text, resumable=resumable, code=error.code)
