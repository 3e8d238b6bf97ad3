"""The self-signed certificate ``crmarena-sf serve`` speaks HTTPS with.

simple-salesforce builds every URL with ``https://``, so a local server must speak TLS.
The certificate is created on first start (RSA 2048, ten years, for ``localhost``,
``127.0.0.1``, ``::1`` and the host served) and reused afterwards, in ``tls/`` under the
cache root (``CRMARENA_SF_CACHE``) unless told otherwise; clients trust it with ``verify=``
pointing at the PEM file.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import ssl
from pathlib import Path

from crmarena_sf.emulator.cache_dir import cache_root

_LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")


class CertificateDirectoryError(Exception):
    """The certificate directory cannot be created or written; the message says which and why."""


def default_directory() -> Path:
    """Where certificates live unless told otherwise: ``tls/`` under the cache root (``CRMARENA_SF_CACHE``)."""
    return cache_root() / "tls"


def certificate_paths(host: str, directory: Path | None = None) -> tuple[Path, Path]:
    """(certificate PEM, private key PEM) for ``host``, created if missing."""
    directory = Path(directory or default_directory())
    stem = "localhost" if host in _LOCAL_NAMES or host in ("", "0.0.0.0", "::") else _safe(host)
    cert_path, key_path = directory / f"{stem}.pem", directory / f"{stem}.key"
    if not (cert_path.is_file() and key_path.is_file()):
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CertificateDirectoryError(
                f"cannot create the certificate directory {directory}: {exc.strerror or exc}"
            ) from None
        try:
            _create(cert_path, key_path, host)
        except OSError as exc:
            raise CertificateDirectoryError(
                f"cannot write the certificate to {directory}: {exc.strerror or exc}"
            ) from None
    return cert_path, key_path


def server_context(cert_path: Path, key_path: Path) -> ssl.SSLContext:
    """A server-side TLS context for the certificate."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(str(cert_path), str(key_path))
    return context


def _safe(host: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-." else "_" for ch in host)


def _create(cert_path: Path, key_path: Path, host: str) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    names = list(dict.fromkeys([*_LOCAL_NAMES, host]))
    alternative: list[x509.GeneralName] = []
    for name in names:
        if not name or name in ("0.0.0.0", "::"):
            continue
        try:
            alternative.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alternative.append(x509.DNSName(name))
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "crmarena-sf emulator")])
    now = dt.datetime.now(dt.UTC)
    public = key.public_key()
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=3650))
        .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=True,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_bytes = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    )
    # Write to temporary names then rename, so two servers starting at once never read half a file.
    tmp_key = key_path.with_suffix(f".key.{os.getpid()}")
    tmp_cert = cert_path.with_suffix(f".pem.{os.getpid()}")
    tmp_key.write_bytes(key_bytes)
    os.chmod(tmp_key, 0o600)
    tmp_cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    os.replace(tmp_key, key_path)
    os.replace(tmp_cert, cert_path)
