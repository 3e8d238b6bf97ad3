"""API versions the emulator answers, and the two resources that list what is available.

``GET /services/data`` lists versions as ``[{"label": "Winter '25", "url": "/services/data/v62.0",
"version": "62.0"}, ...]`` and ``GET /services/data/vXX.X`` maps resource names to their URLs
(REST API Developer Guide, "Versions" and "Resources by Version").
"""

from __future__ import annotations

from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.params import capped_number
from crmarena_sf.metadata import API_VERSION

OLDEST_VERSION = 31
"""Summer '14: the oldest version still served by Salesforce's REST API (older ones are retired)."""
NEWEST_VERSION = int(API_VERSION.partition(".")[0])
"""Winter '25: the version the emulator's metadata was taken at."""

_SEASONS = ("Winter", "Spring", "Summer")


def release_label(major: int) -> str:
    """The release name of an API version: three releases a year, v32.0 was Winter '15."""
    offset = major - 32
    year = 15 + offset // 3
    return f"{_SEASONS[offset % 3]} '{year:02d}"


def is_supported(version: str) -> bool:
    """True for ``XX.0`` between the oldest and the newest served version (ASCII digits only)."""
    major, _, minor = version.partition(".")
    number = capped_number(major, NEWEST_VERSION + 1)
    return number is not None and minor == "0" and OLDEST_VERSION <= number <= NEWEST_VERSION


def versions_response() -> Response:
    """``GET /services/data``: every served version, oldest first."""
    return json_response(
        200,
        [
            {"label": release_label(v), "url": f"/services/data/v{v}.0", "version": f"{v}.0"}
            for v in range(OLDEST_VERSION, NEWEST_VERSION + 1)
        ],
    )


_RESOURCES = (
    "tooling",
    "search",
    "composite",
    "parameterizedSearch",
    "query",
    "jobs",
    "recent",
    "limits",
    "sobjects",
    "queryAll",
)
"""The resources of a real org's list that the emulator serves, in the order a real org lists them."""


def resources_response(version: str, identity_url: str | None = None) -> Response:
    """``GET /services/data/vXX.X``: resource name -> URL; ``identity`` is the caller's identity URL."""
    body = {name: f"/services/data/v{version}/{name}" for name in _RESOURCES}
    if identity_url:
        body = {"identity": identity_url, **body}
    return json_response(200, body)
