"""The push's only way to an org: an unmodified ``simple_salesforce.Salesforce``, with its errors as data.

Every call goes through the client's ``requests`` session (REST, sObject Collections, Bulk API
2.0 through ``sf.bulk2``) or through ``sf.mdapi`` (the Metadata API, zeep's own session); each
one is counted, which is the report's "API calls used". simple-salesforce's exceptions become
:class:`~crmarena_sf.loaders.push.errors.OrgError` (Salesforce's error code and message) and a dropped
connection becomes ``NETWORK``, so the layers above decide on codes, never on exception types.
Nothing here logs or prints a session id or a password.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

import requests
from crmarena_sf.loaders.push.errors import OrgError

T = TypeVar("T")
QUERY_CHUNK = 300
"""Ids per ``IN (...)`` list: keeps a query far below SOQL's 100,000-character limit."""


class PushClient:
    """Counted, error-translating calls on one org."""

    def __init__(self, sf: Any, *, bulk_poll_seconds: float = 2.0) -> None:
        self.sf = sf
        self.bulk_poll_seconds = bulk_poll_seconds
        self.calls = 0
        sf.session.hooks.setdefault("response", []).append(self._count)

    def _count(self, response: requests.Response, *args: Any, **kwargs: Any) -> None:
        self.calls += 1

    # ------------------------------------------------------------------ plumbing
    def call(self, func: Callable[[], T]) -> T:
        """Run one simple-salesforce call; its failures become OrgError."""
        from simple_salesforce.exceptions import SalesforceAuthenticationFailed, SalesforceOperationError
        from simple_salesforce.exceptions import SalesforceError as ClientError

        try:
            return func()
        except SalesforceAuthenticationFailed as exc:
            raise OrgError(
                str(exc.code or "INVALID_LOGIN"), " ".join(str(exc.auth_message).split())
            ) from None
        except ClientError as exc:
            raise _org_error(exc.content, exc.status) from None
        except SalesforceOperationError as exc:
            raise OrgError("BULK_JOB_FAILED", str(exc)) from None
        except requests.RequestException as exc:
            url = urlsplit(getattr(exc.request, "url", None) or self.sf.base_url)
            raise OrgError(
                "NETWORK", f"cannot reach the org at {url.scheme}://{url.netloc} ({type(exc).__name__})"
            ) from None

    def rest(self, path: str, method: str = "GET", **kwargs: Any) -> Any:
        """``sf.restful``: a JSON call on the data API (``path`` after ``/services/data/vXX.X/``)."""
        return self.call(lambda: self.sf.restful(path, method=method, **kwargs))

    def query_all(self, soql: str) -> list[dict[str, Any]]:
        """Every record of ``soql`` (all pages), without ``attributes``."""
        result = self.call(lambda: self.sf.query_all(soql))
        return [{k: v for k, v in r.items() if k != "attributes"} for r in result["records"]]

    def query_in(self, soql_before_in: str, values: list[str], after: str = "") -> list[dict[str, Any]]:
        """``soql_before_in IN ('a', 'b') after`` over ``values`` in chunks."""
        records: list[dict[str, Any]] = []
        for start in range(0, len(values), QUERY_CHUNK):
            chunk = values[start : start + QUERY_CHUNK]
            listed = ", ".join(soql_string(v) for v in chunk)
            records.extend(self.query_all(f"{soql_before_in} IN ({listed}) {after}".strip()))
        return records

    def metadata(self, func: Callable[[Any], T]) -> T:
        """Run ``func(sf.mdapi)``. A SOAP fault or a refused component is an OrgError.

        simple-salesforce's Metadata API client (zeep) makes a ``requests`` session of its own;
        it is pointed at the client's session (zeep's ``Transport.session``) so that Metadata API
        calls go where the client's go, with the same TLS trust (``verify``), proxies and mounted
        adapters, and are counted with them.
        """
        from zeep.exceptions import Fault

        mdapi = self.sf.mdapi
        mdapi._client.transport.session = self.sf.session
        try:
            return self.call(lambda: func(mdapi))
        except Fault as exc:
            code = str(exc.code or "").rpartition(":")[2] or "UNKNOWN_EXCEPTION"
            message = str(exc.message or "")
            if message.startswith(f"{code}: "):
                message = message[len(code) + 2 :]
            raise OrgError(code, message) from None
        except OrgError:
            raise
        except Exception as exc:  # simple-salesforce raises a bare Exception listing refused components
            raise OrgError("METADATA_REFUSED", " ".join(str(exc).split())) from None

    def bulk_upsert(self, object_name: str, key_field: str, records: list[dict[str, str]]) -> str:
        """Run one Bulk API 2.0 upsert job on ``key_field``; returns the job id once the job has ended."""
        handler = getattr(self.sf.bulk2, object_name)
        jobs = self.call(
            lambda: handler.upsert(records=records, external_id_field=key_field, wait=self.bulk_poll_seconds)
        )
        return jobs[0]["job_id"]

    def bulk_results(self, object_name: str, job_id: str) -> tuple[list[dict], list[dict]]:
        """The successful and failed rows of an ingest job, as dicts of the result CSV."""
        handler = getattr(self.sf.bulk2, object_name)
        good = self.call(lambda: handler.get_successful_records(job_id))
        bad = self.call(lambda: handler.get_failed_records(job_id))
        return _csv_rows(good), _csv_rows(bad)

    # ------------------------------------------------------------------ org facts
    def identity(self) -> tuple[str, str]:
        """(org Id, running user Id) from the identity URL in the resource list ("List Available REST Resources")."""
        resources = self.rest("")
        identity = str(resources.get("identity") or "")
        parts = identity.rstrip("/").split("/")
        if len(parts) < 2 or not parts[-2].startswith("00D") or not parts[-1].startswith("005"):
            raise OrgError("NO_IDENTITY", "the org's resource list names no identity URL")
        return parts[-2], parts[-1]


def soql_string(value: str) -> str:
    """A SOQL string literal (SOQL and SOSL Reference, "Quoted String Escape Sequences")."""
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def _csv_rows(text: str) -> list[dict[str, str]]:
    if not text or not text.strip():
        return []
    return list(csv.DictReader(io.StringIO(text)))


def _org_error(content: Any, status: int | None) -> OrgError:
    """The first error of a REST error body (``[{"errorCode", "message"}]``), whatever shape came back."""
    if isinstance(content, list) and content and isinstance(content[0], dict):
        first = content[0]
        return OrgError(str(first.get("errorCode") or "UNKNOWN"), str(first.get("message") or ""), status)
    if isinstance(content, dict) and ("error" in content or "errorCode" in content):
        code = content.get("errorCode") or content.get("error")
        return OrgError(
            str(code), str(content.get("message") or content.get("error_description") or ""), status
        )
    text = content.decode("utf-8", "replace") if isinstance(content, bytes) else str(content)
    return OrgError(f"HTTP_{status}", " ".join(text.split())[:300], status)
