"""The emulator as a real HTTP(S) server (``crmarena-sf serve``).

A threading HTTP/1.1 server (keep-alive, one thread per connection) whose handler turns
each request into a :class:`Request` for the org's :class:`Router`; the router takes the
org's lock per call, so concurrent clients are safe. TLS is on by default (simple-salesforce
only speaks https); the handshake runs in the connection's thread, so a slow or plain-HTTP
client never blocks the others. Binds to loopback unless told otherwise.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from emulator.rest.messages import Request
from emulator.rest.router import Router

MAX_BODY = 150 * 1024 * 1024
"""Largest request body accepted (Bulk API 2.0 uploads are at most 150 MB)."""


class EmulatorServer(ThreadingHTTPServer):
    """Serves one router over HTTP or HTTPS; ``instance_url`` is its own base URL."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self,
        router: Router,
        host: str = "127.0.0.1",
        port: int = 8443,
        tls_context: ssl.SSLContext | None = None,
    ) -> None:
        self.router = router
        self.tls_context = tls_context
        if ":" in host:
            self.address_family = socket.AF_INET6
        super().__init__((host, port), _Handler)
        scheme = "https" if tls_context else "http"
        shown = f"[{host}]" if ":" in host else host
        self.instance_url = f"{scheme}://{shown}:{self.server_address[1]}"

    @property
    def port(self) -> int:
        return self.server_address[1]

    def finish_request(self, request, client_address) -> None:
        """Runs in the connection's thread: do the TLS handshake here, not in the accepting thread."""
        if self.tls_context is not None:
            try:
                request = self.tls_context.wrap_socket(request, server_side=True)
            except (ssl.SSLError, OSError):
                with contextlib.suppress(OSError):
                    request.close()
                return
        super().finish_request(request, client_address)

    def handle_error(self, request, client_address) -> None:
        """A client that went away mid-request is not worth a traceback on the console."""

    def start_background(self) -> threading.Thread:
        """Serve from a daemon thread (tests, benchmarks); stop with :meth:`stop`."""
        thread = threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.05}, name="crmarena-sf-server", daemon=True
        )
        thread.start()
        return thread

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; without TCP_NODELAY each response waits ~40 ms
    # for the client's delayed ACK (Nagle's algorithm).
    disable_nagle_algorithm = True
    server: EmulatorServer

    def _answer(self) -> None:
        body = self._read_body()
        if body is None:
            return
        request = Request.from_url(
            self.command,
            self.server.instance_url + self.path,
            headers=dict(self.headers.items()),
            body=body,
            instance_url=self.server.instance_url,
        )
        response = self.server.router.handle(request)
        self.send_response(response.status)
        for key, value in response.headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        if self.command != "HEAD" and response.body:
            self.wfile.write(response.body)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_HEAD = _answer

    def _read_body(self) -> bytes | None:
        """The request body (Content-Length or chunked); None after answering 400/413 for a bad one."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks, size = [], 0
            while True:
                line = self.rfile.readline(65537).split(b";", 1)[0].strip()
                try:
                    length = int(line, 16)
                except ValueError:
                    self.send_error(400, "bad chunked body")
                    return None
                if length == 0:
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return b"".join(chunks)
                size += length
                if size > MAX_BODY:
                    self.send_error(413)
                    return None
                chunks.append(self.rfile.read(length))
                self.rfile.readline(65537)
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0:
            self.send_error(400, "bad Content-Length")
            return None
        if length > MAX_BODY:
            self.send_error(413)
            return None
        return self.rfile.read(length) if length else b""

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (BaseHTTPRequestHandler's name)
        """Quiet: one line per request would drown the console under load."""


def serve(
    router: Router,
    host: str = "127.0.0.1",
    port: int = 8443,
    *,
    tls: bool = True,
    cert_dir: Path | None = None,
) -> tuple[EmulatorServer, Path | None]:
    """A bound (not yet serving) server and the certificate path clients should trust (None without TLS)."""
    context = None
    cert_path = None
    if tls:
        from emulator.rest.tls import certificate_paths, server_context

        cert_path, key_path = certificate_paths(host, cert_dir)
        context = server_context(cert_path, key_path)
    return EmulatorServer(router, host, port, context), cert_path
