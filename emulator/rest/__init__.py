"""The Salesforce REST API of the emulator, independent of how requests arrive.

:class:`Router` answers a :class:`Request` with a :class:`Response` for one org; the
transports (``emulator.rest.transport.adapter`` in-process, ``crmarena_sf.connection.mock`` for
``responses``, ``emulator.rest.transport.server`` over HTTPS) only convert to and from these.
One sub-package per service (``data``, ``bulk``, ``auth``, ``schema_api``), each mounted at the
URL prefix it answers: :mod:`.services` is the table.
"""

from crmarena_sf.emulator.rest.transport.messages import Headers, Request, Response
from crmarena_sf.emulator.rest.transport.router import Router

__all__ = ["Headers", "Request", "Response", "Router"]
