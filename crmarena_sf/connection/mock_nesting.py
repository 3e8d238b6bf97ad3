"""How :func:`crmarena_sf.mock_salesforce` nests with a test's own ``responses`` mocks, in either order.

``responses`` intercepts traffic by patching ``requests.adapters.HTTPAdapter.send``
(responses' README, "Responses as a context manager" and "Passing through real requests").
Started one inside another, the inner mock's patch hides the outer one: what the inner mock
has not registered either fails with its ``ConnectionError`` or, as a passthrough, goes to
the *original* ``send``, straight to the network past the outer mock. So an emulator started
inside a test's mock sent the test's own mocked hosts to the network, and a test's mock
started inside the emulator refused every Salesforce call.

The rule here is the one nesting suggests: the innermost mock answers what it has
registered, and everything else goes to the mock outside it.

- Emulator inside a test's mock: the emulator's passthrough goes to the ``send`` that was
  installed when it started (:func:`installed_send`), i.e. to the test's mock, which
  answers its registrations and refuses or passes on the rest by its own rules.
- A test's mock inside the emulator: while the emulator is active, a request to a
  Salesforce host that a ``responses`` mock has no registration for is handed to the
  emulator (:func:`forward_unregistered`), so the test's registrations win (a 503 from one
  endpoint, say) and every other Salesforce call still reaches the emulated org. Requests to
  other hosts keep the test mock's own behaviour.

The hand-over looks at ``responses.RequestsMock._on_request``, the one method every
registered mock answers through (responses 0.25 and 0.26); the tests of
``tests/test_connect_mock.py`` run both orders against the installed version.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock as std_mock

import requests.adapters


def installed_send() -> Callable[..., Any]:
    """``HTTPAdapter.send`` as installed now: the network's, or an enclosing mock's interception."""
    return requests.adapters.HTTPAdapter.send


@contextlib.contextmanager
def forward_unregistered(ours: Any, handles: Callable[[Any], bool]) -> Iterator[None]:
    """While active, requests ``handles`` accepts and another mock has not registered go to ``ours``.

    ``ours`` is the emulator's ``responses.RequestsMock``; ``handles(request)`` says whether a
    prepared request is for it (a Salesforce host).
    """
    import responses

    original = responses.RequestsMock._on_request

    def _on_request(mock, adapter, request, **kwargs):
        if mock is not ours and handles(request) and not _registered(mock, request, kwargs):
            return ours._on_request(adapter, request, **kwargs)
        return original(mock, adapter, request, **kwargs)

    with std_mock.patch.object(responses.RequestsMock, "_on_request", _on_request):
        yield


def _registered(mock: Any, request: Any, kwargs: dict[str, Any]) -> bool:
    """True when one of ``mock``'s registrations matches ``request`` (nothing is consumed or recorded)."""
    # responses' matchers read these attributes, which its _on_request sets before matching.
    parse_params = getattr(mock, "_parse_request_params", None)
    if parse_params is not None:
        request.params = parse_params(request.path_url)
    request.req_kwargs = kwargs
    read_body = getattr(mock, "_read_filelike_body", None)
    if read_body is not None:
        request.body = read_body(request.body)
    return any(registration.matches(request)[0] for registration in mock.registered())
