"""``crmarena-sf serve`` from a user's seat: the line it prints connects, whatever the machine's TLS settings.

requests lets ``REQUESTS_CA_BUNDLE`` / ``CURL_CA_BUNDLE`` replace a session's own ``verify``
(psf/requests#3829, #4726), so the recipe ``session.verify = "<certificate>"`` fails on machines
that set them; ``connect(backend="salesforce", verify=...)`` holds. Bad ports and certificate
directories end in one line and exit 2, and the certificate follows ``CRMARENA_SF_CACHE``.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import certifi
import pytest
import requests
from crmarena_sf.emulator.rest.transport import tls
from simple_salesforce import Salesforce

import crmarena_sf


def _serve(*args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, dict[str, str]]:
    """Start ``crmarena-sf serve --org blank --port 0`` and read what it prints before serving."""
    process = subprocess.Popen(
        [sys.executable, "-m", "crmarena_sf.cli.main", "serve", "--org", "blank", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    printed: dict[str, str] = {}

    def read() -> None:
        for _ in range(5):
            key, _, value = process.stdout.readline().rstrip("\n").partition(": ")
            printed[key] = value

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=60)  # a server that prints fewer lines must fail the test, not hang it
    return process, dict(printed)


def _stop(process: subprocess.Popen) -> str:
    process.send_signal(signal.SIGINT)
    try:
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
    return process.stderr.read()


@pytest.fixture
def other_ca_bundle(monkeypatch):
    """A company machine: both variables name a CA bundle that does not hold the server's certificate."""
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", certifi.where())
    monkeypatch.setenv("CURL_CA_BUNDLE", certifi.where())
    return certifi.where()


def test_the_printed_python_line_connects_where_requests_ca_bundle_is_set(tmp_path, other_ca_bundle):
    process, printed = _serve("--cert-dir", str(tmp_path))
    try:
        line = printed["python"]
        assert line.startswith("sf = crmarena_sf.connect(backend='salesforce', ")
        assert f"verify={printed['certificate']!r}" in line
        scope = {"crmarena_sf": crmarena_sf}
        exec(line, scope)  # exactly what a user pastes
        sf = scope["sf"]
        assert isinstance(sf, Salesforce)
        created = sf.Account.create({"Name": "Through the printed line"})
        found = sf.query(f"SELECT Name FROM Account WHERE Id = '{created['id']}'")
        assert found["records"][0]["Name"] == "Through the printed line"

        # The recipe it replaces fails on this machine: the environment's bundle wins over session.verify.
        session = requests.Session()
        session.verify = printed["certificate"]
        old = Salesforce(
            instance_url=printed["instance_url"], session_id=printed["session_id"], session=session
        )
        with pytest.raises(requests.exceptions.SSLError, match="CERTIFICATE_VERIFY_FAILED"):
            old.query("SELECT Id FROM Account")
    finally:
        assert "Traceback" not in _stop(process)


def test_connect_verify_also_holds_against_curl_ca_bundle_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("CURL_CA_BUNDLE", certifi.where())
    monkeypatch.delenv("REQUESTS_CA_BUNDLE", raising=False)
    process, printed = _serve("--cert-dir", str(tmp_path), "--session-id", "sid-1")
    try:
        sf = crmarena_sf.connect(
            backend="salesforce",
            instance_url=printed["instance_url"],
            session_id="sid-1",
            verify=Path(printed["certificate"]),
            env_file=None,
        )
        assert sf.query("SELECT COUNT() FROM Account")["totalSize"] == 0
        with pytest.raises(TypeError, match="session= or verify="):
            crmarena_sf.connect(backend="salesforce", verify=True, session=requests.Session())
    finally:
        _stop(process)


@pytest.mark.skipif(shutil.which("curl") is None, reason="no curl on this machine")
def test_the_printed_curl_line_works(tmp_path, other_ca_bundle):
    process, printed = _serve("--cert-dir", str(tmp_path))
    try:
        answer = subprocess.run(shlex.split(printed["curl"]), capture_output=True, text=True, timeout=30)
        assert answer.returncode == 0, answer.stderr
        assert '"DailyApiRequests"' in answer.stdout
    finally:
        _stop(process)


def test_the_certificate_follows_crmarena_sf_cache(tmp_path):
    cache, home = tmp_path / "cache", tmp_path / "home"
    home.mkdir()
    process, printed = _serve(env={"CRMARENA_SF_CACHE": str(cache), "HOME": str(home), "XDG_CACHE_HOME": ""})
    try:
        assert printed["certificate"] == str(cache / "tls" / "localhost.pem")
        assert (cache / "tls" / "localhost.key").is_file()
        assert list(home.iterdir()) == []
        response = requests.get(
            f"{printed['instance_url']}/services/data/v62.0/limits",
            headers={"Authorization": f"Bearer {printed['session_id']}"},
            verify=printed["certificate"],
        )
        assert response.status_code == 200
    finally:
        _stop(process)


def test_default_directory_reads_the_environment_when_called(monkeypatch, tmp_path):
    monkeypatch.setenv("CRMARENA_SF_CACHE", str(tmp_path / "here"))
    assert tls.default_directory() == tmp_path / "here" / "tls"


def _serve_once(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "crmarena_sf.cli.main", "serve", "--org", "blank", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("port", ["99999", "-5", "65536", "http"])
def test_a_bad_port_is_an_argparse_error(port):
    result = _serve_once("--port", port)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[0].startswith("usage: crmarena-sf serve ")
    assert result.stderr.splitlines()[-1].startswith("crmarena-sf serve: error: argument --port: ")
    assert all(line.startswith(" ") for line in result.stderr.splitlines()[1:-1])  # the usage, wrapped


def test_an_unusable_certificate_directory_says_so(tmp_path):
    result = _serve_once("--cert-dir", "/proc/nope")
    assert result.returncode == 2
    assert result.stderr == (
        "crmarena-sf: cannot create the certificate directory /proc/nope: No such file or directory\n"
    )
    a_file = tmp_path / "file"
    a_file.write_text("x", encoding="utf-8")
    result = _serve_once("--cert-dir", str(a_file / "tls"))
    assert result.returncode == 2
    assert (
        result.stderr
        == f"crmarena-sf: cannot create the certificate directory {a_file / 'tls'}: Not a directory\n"
    )


def test_an_unwritable_certificate_directory_says_so(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "write_bytes", refuse)
    with pytest.raises(tls.CertificateDirectoryError) as info:
        tls.certificate_paths("127.0.0.1", tmp_path)
    assert str(info.value) == f"cannot write the certificate to {tmp_path}: Permission denied"
