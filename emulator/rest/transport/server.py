"""The emulator as a real HTTP(S) server (``crmarena-sf serve``).

A threading HTTP/1.1 server (keep-alive, one thread per connection) whose handler turns
each request into a :class:`Request` for the org's :class:`Router`; the router takes the
org's lock per call, so concurrent clients are safe. TLS is on by default (simple-salesforce
only speaks https); the handshake runs in the connection's thread, so a slow or plain-HTTP
client never blocks the others. Binds to loopback unless told otherwise.

Hostile clients are contained at this layer: every socket read has a timeout, so a client
that stalls mid-handshake, mid-headers or mid-body frees its thread; a body shorter than its
``Content-Length`` (or a chunked body cut off) is never handed to the router, so nothing of it
is written; the HTTP layer's own refusals (400, 413, 414, 431) are JSON like every other
error (see :mod:`crmarena_sf.emulator.rest.transport.transport_errors`), and any method, OPTIONS and TRACE included,
reaches the router, which answers 405 ``METHOD_NOT_ALLOWED`` as Salesforce does.

The handler reads the request line as ``http.server`` does but the header block itself
(:mod:`crmarena_sf.emulator.rest.transport.request_head`: strict, and a fraction of the CPU of
the ``email`` parser ``http.server`` uses), and writes each answer's status line, headers and
body in one write (:mod:`crmarena_sf.emulator.rest.transport.response_head`); the bytes of every
answer to a well-formed request are those ``http.server`` wrote.
"""

from __future__ import annotations

import contextlib
import json
import socket
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from crmarena_sf.emulator.rest.transport.messages import Request
from crmarena_sf.emulator.rest.transport.request_head import HeaderRefusal, read_headers
from crmarena_sf.emulator.rest.transport.response_head import response_head
from crmarena_sf.emulator.rest.transport.router import Router
from crmarena_sf.emulator.rest.transport.transport_errors import (
    MAX_BODY,
    MAX_URI_AND_HEADERS,
    body_too_large,
    http_error,
)

REQUEST_TIMEOUT = 60.0
"""Seconds a connection may wait on its client (handshake, request line, headers, each body read)."""


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
        request_timeout: float | None = REQUEST_TIMEOUT,
    ) -> None:
        self.router = router
        self.tls_context = tls_context
        self.request_timeout = request_timeout
        """Socket timeout of every connection (None: wait forever, which a hostile client exploits)."""
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
        request.settimeout(self.request_timeout)
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
    # Without TCP_NODELAY a response written in two parts (refusals from send_error) waits ~40 ms
    # for the client's delayed ACK (Nagle's algorithm).
    disable_nagle_algorithm = True
    server: EmulatorServer
    _wrote_head = False
    """True once this connection answered with a status line (http.server then kept a header buffer)."""

    @property
    def timeout(self) -> float | None:  # read by StreamRequestHandler.setup() for settimeout()
        return self.server.request_timeout

    def __getattr__(self, name: str):
        """Every method (OPTIONS, TRACE, PROPFIND ...) goes to the router: Salesforce answers 405, not 501."""
        if name.startswith("do_"):
            return self._answer
        raise AttributeError(name)

    def parse_request(self) -> bool:
        """The request line as ``http.server`` reads it, the headers read strictly (request_head), then
        Salesforce's 16,384-byte limit on the URI (414) and URI plus headers (431)."""
        if not self._parse_request_line():
            return False
        try:
            self.headers = read_headers(self.rfile)
        except HeaderRefusal as refusal:
            self.send_error(refusal.status, refusal.message)
            return False
        connection = (self.headers.get("Connection") or "").lower()
        if connection == "close":
            self.close_connection = True
        elif connection == "keep-alive":
            self.close_connection = False
        expect = self.headers.get("Expect") or ""
        if expect.lower() == "100-continue" and self.request_version >= "HTTP/1.1":
            self.handle_expect_100()
        if len(self.path.encode("latin-1", "replace")) > MAX_URI_AND_HEADERS:
            self.send_error(414, f"The URI exceeds the limit of {MAX_URI_AND_HEADERS} bytes")
            return False
        size = len(self.raw_requestline) + self.headers.size()
        if size > MAX_URI_AND_HEADERS:
            self.send_error(431, f"The URI and headers exceed the limit of {MAX_URI_AND_HEADERS} bytes")
            return False
        return True

    def _parse_request_line(self) -> bool:
        """``BaseHTTPRequestHandler.parse_request``'s reading of the request line, refusals and quirks kept:
        a refusal before the version is known is answered HTTP/0.9 style (the body alone), and a
        two-word ``GET`` is an HTTP/0.9 request."""
        self.command = None
        self.request_version = version = self.default_request_version
        self.close_connection = True
        self.requestline = requestline = str(self.raw_requestline, "iso-8859-1").rstrip("\r\n")
        words = requestline.split()
        if not words:
            return False
        if len(words) >= 3:
            version = words[-1]
            try:
                if not version.startswith("HTTP/"):
                    raise ValueError
                numbers = version[5:].split(".")
                if len(numbers) != 2 or not all(n.isdigit() and len(n) <= 10 for n in numbers):
                    raise ValueError
                number = int(numbers[0]), int(numbers[1])  # isdigit() takes "²", int() does not
            except ValueError:
                self.send_error(400, f"Bad request version ({version!r})")
                return False
            if number >= (1, 1):
                self.close_connection = False
            if number >= (2, 0):
                self.send_error(505, f"Invalid HTTP version ({version[5:]})")
                return False
            self.request_version = version
        if len(words) > 3:
            self.send_error(400, f"Bad request syntax ({requestline!r})")
            return False
        command, path = words[0], words[1] if len(words) > 1 else None
        if path is None:
            self.send_error(400, f"Bad request syntax ({requestline!r})")
            return False
        if len(words) == 2:
            self.close_connection = True
            if command != "GET":
                self.send_error(400, f"Bad HTTP/0.9 request type ({command!r})")
                return False
        self.command = command
        # gh-87389: "//path" is a network-path reference to clients; http.server folds it to "/path".
        self.path = "/" + path.lstrip("/") if path.startswith("//") else path
        return True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The HTTP layer's refusals as Salesforce-shaped JSON (never Python's HTML page)."""
        error = body_too_large() if code == 413 and message is None else http_error(code, message)
        body = json.dumps([error.to_rest()], separators=(",", ":")).encode("utf-8")
        self.close_connection = True
        headers = (("Connection", "close"), ("Content-Type", "application/json;charset=UTF-8"))
        self._write(code, headers, body if self.command != "HEAD" else b"", len(body))

    def _answer(self) -> None:
        body = self._read_body()
        if body is None:
            return
        request = Request.from_target(
            self.command, self.path, dict(self.headers.items()), body, self.server.instance_url
        )
        response = self.server.router.handle(request)
        if self.request_version == "HTTP/0.9":  # a two-word GET: answered as http.server answered it
            self.close_connection = True
            if self._wrote_head:  # the connection's earlier answer left its header buffer behind
                self.wfile.write(b"\r\n" + response.body)
            return
        body = response.body if self.command != "HEAD" else b""
        self._write(response.status, response.headers.items(), body, len(response.body))

    def _write(self, status: int, headers, body: bytes, content_length: int) -> None:
        """Status line, headers and body in one write, so in one TLS record and one packet (two writes
        wait ~40 ms for the client's delayed ACK); an HTTP/0.9 request gets the body alone."""
        if self.request_version == "HTTP/0.9":
            self.wfile.write(body)
            return
        for key, value in headers:
            if key.lower() == "connection" and value.lower() in ("close", "keep-alive"):
                self.close_connection = value.lower() == "close"  # as send_header() reads it
        head = response_head(self.protocol_version, status, self.version_string(), headers, content_length)
        self._wrote_head = True
        self.wfile.write(head + body)

    def send_response_only(self, code: int, message: str | None = None) -> None:
        """Only ``100 Continue`` comes here (handle_expect_100); it leaves the header buffer behind too."""
        self._wrote_head = True
        super().send_response_only(code, message)

    def _read_body(self) -> bytes | None:
        """The whole request body (Content-Length or chunked), or None once refused or abandoned.

        A body that ends before its declared length (the client went away, or lied) is
        abandoned: no answer, the connection closes, the router never sees a byte of it.
        """
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            return self._read_chunked()
        lengths = {value.strip() for value in self.headers.get_all("Content-Length") or []}
        if not lengths:
            return b""
        text = lengths.pop()
        if lengths or not (text.isascii() and text.isdigit()):
            self.send_error(400, "bad Content-Length")
            return None
        if len(text) > len(str(MAX_BODY)) or int(text) > MAX_BODY:
            self.send_error(413)
            return None
        length = int(text)
        body = self.rfile.read(length) if length else b""
        if len(body) < length:
            return self._abandon()
        return body

    def _read_chunked(self) -> bytes | None:
        chunks, size = [], 0
        while True:
            line = self.rfile.readline(65537)
            if not line:
                return self._abandon()
            field = line.split(b";", 1)[0].strip()
            if not field or len(field) > 16 or any(c not in b"0123456789abcdefABCDEF" for c in field):
                self.send_error(400, "bad chunked body")
                return None
            length = int(field, 16)
            if length == 0:
                while True:  # trailers, up to the empty line
                    trailer = self.rfile.readline(65537)
                    if not trailer:
                        return self._abandon()
                    if trailer in (b"\r\n", b"\n"):
                        return b"".join(chunks)
            size += length
            if size > MAX_BODY:
                self.send_error(413)
                return None
            chunk = self.rfile.read(length)
            end = self.rfile.readline(65537) if len(chunk) == length else b""
            if not end:
                return self._abandon()
            if end not in (b"\r\n", b"\n"):
                self.send_error(400, "bad chunked body")
                return None
            chunks.append(chunk)

    def _abandon(self) -> None:
        """Drop a request whose body never fully arrived: answer nothing, close the connection."""
        self.close_connection = True
        return None

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (BaseHTTPRequestHandler's name)
        """Quiet: one line per request would drown the console under load."""


def serve(
    router: Router,
    host: str = "127.0.0.1",
    port: int = 8443,
    *,
    tls: bool = True,
    cert_dir: Path | None = None,
    request_timeout: float | None = REQUEST_TIMEOUT,
) -> tuple[EmulatorServer, Path | None]:
    """A bound (not yet serving) server and the certificate path clients should trust (None without TLS)."""
    context = None
    cert_path = None
    if tls:
        from crmarena_sf.emulator.rest.transport.tls import certificate_paths, server_context

        cert_path, key_path = certificate_paths(host, cert_dir)
        context = server_context(cert_path, key_path)
    return EmulatorServer(router, host, port, context, request_timeout), cert_path
