"""What a resource handler receives (:class:`RestCall`) and how resources declare their URLs (:class:`Route`).

Resource modules list their routes as ``ROUTES = [Route(r"sobjects/(?P<name>[^/]+)", GET=...)]``;
patterns match the part of the path after ``/services/data/vXX.X/`` (trailing slashes
removed), case-insensitively. Handlers take the call and the pattern's named groups. A route
whose GET only reads says so (``read_only=True``): that GET may run beside writes
(:mod:`crmarena_sf.emulator.rest.data.api`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crmarena_sf.emulator.errors import SalesforceError, not_found
from crmarena_sf.emulator.rest.transport.messages import Request, Response

if TYPE_CHECKING:
    from crmarena_sf.emulator.rest.transport.router import Router
    from crmarena_sf.emulator.store.org import Org
    from crmarena_sf.metadata.model import SObject

Handler = Callable[..., Response]


@dataclass
class RestCall:
    """One REST call being answered: the request, the org, the router and the API version asked for."""

    request: Request
    org: Org
    router: Router
    version: str
    """``62.0``: the version in the request's path."""

    @property
    def data_path(self) -> str:
        """``/services/data/v62.0``: the prefix every data URL of this call uses."""
        return f"/services/data/v{self.version}"

    def record_url(self, object_name: str, record_id: str) -> str:
        return f"{self.data_path}/sobjects/{object_name}/{record_id}"

    def sobject(self, name: str) -> SObject:
        """The sObject named in the URL, or 404 NOT_FOUND as the REST API answers for an unknown type."""
        obj = self.org.schema.get(name)
        if obj is None:
            raise not_found()
        return obj

    @property
    def api_version_number(self) -> float:
        return float(self.version)


class Route:
    """A URL pattern and the handler for each HTTP method it accepts."""

    def __init__(self, pattern: str, *, read_only: bool = False, **handlers: Handler) -> None:
        self.pattern = re.compile(f"^{pattern}$", re.IGNORECASE)
        self.handlers = {method.upper(): handler for method, handler in handlers.items()}
        self.read_only = read_only
        """The GET only reads: it runs beside writes on a snapshot of its own instead of waiting for the
        org's lock. Searches do not (a search first indexes the writes before it), nor anything that
        keeps state (Bulk jobs ...)."""

    def allowed(self) -> str:
        """The ``Allowed are`` list of a METHOD_NOT_ALLOWED message (HEAD goes with GET)."""
        methods = list(self.handlers)
        if "GET" in methods:
            methods.insert(0, "HEAD")
        return ",".join(methods)


def method_not_allowed(method: str, route: Route) -> SalesforceError:
    """405 as Salesforce words it: ``HTTP Method 'PUT' not allowed. Allowed are HEAD,GET,POST``."""
    return SalesforceError(
        "METHOD_NOT_ALLOWED",
        f"HTTP Method '{method}' not allowed. Allowed are {route.allowed()}",
        status=405,
    )
