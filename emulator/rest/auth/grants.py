"""Which OAuth grants the token endpoint honours: refresh tokens it issued, JWTs signed for a connected app.

A real org issues a refresh token only through flows with a user's consent (web server,
user-agent, device flows), never through the username-password, client-credentials or JWT
bearer flows, and refreshes only a token it issued and has not revoked (Salesforce Help,
"OAuth 2.0 Refresh Token Flow"). A JWT bearer assertion must be signed with the private key
of the certificate uploaded to the connected app, name that app's consumer key as ``iss``, the
login host as ``aud``, a user as ``sub``, and not be expired (Salesforce Help, "OAuth 2.0 JWT
Bearer Flow for Server-to-Server Integration"); each failure is ``invalid_grant`` (or
``invalid_client_id``) with its description.

:class:`GrantPolicy` holds that state for one router. ``crmarena-sf serve`` makes it strict: it
issues one refresh token at start (printed, with the sfdx auth URL that carries it), checks
JWTs against the certificates given with ``--jwt-cert``, and takes password logins (SOAP
``login()``, the OAuth username-password flow) only with the password it printed, the security
token appended or not; anything else is ``INVALID_LOGIN`` / ``invalid_grant``. In-process connections and the
``responses`` mock keep the lenient policy, which takes any refresh token and any
well-formed JWT: they are test doubles inside the caller's own process.
"""

from __future__ import annotations

import base64
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.transport.json_body import parse_json_body

AUDIENCES = ("https://login.salesforce.com", "https://test.salesforce.com")
"""The login hosts a JWT's ``aud`` may name (Salesforce Help, JWT bearer flow); the instance itself too."""


class GrantRefused(ValueError):
    """A grant the token endpoint refuses: ``error`` and ``error_description`` as Salesforce words them."""

    def __init__(self, error: str, description: str) -> None:
        super().__init__(description)
        self.error = error
        self.description = description


@dataclass
class GrantPolicy:
    strict: bool = False
    """False: any refresh token, any well-formed JWT and any password log in (in-process connections, the mock)."""
    jwt_keys: list[Any] = field(default_factory=list)
    """Public keys of the connected app's certificates (``--jwt-cert``)."""
    password: str = ""
    """The password a strict policy's SOAP and OAuth password logins must send (serve prints it)."""
    security_token: str = ""
    """The security token a client may append to the password, as Salesforce clients do."""
    _refresh_tokens: dict[str, str | None] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def for_server(
        cls,
        certificates: list[Path] | None = None,
        password: str | None = None,
        security_token: str | None = None,
    ) -> GrantPolicy:
        """The strict policy of a served org, trusting JWTs signed for these PEM certificates and password
        logins that send ``password`` (random when None), with or without ``security_token`` appended."""
        return cls(
            strict=True,
            jwt_keys=[load_certificate_key(path) for path in certificates or []],
            password=password if password is not None else secrets.token_urlsafe(12),
            security_token=security_token if security_token is not None else secrets.token_hex(12),
        )

    def password_accepted(self, sent: str) -> bool:
        """True when a password login may go on: any password unless strict; else the password, alone or
        followed by the security token ("password and security token" concatenated, as the SOAP API's
        ``login()`` and the OAuth username-password flow take them; Salesforce Help, "Reset Your Security
        Token")."""
        if not self.strict:
            return True
        given = sent.encode("utf-8")
        return secrets.compare_digest(given, self.password.encode("utf-8")) or (
            bool(self.security_token)
            and secrets.compare_digest(given, (self.password + self.security_token).encode("utf-8"))
        )

    def issue_refresh_token(self, user_id: str | None = None, token: str | None = None) -> str:
        """Register (or make) a refresh token for ``user_id`` (None: the admin user) and return it."""
        token = token or f"5Aep{secrets.token_urlsafe(60)}"
        with self._lock:
            self._refresh_tokens[token] = user_id
        return token

    def revoke(self, token: str) -> bool:
        """Forget a refresh token; True when it was issued here."""
        with self._lock:
            return self._refresh_tokens.pop(token, False) is not False

    def refresh(self, token: str) -> str | None:
        """The user a refresh token logs in (None: the admin user); GrantRefused when it was not issued here."""
        if not token:
            raise GrantRefused("invalid_grant", "expired access/refresh token")
        if not self.strict:
            return None
        with self._lock:
            if token not in self._refresh_tokens:
                raise GrantRefused("invalid_grant", "expired access/refresh token")
            return self._refresh_tokens[token]

    def jwt_subject(self, assertion: str, instance_url: str) -> str:
        """The username a JWT bearer assertion logs in; GrantRefused when the assertion does not hold."""
        parts = assertion.split(".")
        if len(parts) != 3:
            raise GrantRefused("invalid_grant", "invalid assertion")
        header, claims = _json_part(parts[0]), _json_part(parts[1])
        if not isinstance(claims, dict) or not isinstance(header, dict):
            raise GrantRefused("invalid_grant", "invalid assertion")
        subject = claims.get("sub", "")
        if not isinstance(subject, str):
            raise GrantRefused("invalid_grant", "invalid assertion")
        if not self.strict:
            return subject
        if header.get("alg") != "RS256" or not self._signed(parts):
            raise GrantRefused("invalid_grant", "invalid assertion")
        if not isinstance(claims.get("iss"), str) or not claims["iss"]:
            raise GrantRefused("invalid_client_id", "client identifier invalid")
        if claims.get("aud") not in (*AUDIENCES, instance_url.rstrip("/")):
            raise GrantRefused("invalid_grant", "audience is invalid")
        expires = claims.get("exp")
        if not isinstance(expires, int | float) or isinstance(expires, bool) or expires <= time.time():
            raise GrantRefused("invalid_grant", "expired authorization code")
        if not subject:
            raise GrantRefused("invalid_grant", "user hasn't approved this consumer")
        return subject

    def _signed(self, parts: list[str]) -> bool:
        """True when one of the connected app's certificates verifies the RS256 signature."""
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import padding

        try:
            signature = _b64(parts[2])
        except ValueError:
            return False
        signed = f"{parts[0]}.{parts[1]}".encode("ascii", "replace")
        for key in self.jwt_keys:
            try:
                key.verify(signature, signed, padding.PKCS1v15(), hashes.SHA256())
                return True
            except (InvalidSignature, ValueError, TypeError):
                continue
        return False


def load_certificate_key(path: Path) -> Any:
    """The public key of a PEM X.509 certificate (what a connected app is given); ValueError when unreadable."""
    from cryptography import x509

    try:
        return x509.load_pem_x509_certificate(Path(path).read_bytes()).public_key()
    except OSError as exc:
        raise ValueError(f"cannot read the certificate {path}: {exc.strerror or exc}") from None
    except ValueError:
        raise ValueError(f"{path} is not a PEM X.509 certificate") from None


def _b64(text: str) -> bytes:
    return base64.urlsafe_b64decode((text + "=" * (-len(text) % 4)).encode("ascii"))


def _json_part(text: str) -> Any:
    """A JWT part's JSON value, or None when it is not base64url-encoded JSON."""
    try:
        return parse_json_body(_b64(text))
    except (ValueError, UnicodeError, SalesforceError):  # binascii.Error is a ValueError
        return None
