"""``mock_salesforce()``: any simple-salesforce client created inside it reaches an emulated org.

Built on ``responses``: requests to ``*.salesforce.com`` and ``*.force.com`` (logins by
username/password, OAuth, and instance URL + session id clients) are answered by the
emulator; traffic to every other host passes through untouched. Use it as a context
manager or a decorator::

    with mock_salesforce(org="blank") as mock:
        sf = Salesforce(username="u@example.com", password="pw", security_token="tok")
        sf.Account.create({"Name": "Acme"})
        mock.org.count("Account")  # 1

    @mock_salesforce
    def test_something(): ...

Like a test double, the mock accepts any session id and any username by default
(``strict_sessions=True`` accepts only the sessions it issued, e.g. to exercise re-login on
401, and only usernames of the org's active users). Passwords are never checked.

The org: each activation (each ``with``, each call of a decorated function) gets a new org
when ``org`` is a name (``blank``, ``crmarena``, ``crmarena-pro-b2b`` ..., a path; see :mod:`crmarena_sf.connection.orgs`). An
:class:`~crmarena_sf.emulator.store.org.Org` object is used as is, so every activation shares it and sees
the writes of the ones before; ``fork=True`` gives each activation its own copy-on-write fork
of it instead.

It nests with a test's own ``responses`` mocks in either order: the inner mock answers what
it registered and hands the rest outward (:mod:`crmarena_sf.connection.mock_nesting`)::

    @mock_salesforce
    @responses.activate
    def test_sync():
        responses.get("https://api.example.com/orders", json=[])  # still answered by responses
        Salesforce(username="u@example.com", password="pw", security_token="")  # the emulator
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import re
from typing import Any

from crmarena_sf.connection.mock_nesting import forward_unregistered, installed_send
from crmarena_sf.connection.orgs import resolve_org

SALESFORCE_HOSTS = re.compile(
    r"^https?://([A-Za-z0-9-]+\.)*(salesforce|force)\.com(:\d+)?(/|$)", re.IGNORECASE
)
_METHODS = ("GET", "POST", "PATCH", "PUT", "DELETE", "HEAD")


class MockSalesforce:
    """The mock: ``.org`` (the emulated org), ``.router``, ``.session_id``, ``.instance_url`` once entered."""

    def __init__(
        self,
        org: Any = "blank",
        *,
        strict_sessions: bool = False,
        instance_url: str | None = None,
        fork: bool = False,
        describes: Any = None,
    ) -> None:
        self._org_name = org
        self.describes = describes
        """Directories of describe documents whose objects and fields the org gains (see crmarena_sf.orgs)."""
        self.strict_sessions = strict_sessions
        self.instance_url = instance_url.rstrip("/") if instance_url else None
        """Where the mocked org lives (by default the emulator's own instance URL, set once entered)."""
        self.fork = fork
        """True: each activation works on a fork of the given org (an Org object is otherwise shared)."""
        self.org = None
        self.router = None
        self.session_id: str | None = None
        self._mock = None
        self._forwarding: contextlib.ExitStack | None = None

    def __enter__(self) -> MockSalesforce:
        import responses

        from crmarena_sf.emulator.rest.transport.messages import INSTANCE_URL
        from crmarena_sf.emulator.rest.transport.router import Router
        from crmarena_sf.emulator.store.org import Org

        self.instance_url = self.instance_url or INSTANCE_URL

        if self.fork and isinstance(self._org_name, Org):
            # A name already gives a new org each time; only an Org object passed in needs forking.
            self.org = resolve_org(self._org_name.fork(), describes=self.describes)
        else:
            self.org = resolve_org(self._org_name, describes=self.describes)
        self.router = Router(
            self.org, accept_any_session=not self.strict_sessions, known_users_only=self.strict_sessions
        )
        self.session_id = self.router.issue_session()
        # What this mock does not answer goes to whatever was intercepting before it: an
        # enclosing responses mock, or the network.
        self._mock = responses.RequestsMock(
            assert_all_requests_are_fired=False, real_adapter_send=installed_send()
        )
        for method in _METHODS:
            self._mock.add_callback(method, SALESFORCE_HOSTS, callback=self._answer, content_type=None)
        self._mock.add_passthru(re.compile(r".*"))
        self._mock.start()
        self._forwarding = contextlib.ExitStack()
        self._forwarding.enter_context(forward_unregistered(self._mock, _is_salesforce))
        return self

    def __exit__(self, *exc: object) -> None:
        if self._forwarding is not None:
            self._forwarding.close()
            self._forwarding = None
        if self._mock is not None:
            self._mock.stop()
            self._mock.reset()
            self._mock = None

    def __call__(self, func):
        """Use the mock as a decorator: a fresh mock for each call of ``func`` (and a fresh org, unless
        ``org`` is an Org object without ``fork=True``)."""
        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def async_wrapper(*args, **kwargs):
                with self._again():
                    return await func(*args, **kwargs)

            return async_wrapper

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self._again():
                return func(*args, **kwargs)

        return wrapper

    def _again(self) -> MockSalesforce:
        return MockSalesforce(
            self._org_name,
            strict_sessions=self.strict_sessions,
            instance_url=self.instance_url,
            fork=self.fork,
            describes=self.describes,
        )

    def _answer(self, prepared) -> tuple[int, dict[str, str], bytes]:
        from crmarena_sf.emulator.rest.transport.adapter import answer as routed

        answer = routed(self.router, prepared, self.instance_url)
        return answer.status, dict(answer.headers), answer.body


def _is_salesforce(request) -> bool:
    return bool(SALESFORCE_HOSTS.match(str(request.url)))


def mock_salesforce(
    func=None,
    /,
    *,
    org: Any = "blank",
    strict_sessions: bool = False,
    fork: bool = False,
    describes: Any = None,
) -> Any:
    """A :class:`MockSalesforce` (context manager or decorator); ``@mock_salesforce`` works bare too.

    ``org``: an org name or path (a new org per activation) or an ``Org`` object (shared by
    every activation; ``fork=True`` forks it per activation). ``describes``: a directory of
    describe documents (or a list of them) whose objects and fields the org gains.
    ``strict_sessions``: see the module docstring.
    """
    options = {"strict_sessions": strict_sessions, "fork": fork, "describes": describes}
    if callable(func):
        return MockSalesforce(org, **options)(func)
    if func is not None:
        org = func
    return MockSalesforce(org, **options)
