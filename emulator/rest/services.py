"""Which service answers which URL: the one table the router reads.

Salesforce serves several APIs from an instance; here each is a sub-package, mounted at the
URL prefix it answers (REST API Developer Guide; Bulk API and Bulk API 2.0 Developer Guides;
SOAP API and Metadata API Developer Guides; OAuth and identity in Salesforce Help):

=================================================  ============================================
URL prefix                                         answered by
=================================================  ============================================
``/services/data`` and ``/services/data/vXX.X/``   :mod:`.data` (:mod:`.data.api` routes it:
                                                   records, queries, searches, describes,
                                                   composite, collections ...)
``/services/data/vXX.X/jobs/``                     :mod:`.bulk.bulk2` (Bulk API 2.0), a data API route
``/services/data/vXX.X/tooling/``                  :mod:`.schema_api.tooling`, a data API route
``/services/data/vXX.X/metadata/deployRequest``    :mod:`.schema_api.deploy_request`, a data API route
``/services/async/XX.X/``                          :mod:`.bulk.bulk1` (Bulk API 1.0)
``/services/Soap/u/XX.X[/<org>]``                  :mod:`.partner.soap_api` (SOAP login and logout
                                                   through :mod:`.auth.login`; undelete, merge,
                                                   convertLead, getUserInfo ...)
``/services/oauth2/token`` and ``revoke``          :mod:`.auth.login` (OAuth token and revocation)
``/id/<org>/<user>``, ``/services/oauth2/userinfo``  :mod:`.auth.identity`
``/services/Soap/m/XX.X``                          :mod:`.schema_api.metadata_api` (``createMetadata``,
                                                   ``readMetadata``, ``deploy``, ``retrieve`` ...)
=================================================  ============================================

A mount's template is the path with ``{name}`` for one segment and ``{name*}`` for the rest of
the path (optional, after a slash); a path may end in one more slash. The answering function
gets the router, the request and the parts the mount passes it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from crmarena_sf.emulator.rest.auth import identity, login
from crmarena_sf.emulator.rest.bulk import bulk1
from crmarena_sf.emulator.rest.data import api as data_api
from crmarena_sf.emulator.rest.partner import soap_api
from crmarena_sf.emulator.rest.schema_api import metadata_api

if TYPE_CHECKING:
    from crmarena_sf.emulator.rest.transport.messages import Request, Response
    from crmarena_sf.emulator.rest.transport.router import Router

Answer = Callable[..., "Response"]
"""``answer(router, request, **parts)``: a service's response to a request under its mount."""

_PART = re.compile(r"\{(?P<name>\w+)(?P<rest>\*?)\}")


@dataclass(frozen=True)
class Mount:
    """A URL template and the service answering it."""

    template: str
    answer: Answer
    passes: tuple[str, ...] = ()
    """The parts of the path the answer reads, as keyword arguments."""
    ignore_case: bool = False
    pattern: re.Pattern = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pieces, at, rest = [], 0, False
        for part in _PART.finditer(self.template):
            pieces.append(re.escape(self.template[at : part.start()]))
            name = part.group("name")
            rest = bool(part.group("rest"))
            pieces.append(f"(?:/(?P<{name}>.*))?" if rest else f"(?P<{name}>[^/]+)")
            at = part.end()
        pieces.append(re.escape(self.template[at:]))
        flags = re.IGNORECASE if self.ignore_case else 0
        object.__setattr__(
            self, "pattern", re.compile("^" + "".join(pieces) + ("" if rest else "/?") + "$", flags)
        )

    def parts(self, path: str) -> dict[str, str | None] | None:
        """The parts of ``path`` the answer reads when this mount answers it, else None."""
        match = self.pattern.match(path)
        return {name: match.group(name) for name in self.passes} if match else None


MOUNTS: tuple[Mount, ...] = (
    Mount("/services/data{rest*}", data_api.handle, ("rest",)),
    Mount("/services/Soap/m/{version}{rest*}", metadata_api.handle, ignore_case=True),
    Mount("/services/Soap/u/{version}{rest*}", soap_api.handle, ("rest",), ignore_case=True),
    Mount("/services/oauth2/token", login.handle, ignore_case=True),
    Mount("/services/oauth2/revoke", login.handle, ignore_case=True),
    Mount("/services/async/{version}{rest*}", bulk1.handle, ("version", "rest")),
    Mount("/id/{org}/{user}", identity.handle, ignore_case=True),
    Mount("/services/oauth2/userinfo", identity.handle, ignore_case=True),
)
"""Every API family of the emulator, by URL; the first that matches answers."""


def mount_for(path: str) -> tuple[Mount, dict[str, str | None]] | None:
    """The mount answering ``path`` and the parts it passes, or None when no service is mounted there."""
    for mount in MOUNTS:
        parts = mount.parts(path)
        if parts is not None:
            return mount, parts
    return None


def answer(router: Router, request: Request) -> Response | None:
    """The response of the service mounted at ``request``'s path, or None when none is."""
    found = mount_for(request.path)
    if found is None:
        return None
    mount, parts = found
    return mount.answer(router, request, **parts)
