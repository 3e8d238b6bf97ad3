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
"""

from __future__ import annotations

import functools
import inspect
import re
from typing import Any

from crmarena_sf.orgs import resolve_org

MOCK_INSTANCE_URL = "https://crmarena-sf.my.salesforce.com"
SALESFORCE_HOSTS = re.compile(
    r"^https?://([A-Za-z0-9-]+\.)*(salesforce|force)\.com(:\d+)?(/|$)", re.IGNORECASE
)
_METHODS = ("GET", "POST", "PATCH", "PUT", "DELETE", "HEAD")


class MockSalesforce:
    """The mock: ``.org`` (the emulated org), ``.router``, ``.session_id``, ``.instance_url`` once entered."""

    def __init__(
        self, org: Any = "blank", *, strict_sessions: bool = False, instance_url: str = MOCK_INSTANCE_URL
    ) -> None:
        self._org_name = org
        self.strict_sessions = strict_sessions
        self.instance_url = instance_url.rstrip("/")
        self.org = None
        self.router = None
        self.session_id: str | None = None
        self._mock = None

    def __enter__(self) -> MockSalesforce:
        import responses

        from emulator.rest.router import Router

        self.org = resolve_org(self._org_name)
        self.router = Router(
            self.org, accept_any_session=not self.strict_sessions, known_users_only=self.strict_sessions
        )
        self.session_id = self.router.issue_session()
        self._mock = responses.RequestsMock(assert_all_requests_are_fired=False)
        for method in _METHODS:
            self._mock.add_callback(method, SALESFORCE_HOSTS, callback=self._answer, content_type=None)
        self._mock.add_passthru(re.compile(r".*"))
        self._mock.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._mock is not None:
            self._mock.stop()
            self._mock.reset()
            self._mock = None

    def __call__(self, func):
        """Use the mock as a decorator: a fresh mock (and org) for each call of ``func``."""
        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def async_wrapper(*args, **kwargs):
                with MockSalesforce(
                    self._org_name, strict_sessions=self.strict_sessions, instance_url=self.instance_url
                ):
                    return await func(*args, **kwargs)

            return async_wrapper

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with MockSalesforce(
                self._org_name, strict_sessions=self.strict_sessions, instance_url=self.instance_url
            ):
                return func(*args, **kwargs)

        return wrapper

    def _answer(self, prepared) -> tuple[int, dict[str, str], bytes]:
        from emulator.rest.adapter import answer as routed

        answer = routed(self.router, prepared, self.instance_url)
        return answer.status, dict(answer.headers), answer.body


def mock_salesforce(func=None, /, *, org: Any = "blank", strict_sessions: bool = False) -> Any:
    """A :class:`MockSalesforce` (context manager or decorator); ``@mock_salesforce`` works bare too."""
    if callable(func):
        return MockSalesforce(org, strict_sessions=strict_sessions)(func)
    if func is not None:
        org = func
    return MockSalesforce(org, strict_sessions=strict_sessions)
