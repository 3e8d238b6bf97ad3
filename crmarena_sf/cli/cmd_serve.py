"""``crmarena-sf serve``: the emulator as a local Salesforce REST server (HTTPS by default).

Prints ``instance_url:``, ``session_id:`` and ``certificate:`` (the PEM a client trusts), the
Python and curl lines that connect with them, the ``username:``, ``password:`` and
``security_token:`` a SOAP or OAuth password login must send (any active user of the org may log
in with that password, the token appended or not), then ``refresh_token:`` and the
``sfdx_auth_url:`` that carries it (the only refresh token the token endpoint honours), and
serves until Ctrl-C (or SIGTERM) and exits cleanly. The Python line passes the certificate to
``connect(backend="salesforce", verify=...)``, which holds even where ``REQUESTS_CA_BUNDLE``
is set (a plain ``session.verify`` does not).
"""

from __future__ import annotations

import shlex
import signal
import sys
from pathlib import Path

from crmarena_sf.cli.arguments import add_served_org_options, is_loopback, port_number
from crmarena_sf.cli.errors import CliError
from crmarena_sf.connection.orgs import OrgNotFound, resolve_org
from crmarena_sf.emulator.store.seed import ADMIN_USERNAME
from crmarena_sf.metadata import API_VERSION
from crmarena_sf.metadata.user_describes import DescribesError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve an emulated org over Salesforce's REST API (HTTPS)",
        description="Serve an emulated org over Salesforce's REST API, HTTPS with a self-signed certificate, "
        "until Ctrl-C. It prints the instance URL, the session id, the certificate, and the Python and curl "
        "lines that connect with them.",
    )
    add_served_org_options(parser)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    parser.add_argument(
        "--port", type=port_number, default=8443, help="port to listen on; 0 picks a free one (default 8443)"
    )
    parser.add_argument(
        "--http", action="store_true", help="plain HTTP instead of HTTPS (simple-salesforce needs HTTPS)"
    )
    parser.add_argument("--session-id", help="the session id clients must send (default: a random one)")
    parser.add_argument(
        "--refresh-token",
        help="the refresh token the OAuth token endpoint accepts (default: a random one; printed with the "
        "sfdx auth URL that carries it); no other refresh token is honoured",
    )
    parser.add_argument(
        "--password",
        help="the password SOAP and OAuth username-password logins must send (default: a random one, printed)",
    )
    parser.add_argument(
        "--security-token",
        help="the security token a login may append to the password (default: a random one, printed)",
    )
    parser.add_argument(
        "--jwt-cert",
        action="append",
        type=Path,
        metavar="PEM",
        help="a connected app's X.509 certificate: JWT bearer logins must be signed with its private key "
        "(repeat for several); without one, every JWT login is refused",
    )
    parser.add_argument(
        "--cert-dir",
        type=Path,
        metavar="DIR",
        help="where the self-signed certificate lives (default: tls/ in the cache directory, "
        "~/.cache/crmarena-sf or $CRMARENA_SF_CACHE)",
    )
    parser.set_defaults(func=run)


def run(args) -> int:
    from crmarena_sf.emulator.rest.auth.grants import GrantPolicy
    from crmarena_sf.emulator.rest.transport.router import Router
    from crmarena_sf.emulator.rest.transport.server import serve
    from crmarena_sf.emulator.rest.transport.tls import CertificateDirectoryError, certificate_paths

    if not args.http:
        try:  # before the org, which may take seconds to open: a bad --cert-dir fails at once
            certificate_paths(args.host, args.cert_dir)
        except CertificateDirectoryError as exc:
            raise CliError(str(exc)) from None
    try:
        org = resolve_org(args.org, describes=args.describes)
    except (OrgNotFound, DescribesError) as exc:
        raise CliError(str(exc)) from None
    # Concurrency comes from the clients, one thread each: a REST call's small query runs faster
    # on one DuckDB thread than split into tasks (and leaves the other core to another call).
    org.con.execute("SET GLOBAL threads = 1")
    router = Router.for_org(org)
    try:
        router.grants = GrantPolicy.for_server(args.jwt_cert, args.password, args.security_token)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    session_id = router.issue_session(args.session_id)
    refresh_token = router.grants.issue_refresh_token(token=args.refresh_token)
    try:
        server, cert_path = serve(router, args.host, args.port, tls=not args.http, cert_dir=args.cert_dir)
    except OSError as exc:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    if not is_loopback(args.host):
        print(f"crmarena-sf: warning: serving on {args.host}, reachable from other machines", file=sys.stderr)
    print(f"instance_url: {server.instance_url}")
    print(f"session_id: {session_id}")
    print(f"certificate: {cert_path if cert_path else 'none (plain HTTP)'}")
    for line in how_to_connect(server.instance_url, session_id, cert_path):
        print(line)
    print(f"username: {ADMIN_USERNAME}")
    print(f"password: {router.grants.password}")
    print(f"security_token: {router.grants.security_token}")
    print(f"refresh_token: {refresh_token}")
    print(f"sfdx_auth_url: force://PlatformCLI::{refresh_token}@{server.instance_url.split('://', 1)[1]}")
    sys.stdout.flush()
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.server_close()
    print("crmarena-sf: server stopped", file=sys.stderr)
    return 0


def how_to_connect(instance_url: str, session_id: str, cert_path: Path | None) -> list[str]:
    """The lines a user pastes to reach the server: Python (simple-salesforce) and curl."""
    lines = []
    if cert_path is not None:  # simple-salesforce builds https URLs only
        lines.append(
            f"python: sf = crmarena_sf.connect(backend='salesforce', instance_url={instance_url!r}, "
            f"session_id={session_id!r}, verify={str(cert_path)!r})"
        )
    curl = ["curl"] + (["--cacert", str(cert_path)] if cert_path is not None else [])
    curl += [
        "-H",
        f"Authorization: Bearer {session_id}",
        f"{instance_url}/services/data/v{API_VERSION}/limits",
    ]
    lines.append("curl: " + shlex.join(curl))
    return lines


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
