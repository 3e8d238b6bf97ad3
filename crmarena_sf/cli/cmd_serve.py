"""``crmarena-sf serve``: the emulator as a local Salesforce REST server (HTTPS by default).

Prints ``instance_url:``, ``session_id:`` and ``certificate:`` (the PEM a client trusts, e.g.
through ``REQUESTS_CA_BUNDLE``), then serves until Ctrl-C (or SIGTERM) and exits cleanly::

    crmarena-sf serve --org blank --port 8443
    curl --cacert ~/.cache/crmarena-sf/tls/localhost.pem \\
         -H "Authorization: Bearer $SID" https://127.0.0.1:8443/services/data/v62.0/limits
"""

from __future__ import annotations

import ipaddress
import signal
import sys
from pathlib import Path

from crmarena_sf.cli.errors import CliError
from crmarena_sf.orgs import ORG_HELP, OrgNotFound, resolve_org


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve an emulated org over Salesforce's REST API (HTTPS)",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("--org", default="crmarena", help=f"the org to serve: {ORG_HELP}")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    parser.add_argument(
        "--port", type=int, default=8443, help="port to listen on; 0 picks a free one (default 8443)"
    )
    parser.add_argument(
        "--http", action="store_true", help="plain HTTP instead of HTTPS (simple-salesforce needs HTTPS)"
    )
    parser.add_argument("--session-id", help="the session id clients must send (default: a random one)")
    parser.add_argument(
        "--cert-dir",
        type=Path,
        help="where the self-signed certificate lives (default ~/.cache/crmarena-sf/tls)",
    )
    parser.set_defaults(func=run)


def run(args) -> int:
    from emulator.rest.router import Router
    from emulator.rest.server import serve

    try:
        org = resolve_org(args.org)
    except OrgNotFound as exc:
        raise CliError(str(exc)) from None
    router = Router.for_org(org)
    session_id = router.issue_session(args.session_id)
    try:
        server, cert_path = serve(router, args.host, args.port, tls=not args.http, cert_dir=args.cert_dir)
    except OSError as exc:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    if not _is_loopback(args.host):
        print(f"crmarena-sf: warning: serving on {args.host}, reachable from other machines", file=sys.stderr)
    print(f"instance_url: {server.instance_url}")
    print(f"session_id: {session_id}")
    print(f"certificate: {cert_path if cert_path else 'none (plain HTTP)'}", flush=True)
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


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
