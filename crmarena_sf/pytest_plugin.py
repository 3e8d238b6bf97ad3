"""A pytest plugin for testing code that talks to Salesforce: an offline CRMArena org per test.

Enabled by the ``pytest11`` entry point when crmarena-sf is installed; nothing to configure.

- ``sf_org``: a ``simple_salesforce.Salesforce`` on a fresh copy-on-write fork of the
  CRMArena org, new for every test (writes never leak into another test);
- ``sf_blank``: a client on a brand-new org with the CRMArena schema and no data;
- ``@pytest.mark.sf_now("2024-05-27T12:00:00Z")``: freeze the org clock for the test, so
  date literals (``TODAY``, ``LAST_N_DAYS:7``, ``THIS_YEAR``) mean a fixed moment;
- ``sf_clock``: the clock of ``sf_org``'s org (``sf_clock.freeze(...)`` inside a test);
- ``@pytest.mark.crmarena_org(PATH)`` or ``--crmarena-org PATH`` (or the ``crmarena_org``
  ini option): run ``sf_org`` on another org: ``crmarena-pro-b2b`` or ``crmarena-pro-b2c``
  (CRMArena-Pro's orgs), a dataset directory or an org file.

Each org named is opened once per session and forked per test (milliseconds).
"""

from __future__ import annotations

from typing import Any

import pytest


def pytest_addoption(parser) -> None:
    group = parser.getgroup("crmarena-sf")
    group.addoption(
        "--crmarena-org",
        default=None,
        metavar="ORG",
        help="the org sf_org forks: crmarena (default), crmarena-pro-b2b, crmarena-pro-b2c, a dataset directory or an org file",
    )
    parser.addini(
        "crmarena_org",
        "the org sf_org forks (crmarena, crmarena-pro-b2b, crmarena-pro-b2c, a dataset directory or an org file)",
        default="",
    )


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers", "crmarena_org(org): run sf_org on this org (a dataset directory or org file)"
    )
    config.addinivalue_line(
        "markers", "sf_now(moment): freeze the org clock at this ISO-8601 moment for the test"
    )


@pytest.fixture(scope="session")
def _crmarena_sf_templates():
    templates: dict[str, Any] = {}
    yield templates
    for org in templates.values():
        org.close()


def _org_name(request) -> str:
    marker = request.node.get_closest_marker("crmarena_org")
    if marker and marker.args:
        return str(marker.args[0])
    return request.config.getoption("--crmarena-org") or request.config.getini("crmarena_org") or "crmarena"


def _freeze(request, org) -> None:
    marker = request.node.get_closest_marker("sf_now")
    if marker and marker.args:
        org.clock.freeze(marker.args[0])


@pytest.fixture
def sf_org(request, _crmarena_sf_templates):
    """A simple-salesforce client on a private fork of the CRMArena org (or the org the test names)."""
    from crmarena_sf.connection.connect import connect
    from crmarena_sf.connection.orgs import resolve_org

    name = _org_name(request)
    template = _crmarena_sf_templates.get(name)
    if template is None:
        template = _crmarena_sf_templates[name] = resolve_org(name)
    fork = template.fork()
    _freeze(request, fork)
    client = connect(org=fork)
    yield client
    fork.close()


@pytest.fixture
def sf_blank(request):
    """A simple-salesforce client on a new, empty org with the CRMArena schema."""
    from crmarena_sf.connection.connect import connect
    from crmarena_sf.connection.orgs import resolve_org

    org = resolve_org("blank")
    _freeze(request, org)
    client = connect(org=org)
    yield client
    org.close()


@pytest.fixture
def sf_clock(sf_org):
    """The clock of ``sf_org``'s org: ``sf_clock.freeze("2024-01-01T00:00:00Z")``, ``sf_clock.unfreeze()``."""
    from crmarena_sf.connection.connect import emulated_org

    return emulated_org(sf_org).clock
