"""A ``requests.Session`` whose own ``verify`` wins over ``REQUESTS_CA_BUNDLE`` and ``CURL_CA_BUNDLE``.

A session that trusts the environment (requests' default) lets those variables replace its
``verify`` on every request that does not pass one (``Session.merge_environment_settings``;
psf/requests#3829, #4726). simple-salesforce never passes one, so on a machine that sets
either variable (common where a company proxy re-signs TLS) ``session.verify =
"<certificate>"`` is ignored and a client of ``crmarena-sf serve`` fails with
CERTIFICATE_VERIFY_FAILED. ``connect(backend="salesforce", verify=...)`` uses this session
instead. Everything else the environment gives (proxies, ``NO_PROXY``, ``.netrc``) still applies.
"""

from __future__ import annotations

from typing import Any

import requests


class VerifySession(requests.Session):
    """A session that verifies TLS with ``verify`` (a CA bundle path, True or False), whatever the environment says."""

    def __init__(self, verify: str | bool) -> None:
        super().__init__()
        self.verify = verify

    def merge_environment_settings(self, url, proxies, stream, verify, cert) -> dict[str, Any]:
        settings = super().merge_environment_settings(url, proxies, stream, verify, cert)
        if verify is None:  # the caller did not choose for this request: the session's choice holds
            settings["verify"] = self.verify
        return settings
