"""Credentials at rest and the caller's identity.

Passwords are stored as PBKDF2-HMAC-SHA256 with a per-user random salt; token values as an
HMAC-SHA256 keyed by a per-database random key (a salted hash that can still be looked up by
index, so authenticating a token is one indexed query whatever the number of tokens).
Comparisons go through :func:`hmac.compare_digest`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from .errors import MissingRoleError, UnauthorizedApiAccessError

ROLE_ADMIN = "ROLE_ADMIN"
ROLE_MANAGE_PROXIES = "ROLE_MANAGE_PROXIES"
SYSTEM_ADMIN = "admin"
SYSTEM_ANALYZER = "analyzer"

_PBKDF2_ITERATIONS = 100_000
_SCHEME = "pbkdf2_sha256"
BEARER_PREFIX = "Bearer "


def hash_password(password: str, salt: bytes | None = None) -> str:
    """``pbkdf2_sha256$<iterations>$<salt hex>$<digest hex>``."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, _PBKDF2_ITERATIONS)
    return f"{_SCHEME}${_PBKDF2_ITERATIONS}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    try:
        scheme, iterations, salt_hex, digest_hex = stored.split("$")
        salt, expected, rounds = bytes.fromhex(salt_hex), bytes.fromhex(digest_hex), int(iterations)
    except ValueError:
        return False
    if scheme != _SCHEME:
        return False
    actual = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, rounds)
    return hmac.compare_digest(actual, expected)


#: Compared against when the user does not exist, so an unknown user costs the same time as a wrong password.
DUMMY_PASSWORD_HASH = hash_password(secrets.token_urlsafe(16))


def token_digest(key: bytes, value: str) -> str:
    # Not the one-shot hmac.digest: it releases the GIL, so on the event loop's path of every
    # request it hands the GIL to the writer thread and waits to get it back (ms, not us).
    return hmac.new(key, value.encode(), hashlib.sha256).hexdigest()


def new_token_value() -> str:
    return secrets.token_urlsafe(32)


def bearer_value(header: str | None) -> str | None:
    """The token of an ``Authorization`` header that is exactly ``Bearer <token>``, else None."""
    if header is None or not header.startswith(BEARER_PREFIX):
        return None
    value = header[len(BEARER_PREFIX) :]
    if not value or value != value.strip() or " " in value:
        return None
    return value


@dataclass(frozen=True)
class Principal:
    """The user a valid token belongs to."""

    username: str
    roles: frozenset[str]
    system_role: str | None

    def has_role(self, role: str) -> bool:
        return ROLE_ADMIN in self.roles or role in self.roles

    def require_role(self, role: str) -> None:
        if not self.has_role(role):
            raise MissingRoleError(role)

    def require_report_access(self) -> None:
        if self.system_role not in (SYSTEM_ADMIN, SYSTEM_ANALYZER):
            raise UnauthorizedApiAccessError()
