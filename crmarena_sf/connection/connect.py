"""``connect()``: the one front door. Either backend gives an unmodified ``simple_salesforce.Salesforce``.

``backend="emulator"`` (default) mounts the emulator's transport adapter on the client's own
``requests.Session`` (no socket, nothing patched globally); ``backend="salesforce"`` logs in
to a real org with credentials from arguments, the environment or a ``.env`` file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crmarena_sf.connection.orgs import resolve_org

if TYPE_CHECKING:
    import requests
    from simple_salesforce import Salesforce

CREDENTIAL_VARIABLES = {
    "username": "SALESFORCE_USERNAME",
    "password": "SALESFORCE_PASSWORD",
    "security_token": "SALESFORCE_SECURITY_TOKEN",
    "domain": "SALESFORCE_DOMAIN",
    "instance_url": "SALESFORCE_INSTANCE_URL",
    "session_id": "SALESFORCE_SESSION_ID",
    "consumer_key": "SALESFORCE_CONSUMER_KEY",
    "consumer_secret": "SALESFORCE_CONSUMER_SECRET",
}
"""Option -> environment variable read when the option is not passed."""


class MissingCredentials(ValueError):
    """No usable way to log in to a real org; the message names the missing variables."""


def connect(org: Any = "crmarena", backend: str = "emulator", **options: Any) -> Salesforce:
    """A ``simple_salesforce.Salesforce`` talking to ``org`` on ``backend`` (``emulator`` or ``salesforce``).

    On the emulator every call gets its own copy-on-write fork of ``org`` (see
    :mod:`crmarena_sf.connection.orgs`): writes stay in that connection, also for an org file or a
    dataset directory. ``writable=True`` instead writes into the org file ``org`` names (the
    same org for every such call in a process; other processes may still read the file, and a
    write waits up to 10 s for them, then fails with ``UNABLE_TO_LOCK_ROW``).

    Emulator options: ``writable``, ``describes`` (a directory of describe documents, or a
    list of them, whose objects and fields the org gains: see :mod:`crmarena_sf.metadata.user_describes`),
    ``version`` (API version, default 62.0), ``session_id`` (the session to issue). Salesforce options: ``username``, ``password``, ``security_token``, ``domain``
    (``test`` for a sandbox), or ``instance_url`` + ``session_id``; ``version``; ``env_file``
    (default ``.env`` in the working directory); ``session`` (a ``requests.Session``) or
    ``verify`` (the CA bundle to trust, e.g. the certificate ``crmarena-sf serve`` prints; it
    holds even where ``REQUESTS_CA_BUNDLE`` is set).
    """
    if backend == "emulator":
        return connect_emulator(org, **options)
    if backend == "salesforce":
        return connect_salesforce(**options)
    raise ValueError(f"unknown backend {backend!r}; expected 'emulator' or 'salesforce'")


def connect_emulator(
    org: Any = "crmarena",
    *,
    writable: bool = False,
    describes: str | Path | list[str | Path] | None = None,
    version: str | None = None,
    session_id: str | None = None,
    instance_url: str | None = None,
    session: requests.Session | None = None,
) -> Salesforce:
    """An emulated org behind a transport adapter mounted on the client's session (a private fork unless ``writable``).

    ``instance_url``: where the org appears to live (only the mounted adapter ever answers it;
    by default the emulator's own, ``INSTANCE_URL`` of :mod:`crmarena_sf.emulator.rest.transport.messages`).
    """
    import requests
    from simple_salesforce import Salesforce

    from crmarena_sf.emulator.rest.transport.adapter import EmulatorAdapter
    from crmarena_sf.emulator.rest.transport.messages import INSTANCE_URL
    from crmarena_sf.emulator.rest.transport.router import Router
    from crmarena_sf.metadata import API_VERSION

    instance_url = instance_url or INSTANCE_URL
    version = version or API_VERSION

    router = Router.for_org(resolve_org(org, writable=writable, describes=describes))
    if session is None:
        session = requests.Session()
        # Nothing leaves the process: skip reading proxy and CA settings from the environment on every call.
        session.trust_env = False
    session.mount(instance_url.rstrip("/") + "/", EmulatorAdapter(router, instance_url))
    return Salesforce(
        instance_url=instance_url,
        session_id=router.issue_session(session_id),
        session=session,
        version=version,
    )


def emulated_org(sf: Salesforce):
    """The emulator org behind a client made by :func:`connect` (None for a real org)."""
    from crmarena_sf.emulator.rest.transport.adapter import EmulatorAdapter

    adapter = sf.session.get_adapter(f"https://{sf.sf_instance}/") if sf.session else None
    return adapter.router.org if isinstance(adapter, EmulatorAdapter) else None


def emulator_errors(sf: Salesforce) -> list[str]:
    """The server errors (HTTP 5xx) the emulator answered ``sf`` so far, each ``METHOD path: body``.

    A 5xx from the emulator is a defect of the emulator, not something a client did: the
    benchmark runner does not score an episode that met one. Empty for a real org, whose 5xx
    are its own.
    """
    from crmarena_sf.emulator.rest.transport.adapter import EmulatorAdapter

    adapter = sf.session.get_adapter(f"https://{sf.sf_instance}/") if sf.session else None
    return list(adapter.server_errors) if isinstance(adapter, EmulatorAdapter) else []


def connect_salesforce(
    *,
    version: str | None = None,
    env_file: str | Path | None = ".env",
    session=None,
    verify: str | Path | bool | None = None,
    **credentials: Any,
) -> Salesforce:
    """A real org (or ``crmarena-sf serve``): username + password + security token, or instance URL + session id."""
    from simple_salesforce import Salesforce

    if verify is not None:
        if session is not None:
            raise TypeError("connect() takes session= or verify=, not both (set verify on your session)")
        from crmarena_sf.connection.verify_session import VerifySession

        session = VerifySession(str(verify) if isinstance(verify, Path) else verify)
    from crmarena_sf.metadata import API_VERSION

    values = _credentials(credentials, env_file)
    common: dict[str, Any] = {"version": version or API_VERSION}
    if session is not None:
        common["session"] = session
    if values.get("instance_url") and values.get("session_id"):
        instance_url = _checked_instance_url(values["instance_url"])
        return Salesforce(instance_url=instance_url, session_id=values["session_id"], **common)
    if (
        values.get("username")
        and values.get("password")
        and values.get("consumer_key")
        and values.get("consumer_secret")
    ):
        return Salesforce(
            username=values["username"],
            password=values["password"],
            consumer_key=values["consumer_key"],
            consumer_secret=values["consumer_secret"],
            domain=values.get("domain") or None,
            **common,
        )
    if values.get("username") and values.get("password") and values.get("security_token") is not None:
        return Salesforce(
            username=values["username"],
            password=values["password"],
            security_token=values["security_token"],
            domain=values.get("domain") or None,
            **common,
        )
    missing = [
        CREDENTIAL_VARIABLES[key]
        for key in ("username", "password", "security_token")
        if values.get(key) is None or (key != "security_token" and not values.get(key))
    ]
    raise MissingCredentials(
        "no credentials for a real Salesforce org: set "
        + ", ".join(missing)
        + " (SALESFORCE_DOMAIN=test for a sandbox), or SALESFORCE_INSTANCE_URL and SALESFORCE_SESSION_ID"
    )


def _checked_instance_url(url: str) -> str:
    """The org's URL as given, once it is one: ``http(s)://host[:port][/]``.

    simple-salesforce keeps only the host of what it is given (``not a url`` becomes
    ``https://none``, ``ftp://x`` silently ``https://x``), so a mistyped variable would only show as
    a network error far from its cause, or as a traceback for an unparsable one.
    """
    from urllib.parse import urlsplit

    problem = f"the instance URL (SALESFORCE_INSTANCE_URL) is not an org's URL: {url!r} (expected https://DOMAIN.my.salesforce.com)"
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise MissingCredentials(problem) from None
    if parts.scheme not in ("https", "http") or not parts.hostname or " " in url.strip() or port == 0:
        raise MissingCredentials(problem)
    return url.strip()


def _credentials(given: dict[str, Any], env_file: str | Path | None) -> dict[str, Any]:
    unknown = set(given) - set(CREDENTIAL_VARIABLES)
    if unknown:
        raise TypeError(f"unknown connect() option(s): {', '.join(sorted(unknown))}")
    file_values = read_env_file(env_file) if env_file else {}
    values: dict[str, Any] = {}
    for key, variable in CREDENTIAL_VARIABLES.items():
        if given.get(key) is not None:
            values[key] = given[key]
        elif os.environ.get(variable) is not None:
            values[key] = os.environ[variable]
        elif file_values.get(variable) is not None:
            values[key] = file_values[variable]
    return values


def read_env_file(path: str | Path) -> dict[str, str]:
    """``KEY=VALUE`` lines of a ``.env`` file (``#`` comments, ``export``, quotes); missing file: empty."""
    path = Path(path)
    if not path.is_file():
        return {}
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values
