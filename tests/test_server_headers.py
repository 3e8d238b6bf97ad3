"""Request heads as ``crmarena-sf serve`` reads them, over a raw socket to a real server on 127.0.0.1.

The server reads the request line and header block itself (emulator/rest/transport/request_head.py):
what a well-formed block means is what ``http.server`` made of it (names in any case, the
first of repeated fields for the HTTP layer, line endings CRLF or LF, ``Expect: 100-continue``,
keep-alive and pipelining), and what RFC 9112 §5 says to reject (a line that is not
``name: value``, whitespace before the colon, a folded line, a bare CR or NUL) is a JSON 400 that
never reaches the org. References: RFC 9112 §2.2, §5.1, §5.2, §9.3; RFC 9110 §5.5.
"""

from __future__ import annotations

import json
import re

import pytest
from test_server_hostile import Served, V, read_answer, status_and_json


@pytest.fixture
def served():
    served = Served(tls=False)
    yield served
    served.server.stop()


def _post_account(served: Served, extra: str, name: str = "Acme") -> bytes:
    body = json.dumps({"Name": name}).encode()
    head = f"POST {V}/sobjects/Account/ HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}"
    head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode("latin-1") + body


# ---------------------------------------------------------------------------- what a well-formed head means
@pytest.mark.parametrize(
    "authorization",
    ["authorization: bearer {sid}", "AUTHORIZATION:OAuth {sid}", "Authorization: \t Bearer {sid}"],
)
def test_header_names_are_matched_in_any_case_and_leading_whitespace_is_dropped(served, authorization):
    head = f"GET {V}/limits HTTP/1.1\r\nHost: 127.0.0.1\r\n{authorization.format(sid=served.sid)}\r\n\r\n"
    status, body = status_and_json(served.exchange(head.encode()))
    assert status == 200 and "DailyApiRequests" in body


def test_of_repeated_fields_the_router_reads_the_last(served):
    good, bad = f"Authorization: Bearer {served.sid}\r\n", "Authorization: Bearer not-a-session\r\n"
    status, _ = status_and_json(served.exchange(_post_account(served, bad + good)))
    assert status == 201
    status, body = status_and_json(served.exchange(_post_account(served, good + bad)))
    assert status == 401 and body[0]["errorCode"] == "INVALID_SESSION_ID"
    assert served.accounts() == 1


def test_repeated_content_lengths_that_disagree_are_400(served):
    head = served.head("POST", f"{V}/sobjects/Account/", "Content-Length: 2\r\nContent-Length: 3\r\n")
    status, body = status_and_json(served.exchange(head + b"{} "))
    assert status == 400 and body[0]["message"] == "bad Content-Length"
    assert served.accounts() == 0


def test_lines_ending_in_lf_alone_are_read(served):
    request = _post_account(served, f"Authorization: Bearer {served.sid}\r\n").replace(b"\r\n", b"\n")
    status, created = status_and_json(served.exchange(request))
    assert status == 201 and created["success"] is True


def test_pipelined_requests_on_one_connection_each_get_their_answer(served):
    auth = f"Authorization: Bearer {served.sid}\r\n"
    with served.connect() as sock:
        sock.sendall(_post_account(served, auth, "first") + _post_account(served, auth, "second"))
        first = read_answer(sock)
        second = read_answer(sock) if first.count(b"HTTP/1.1 201") == 1 else b""
    answers = first + second
    assert answers.count(b"HTTP/1.1 201 Created\r\n") == 2
    assert served.accounts() == 2


def test_every_answer_carries_server_date_and_length_headers(served):
    answer = served.exchange(served.head("GET", f"{V}/limits"))
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0] == "HTTP/1.1 200 OK"
    assert lines[1].startswith("Server: BaseHTTP/")
    assert re.fullmatch(r"Date: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT", lines[2])
    assert f"Content-Length: {len(body)}" in lines


def test_head_answers_without_a_body_and_the_connection_stays_usable(served):
    with served.connect() as sock:
        sock.sendall(served.head("HEAD", f"{V}/sobjects/Account/describe"))
        answer = read_answer(sock)
        assert answer.startswith(b"HTTP/1.1 200 OK\r\n") and answer.endswith(b"\r\n\r\n")
        assert b"Content-Length: 0\r\n" in answer
        sock.sendall(served.head("GET", f"{V}/limits"))
        assert read_answer(sock).startswith(b"HTTP/1.1 200 OK\r\n")


def test_expect_100_continue_is_answered_before_the_body_is_read(served):
    body = json.dumps({"Name": "after continue"}).encode()
    head = served.head(
        "POST",
        f"{V}/sobjects/Account/",
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nExpect: 100-continue\r\n",
    )
    with served.connect() as sock:
        sock.sendall(head)
        assert sock.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(body)
        status, created = status_and_json(read_answer(sock))
    assert status == 201 and created["success"] is True


def test_an_http_1_0_request_closes_unless_it_asks_to_keep_alive(served):
    auth = f"Authorization: Bearer {served.sid}\r\n"
    for extra, closes in (("", True), ("Connection: keep-alive\r\n", False)):
        with served.connect() as sock:
            sock.sendall(f"GET {V}/limits HTTP/1.0\r\n{auth}{extra}\r\n".encode())
            assert read_answer(sock).startswith(b"HTTP/1.1 200 OK")
            sock.settimeout(0.2 if not closes else 5)
            try:
                after = sock.recv(1)
            except TimeoutError:
                after = None  # still open: nothing more to read
            assert (after == b"") is closes


# ---------------------------------------------------------------------------- what RFC 9112 says to refuse
@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("NoColonHere", "Bad request header line ('NoColonHere')"),
        ("X-Spaced : value", "Bad request header line ('X-Spaced : value')"),
        ("Bad Name: value", "Bad request header line ('Bad Name: value')"),
        (": no name", "Bad request header line (': no name')"),
        ("X-Cr: a\rb", "Bad character in the request header X-Cr"),
        ("X-Nul: a\0b", "Bad character in the request header X-Nul"),
        (" folded continuation", "Obsolete line folding in the request headers (' folded continuation')"),
    ],
)
def test_a_malformed_header_line_is_400_json_and_nothing_is_written(served, line, message):
    request = _post_account(served, f"X-First: 1\r\n{line}\r\nAuthorization: Bearer {served.sid}\r\n")
    answer = served.exchange(request)
    status, body = status_and_json(answer)
    assert status == 400
    assert body == [{"message": message, "errorCode": "BAD_REQUEST"}]
    assert b"Connection: close\r\n" in answer
    assert served.accounts() == 0


def test_a_folded_authorization_is_refused_not_half_read(served):
    request = _post_account(served, f"Authorization: Bearer\r\n {served.sid}\r\n")
    status, body = status_and_json(served.exchange(request))
    assert status == 400 and body[0]["errorCode"] == "BAD_REQUEST"
    assert served.accounts() == 0


def test_a_header_line_over_65536_bytes_is_431(served):
    status, body = status_and_json(
        served.exchange(served.head("GET", f"{V}/limits", f"X-Long: {'z' * 70_000}\r\n"))
    )
    assert status == 431 and body == [
        {"message": "Line too long", "errorCode": "REQUEST_HEADER_FIELDS_TOO_LARGE"}
    ]


def test_a_hundred_header_lines_are_431(served):
    # served.head sends Host and Authorization: 97 more make 99 fields, the most http.client reads.
    fits = "".join(f"X-H{i}: {i}\r\n" for i in range(97))
    assert status_and_json(served.exchange(served.head("GET", f"{V}/limits", fits)))[0] == 200
    status, body = status_and_json(
        served.exchange(served.head("GET", f"{V}/limits", fits + "X-One-More: 1\r\n"))
    )
    assert status == 431 and body == [
        {"message": "Too many headers", "errorCode": "REQUEST_HEADER_FIELDS_TOO_LARGE"}
    ]


@pytest.mark.parametrize(
    ("line", "message", "code"),
    [
        (f"GET {V}/limits HTTP/2.0", "Invalid HTTP version (2.0)", "HTTP_VERSION_NOT_SUPPORTED"),
        (f"GET {V}/limits HTTP/1.x", "Bad request version ('HTTP/1.x')", "BAD_REQUEST"),
        (f"POST {V}/limits", "Bad HTTP/0.9 request type ('POST')", "BAD_REQUEST"),
    ],
)
def test_a_bad_request_line_is_refused_with_json_and_the_connection_closes(served, line, message, code):
    # As http.server does, a refusal before the request line's version is read is sent without a status line.
    answer = served.exchange(f"{line}\r\nHost: 127.0.0.1\r\n\r\n".encode())
    assert json.loads(answer[answer.index(b"[") :]) == [{"message": message, "errorCode": code}]
