"""``crmarena-sf mcp``: an emulated org served to MCP clients (Claude, the OpenAI Agents SDK ...).

On stdio by default (the client starts the command and speaks JSON-RPC on its stdin and stdout;
nothing else is ever written to stdout), or on streamable HTTP with ``--http HOST:PORT``: the
endpoint ``http://HOST:PORT/mcp`` and a bearer token every request must carry are printed on
stderr when it listens. HTTP stays on loopback unless ``--allow-remote`` says otherwise. The
tools are :mod:`crmarena_sf.mcp_server.org_tools`'; ``--read-only`` leaves out the three that
write. Like ``serve``, it serves a private copy of its org: writes live while it runs, and the
default org, an org file or a dataset directory never change. It stops when the client closes
stdin (stdio), on Ctrl-C or on SIGTERM, with exit code 0.

With ``--suite`` it serves a benchmark instead (:mod:`crmarena_sf.cli.mcp_suite`): the next task,
the suite's tools on each task's own fork, and the answer, scored and logged into ``--out``.
"""

from __future__ import annotations

import argparse
import secrets
import signal
import sys

from crmarena_sf.cli.arguments import add_served_org_options, is_loopback, port_number
from crmarena_sf.cli.errors import CliError
from crmarena_sf.cli.mcp_suite import add_suite_options, open_suite_session, refuse_mode_mix
from crmarena_sf.connection.orgs import OrgNotFound, resolve_org
from crmarena_sf.metadata.user_describes import DescribesError

INSTALL_HINT = "crmarena-sf mcp needs the MCP Python SDK 2.x: pip install 'crmarena-sf[mcp]'"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "mcp",
        help="serve an emulated org, or a benchmark (--suite), to MCP clients (stdio, or streamable HTTP "
        "with a bearer token)",
        description="Serve an emulated org over the Model Context Protocol: SOQL (with paging), SOSL, the "
        "object list, describes, and record get/create/update/delete, each answering the REST API's JSON. "
        "On stdio unless --http is given. Writes go to a private copy of the org, kept while the server "
        "runs: the org named by --org (its file or dataset directory) never changes. With --suite, serve a "
        "benchmark instead: next_task, the suite's tools on each task's own fork, and submit_answer (or "
        "reply_to_user), each answer scored and logged into --out as crmarena-sf run does.",
    )
    add_served_org_options(parser)
    parser.add_argument(
        "--http",
        type=host_and_port,
        metavar="HOST:PORT",
        help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (PORT 0 picks a free one); "
        "a bearer token, printed on stderr, is required on every request",
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="let --http listen on an address other machines can reach (refused otherwise)",
    )
    parser.add_argument("--token", help="the bearer token HTTP clients must send (default: a random one)")
    parser.add_argument(
        "--read-only",
        action="store_true",
        help="leave out the tools that write (create_record, update_record, delete_record)",
    )
    add_suite_options(parser)
    parser.set_defaults(func=run, org=None)  # --org's default: crmarena, or the --suite's own org


def host_and_port(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for an IPv6 address)."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or (":" in host and not (host.startswith("[") and host.endswith("]"))):
        raise argparse.ArgumentTypeError(f"expected HOST:PORT (e.g. 127.0.0.1:8000), not {text!r}")
    return host.strip("[]"), port_number(port)


def run(args) -> int:
    try:
        from crmarena_sf.mcp_server import http_transport
        from crmarena_sf.mcp_server.org_tools import org_server
    except ImportError:
        raise CliError(INSTALL_HINT) from None

    refuse_mode_mix(args)
    if args.http and not is_loopback(args.http[0]) and not args.allow_remote:
        raise CliError(
            f"--http {args.http[0]} is reachable from other machines; add --allow-remote to serve there, "
            "or use 127.0.0.1"
        )
    if args.token is not None and not args.http:
        raise CliError("--token is the HTTP clients' bearer token: give it with --http")
    if args.token is not None and not args.token.strip():
        raise CliError("--token must not be empty")
    sock = None
    if args.http:  # before the org, which may take seconds to open: a taken port fails at once
        host, port = args.http
        try:
            sock = http_transport.bind(host, port)
        except OSError as exc:
            raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    session = None
    try:
        if args.suite is not None:
            from crmarena_sf.mcp_server.suite_tools import suite_server

            session, suite, title = open_suite_session(args)
            server = suite_server(session, suite, title, worker_threads=sock is not None)
            what = f"the {title} benchmark ({len(session.todo)} tasks to serve)"
        else:
            if args.org is None:
                args.org = "crmarena"
            try:
                org = resolve_org(args.org, describes=args.describes)
            except (OrgNotFound, DescribesError) as exc:
                raise CliError(str(exc)) from None
            # As serve does: a tool call's small query runs faster on one DuckDB thread than split into tasks.
            org.con.execute("SET GLOBAL threads = 1")
            server = org_server(org, args.org, read_only=args.read_only, worker_threads=sock is not None)
            what = f"the org {args.org}"
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            if sock is None:
                print(f"crmarena-sf: serving {what} over MCP on stdio", file=sys.stderr)
                server.run("stdio")
            else:
                token = args.token or secrets.token_urlsafe(32)
                _print_http(sock, token, args.http[0])  # the socket listens: clients may connect now
                http_transport.serve_http(server, sock, args.http[0], token)
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
    finally:
        if session is not None:
            session.close()
        if sock is not None:
            sock.close()
    print("crmarena-sf: MCP server stopped", file=sys.stderr)
    return 0


def _print_http(sock, token: str, host: str) -> None:
    from crmarena_sf.mcp_server.http_transport import url_of

    if not is_loopback(host):
        print(f"crmarena-sf: warning: serving on {host}, reachable from other machines", file=sys.stderr)
    print(f"url: {url_of(sock)}", file=sys.stderr)
    print(f"token: {token}", file=sys.stderr)
    print(f"header: Authorization: Bearer {token}", file=sys.stderr)
    sys.stderr.flush()


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
