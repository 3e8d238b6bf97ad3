"""Hostile clients against a real ``emulator.rest.transport.server`` on 127.0.0.1: the server stays up for others.

Raw sockets send what no well-behaved client would: bodies cut short, stalls mid-body and
mid-handshake, oversized URIs and headers, unknown methods. Each answer is Salesforce-shaped
JSON (or, for a client that went away, nothing), no refused write reaches the org, and other
clients keep getting answers. References: REST API Developer Guide errorcodes.htm and
intro_rest_compression.htm; Salesforce Help article 000386264 (16,384-byte URI and header limit).
"""

from __future__ import annotations

import gzip
import json
import socket
import threading
import time

import pytest
import requests
from crmarena_sf.emulator.rest.transport.router import Router
from crmarena_sf.emulator.rest.transport.server import serve
from crmarena_sf.emulator.store.org import Org

TIMEOUT = 0.5
"""The servers' socket timeout in these tests (the default is a minute)."""
V = "/services/data/v62.0"


class Served:
    """A plain-HTTP server over a blank org, with a session and raw-socket helpers."""

    def __init__(self, **options) -> None:
        self.org = Org.new()
        self.router = Router(self.org)
        self.server, self.cert = serve(self.router, "127.0.0.1", 0, request_timeout=TIMEOUT, **options)
        self.server.start_background()
        self.sid = self.router.issue_session()
        self.url = self.server.instance_url

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.sid}"}

    def accounts(self) -> int:
        return self.org.count("Account", include_deleted=True)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.server.port), timeout=5)

    def exchange(self, data: bytes, *, half_close: bool = False) -> bytes:
        """Send ``data`` on a fresh connection and read until the server answers in full or closes."""
        with self.connect() as sock:
            sock.sendall(data)
            if half_close:
                sock.shutdown(socket.SHUT_WR)  # the client is gone: nothing more will arrive
            return read_answer(sock)

    def head(self, method: str, path: str, extra: str = "") -> bytes:
        return (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {self.sid}\r\n{extra}\r\n"
        ).encode()


def read_answer(sock: socket.socket) -> bytes:
    """One HTTP answer (headers and a Content-Length body), or what arrived before the server closed."""
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
        head, separator, body = data.partition(b"\r\n\r\n")
        if separator:
            lengths = [line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
            if lengths and len(body) >= int(lengths[0].split(b":")[1]):
                return data


def status_and_json(answer: bytes) -> tuple[int, object]:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), head
    return int(head.split(b" ", 2)[1]), json.loads(body)


@pytest.fixture
def served():
    served = Served(tls=False)
    yield served
    served.server.stop()


# ---------------------------------------------------------------------------- the freeze
def test_a_huge_exponent_does_not_hold_the_org_while_other_clients_wait(served):
    answers: dict[str, int] = {}

    def hostile() -> None:
        response = requests.post(
            f"{served.url}{V}/sobjects/Account/",
            json={"Name": "x", "NumberOfEmployees": "1e99999999"},
            headers=served.auth,
            timeout=10,
        )
        answers["hostile"] = response.status_code
        answers["code"] = response.json()[0]["errorCode"]

    started = time.monotonic()
    thread = threading.Thread(target=hostile)
    thread.start()
    other = requests.get(f"{served.url}{V}/limits", headers=served.auth, timeout=10)
    thread.join(10)
    assert other.status_code == 200
    assert answers == {"hostile": 400, "code": "NUMBER_OUTSIDE_VALID_RANGE"}
    assert time.monotonic() - started < 3
    assert served.accounts() == 0


# ---------------------------------------------------------------------------- truncated bodies
def test_a_body_shorter_than_its_content_length_is_never_written(served):
    body = b'{"Name": "half sent"}'
    head = served.head(
        "POST",
        f"{V}/sobjects/Account/",
        f"Content-Type: application/json\r\nContent-Length: {len(body) + 40}\r\n",
    )
    assert served.exchange(head + body, half_close=True) == b""
    assert served.accounts() == 0
    whole = served.head(
        "POST", f"{V}/sobjects/Account/", f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    )
    status, created = status_and_json(served.exchange(whole + body))
    assert status == 201 and created["success"] is True
    assert served.accounts() == 1


def test_a_chunked_body_cut_before_its_last_chunk_is_never_written(served):
    chunk = b'{"Name": "chunked"}'
    head = served.head(
        "POST", f"{V}/sobjects/Account/", "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
    )
    framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    assert served.exchange(head + framed, half_close=True) == b""
    assert served.accounts() == 0
    status, _ = status_and_json(served.exchange(head + framed + b"0\r\n\r\n"))
    assert status == 201 and served.accounts() == 1


def test_a_bulk_upload_cut_mid_row_is_not_ingested(served):
    job = requests.post(
        f"{served.url}{V}/jobs/ingest", json={"object": "Account", "operation": "insert"}, headers=served.auth
    ).json()
    batches = f"{V}/jobs/ingest/{job['id']}/batches"
    cut = b"Name,Description\nfirst,whole row\nsecond,half a r"
    head = served.head("PUT", batches, f"Content-Type: text/csv\r\nContent-Length: {len(cut) + 100}\r\n")
    assert served.exchange(head + cut, half_close=True) == b""
    # The cut upload was never stored: the job still takes its one upload, and only that is ingested.
    whole = requests.put(
        f"{served.url}{batches}", data=b"Name\nonly\n", headers={**served.auth, "Content-Type": "text/csv"}
    )
    assert whole.status_code == 201
    closed = requests.patch(
        f"{served.url}{V}/jobs/ingest/{job['id']}", json={"state": "UploadComplete"}, headers=served.auth
    )
    assert closed.status_code == 200
    info = requests.get(f"{served.url}{V}/jobs/ingest/{job['id']}", headers=served.auth).json()
    assert info["state"] == "JobComplete" and info["numberRecordsProcessed"] == 1
    names = served.org.con.execute('SELECT "Name" FROM "Account"').fetchall()
    assert names == [("only",)]


def test_a_client_that_stalls_mid_body_is_dropped_and_others_are_served(served):
    with served.connect() as stalled:
        stalled.sendall(
            served.head(
                "POST", f"{V}/sobjects/Account/", "Content-Type: application/json\r\nContent-Length: 100\r\n"
            )
            + b'{"Na'
        )
        other = requests.get(f"{served.url}{V}/limits", headers=served.auth, timeout=5)
        assert other.status_code == 200
        started = time.monotonic()
        assert read_answer(stalled) == b""  # the server closed the connection ...
        assert time.monotonic() - started < TIMEOUT + 2  # ... once its timeout ran out
    assert served.accounts() == 0


def test_a_tls_client_that_never_finishes_its_handshake_is_dropped(tmp_path):
    served = Served(cert_dir=tmp_path)
    try:
        with served.connect() as silent:  # connects, then never sends a ClientHello
            ok = requests.get(
                f"{served.url}{V}/limits", headers=served.auth, verify=str(served.cert), timeout=5
            )
            assert ok.status_code == 200
            started = time.monotonic()
            try:
                closed = silent.recv(1) == b""
            except ConnectionResetError:
                closed = True
            assert closed and time.monotonic() - started < TIMEOUT + 2
    finally:
        served.server.stop()


# ---------------------------------------------------------------------------- HTTP-level refusals are JSON
def test_a_uri_over_16384_bytes_is_414_json(served):
    status, body = status_and_json(served.exchange(served.head("GET", f"{V}/query?q=" + "x" * 17_000)))
    assert status == 414 and body[0]["errorCode"] == "REQUEST_URI_TOO_LONG"


def test_uri_and_headers_over_16384_bytes_are_431_json(served):
    headers = "".join(f"X-Padding-{i}: {'y' * 200}\r\n" for i in range(90))
    status, body = status_and_json(served.exchange(served.head("GET", f"{V}/limits", headers)))
    assert status == 431 and body[0]["errorCode"] == "REQUEST_HEADER_FIELDS_TOO_LARGE"


def test_a_body_over_150_mb_is_413_json_without_reading_it(served):
    head = served.head(
        "POST", f"{V}/sobjects/Account/", "Content-Type: application/json\r\nContent-Length: 157286401\r\n"
    )
    status, body = status_and_json(served.exchange(head))
    assert status == 413 and body[0]["errorCode"] == "REQUEST_ENTITY_TOO_LARGE"


@pytest.mark.parametrize("length", ["abc", "-1", "١٢", "5, 6"])
def test_a_bad_content_length_is_400_json(served, length):
    head = served.head(
        "POST", f"{V}/sobjects/Account/", f"Content-Type: application/json\r\nContent-Length: {length}\r\n"
    )
    status, body = status_and_json(served.exchange(head + b"{}"))
    assert status == 400 and body[0]["errorCode"] == "BAD_REQUEST"
    assert served.accounts() == 0


@pytest.mark.parametrize("method", ["OPTIONS", "TRACE", "PROPFIND"])
def test_any_method_reaches_the_router_and_is_405_method_not_allowed(served, method):
    status, body = status_and_json(served.exchange(served.head(method, f"{V}/sobjects")))
    assert status == 405
    assert body == [
        {
            "message": f"HTTP Method '{method}' not allowed. Allowed are HEAD,GET",
            "errorCode": "METHOD_NOT_ALLOWED",
        }
    ]


def test_a_gzip_body_is_decompressed_over_http(served):
    body = gzip.compress(json.dumps({"Name": "compressed"}).encode())
    response = requests.post(
        f"{served.url}{V}/sobjects/Account/",
        data=body,
        headers={**served.auth, "Content-Type": "application/json", "Content-Encoding": "gzip"},
    )
    assert response.status_code == 201
    assert served.accounts() == 1
