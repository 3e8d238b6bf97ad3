"""Errors of the HTTP layer, answered in the REST API's JSON shape like every other error.

Salesforce refuses some requests before the REST API reads them: a URI longer than 16,384
bytes is 414, a URI plus headers longer than that is 431 (Salesforce Help, "Maximum number of
rows returned by SOQL queries over the REST API",
https://help.salesforce.com/s/articleView?id=000386264), a body larger than Bulk API 2.0's
150 MB upload limit is 413, a request line or framing that is not HTTP is 400. The emulator
answers these as ``[{"message", "errorCode"}]`` too, so a client parses one error shape. No
Salesforce errorCode names them, so the code is the HTTP reason phrase in Salesforce's style,
the convention Salesforce's own ``NOT_FOUND`` (404) and ``METHOD_NOT_ALLOWED`` (405) follow.
"""

from __future__ import annotations

import re
from http import HTTPStatus

from crmarena_sf.emulator.errors import SalesforceError

MAX_URI_AND_HEADERS = 16384
"""Bytes of request line plus headers Salesforce reads (help article 000386264)."""
MAX_BODY = 150 * 1024 * 1024
"""Largest request body accepted, compressed or not (Bulk API 2.0 uploads are at most 150 MB)."""


def http_error(status: int, message: str | None = None) -> SalesforceError:
    """A SalesforceError for an HTTP-level refusal (``status`` 4xx or 5xx)."""
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    code = re.sub(r"[^A-Za-z]+", "_", phrase).strip("_").upper()
    return SalesforceError(code, message or phrase, status=status)


def body_too_large() -> SalesforceError:
    return http_error(413, f"The request body exceeds the limit of {MAX_BODY} bytes")
