"""``crmarena-sf serve`` grants no session it did not issue: refresh tokens and JWT bearer assertions are checked.

A real org refreshes only a refresh token it issued (Salesforce Help, "OAuth 2.0 Refresh Token
Flow", https://help.salesforce.com/s/articleView?id=sf.remoteaccess_oauth_refresh_token_flow.htm)
and takes a JWT only when it is signed with the private key of the certificate uploaded to the
connected app, names the app as ``iss``, the login host as ``aud``, a user as ``sub``, and is not
expired ("OAuth 2.0 JWT Bearer Flow for Server-to-Server Integration",
https://help.salesforce.com/s/articleView?id=sf.remoteaccess_oauth_jwt_flow.htm); each refusal is
``invalid_grant`` with its description (``invalid_client_id`` for a missing ``iss``).
In-process connections stay lenient (tests/test_rest_identity.py).
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import subprocess
import sys
import time

import pytest
import requests
from crmarena_sf.emulator.store.seed import ADMIN_USERNAME
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.x509.oid import NameOID
from serving import served

REFRESH_TOKEN = "5Aep-issued-by-this-serve"


def _key_and_certificate(folder, name):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=30))
        .sign(key, hashes.SHA256())
    )
    path = folder / f"{name}.pem"
    path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return key, path


@pytest.fixture(scope="module")
def app_key(tmp_path_factory):
    """The connected app's private key and the certificate serve is given."""
    return _key_and_certificate(tmp_path_factory.mktemp("app"), "connected-app")


@pytest.fixture(scope="module")
def server(app_key, tmp_path_factory):
    options = ["--org", "blank", "--refresh-token", REFRESH_TOKEN, "--jwt-cert", str(app_key[1])]
    with served(*options, cert_dir=tmp_path_factory.mktemp("tls")) as printed:
        yield printed


def _token(server, **form):
    return requests.post(
        f"{server['instance_url']}/services/oauth2/token", data=form, verify=server["certificate"], timeout=30
    )


def _works(server, access_token):
    response = requests.get(
        f"{server['instance_url']}/services/data/v62.0/limits",
        headers={"Authorization": f"Bearer {access_token}"},
        verify=server["certificate"],
        timeout=30,
    )
    return response.status_code == 200


def _jwt(key, **claims):
    def part(value: bytes) -> str:
        return base64.urlsafe_b64encode(value).rstrip(b"=").decode("ascii")

    header = part(json.dumps({"alg": "RS256"}).encode())
    body = part(json.dumps(claims).encode())
    signature = key.sign(f"{header}.{body}".encode(), padding.PKCS1v15(), hashes.SHA256())
    return f"{header}.{body}.{part(signature)}"


def _claims(**changes):
    claims = {
        "iss": "3MVG9-consumer-key",
        "aud": "https://login.salesforce.com",
        "sub": ADMIN_USERNAME,
        "exp": int(time.time()) + 180,
    }
    claims.update(changes)
    return {k: v for k, v in claims.items() if v is not None}


def test_serve_prints_its_refresh_token_in_an_sfdx_auth_url(server):
    assert server["refresh_token"] == REFRESH_TOKEN
    host = server["instance_url"].split("://", 1)[1]
    assert server["sfdx_auth_url"] == f"force://PlatformCLI::{REFRESH_TOKEN}@{host}"


def test_only_the_refresh_token_serve_issued_refreshes(server):
    refused = _token(
        server, grant_type="refresh_token", client_id="PlatformCLI", refresh_token="5Aep-made-up"
    )
    assert refused.status_code == 400
    assert refused.json() == {"error": "invalid_grant", "error_description": "expired access/refresh token"}
    granted = _token(server, grant_type="refresh_token", client_id="PlatformCLI", refresh_token=REFRESH_TOKEN)
    assert granted.status_code == 200 and _works(server, granted.json()["access_token"])


def test_a_jwt_signed_for_the_connected_app_logs_in(server, app_key):
    answer = _token(
        server,
        grant_type="urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion=_jwt(app_key[0], **_claims()),
    )
    assert answer.status_code == 200 and _works(server, answer.json()["access_token"])
    assert answer.json()["id"].endswith("/005Em0000000001IAA")  # the admin user named in sub


@pytest.mark.parametrize(
    ("changes", "error", "description"),
    [
        ({"aud": "https://example.com"}, "invalid_grant", "audience is invalid"),
        ({"exp": int(time.time()) - 60}, "invalid_grant", "expired authorization code"),
        ({"exp": None}, "invalid_grant", "expired authorization code"),
        ({"iss": None}, "invalid_client_id", "client identifier invalid"),
        ({"sub": "nobody@example.com"}, "invalid_grant", "user hasn't approved this consumer"),
    ],
)
def test_a_jwt_that_breaks_a_rule_is_refused(server, app_key, changes, error, description):
    assertion = _jwt(app_key[0], **_claims(**changes))
    answer = _token(server, grant_type="urn:ietf:params:oauth:grant-type:jwt-bearer", assertion=assertion)
    assert answer.status_code == 400
    assert answer.json() == {"error": error, "error_description": description}


def test_a_jwt_signed_with_another_key_is_an_invalid_assertion(server, tmp_path):
    other, _ = _key_and_certificate(tmp_path, "someone-else")
    answer = _token(
        server, grant_type="urn:ietf:params:oauth:grant-type:jwt-bearer", assertion=_jwt(other, **_claims())
    )
    assert answer.status_code == 400
    assert answer.json() == {"error": "invalid_grant", "error_description": "invalid assertion"}


def test_a_bad_jwt_certificate_file_is_one_line(tmp_path):
    bad = tmp_path / "not-a-certificate.pem"
    bad.write_text("hello\n")
    done = subprocess.run(
        [sys.executable, "-m", "crmarena_sf.cli.main", "serve", "--org", "blank", "--jwt-cert", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == f"crmarena-sf: {bad} is not a PEM X.509 certificate"
