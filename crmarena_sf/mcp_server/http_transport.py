"""An ``MCPServer`` over streamable HTTP (MCP specification, Transports), behind a bearer token.

Every request must carry ``Authorization: Bearer <token>``; any other gets ``401`` with
``WWW-Authenticate: Bearer error="invalid_token"`` and the JSON body RFC 6750 (section 3) and the
SDK's own resource-server middleware send, before the MCP transport sees it. On a loopback host
the SDK's DNS-rebinding protection also refuses a ``Host`` or ``Origin`` that is not loopback.
The socket is bound before the server starts, so ``--http 127.0.0.1:0`` can print the port the
system chose.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import signal
import socket
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp.server import MCPServer

MCP_PATH = "/mcp"
"""Where the MCP endpoint answers (the SDK's default)."""


class BearerToken:
    """ASGI middleware: HTTP requests without ``Authorization: Bearer <token>`` get 401 (lifespan events pass)."""

    def __init__(self, app, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and not self._authorized(scope):
            body = json.dumps({"error": "invalid_token", "error_description": "Authentication required"})
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"www-authenticate", b'Bearer error="invalid_token"'),
                        (b"content-length", str(len(body)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body.encode()})
            return
        await self.app(scope, receive, send)

    def _authorized(self, scope) -> bool:
        for name, value in scope.get("headers", ()):
            if name == b"authorization":
                scheme, _, token = value.strip().partition(b" ")
                return hmac.compare_digest(b"Bearer " + token.strip(), self._expected) and (
                    scheme.lower() == b"bearer"
                )
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: one the system picks); OSError when it cannot."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def url_of(sock: socket.socket) -> str:
    """The MCP endpoint's URL on a bound socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{MCP_PATH}"


def serve_http(server: MCPServer, sock: socket.socket, host: str, token: str) -> None:
    """Serve ``server`` on the bound ``sock`` (clients may connect already) until SIGINT or SIGTERM, then return.

    uvicorn stops gracefully on either signal and then raises it again for the handler it found;
    that handler only asks uvicorn to stop, so the command ends normally rather than with an
    interrupt raised inside the event loop.
    """
    import uvicorn

    app = BearerToken(server.streamable_http_app(host=host), token)
    web = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2))

    def stop(signum, frame) -> None:
        web.should_exit = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        asyncio.run(web.serve([sock]))
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
