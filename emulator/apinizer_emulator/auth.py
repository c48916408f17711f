"""Credentials at rest and the caller's identity.

Passwords are stored as PBKDF2-HMAC-SHA256 with a per-user random salt; token values as an
HMAC-SHA256 keyed by a per-database random key (a salted hash that can still be looked up by
index, so authenticating a token is one indexed query whatever the number of tokens).
Comparisons go through :func:`hmac.compare_digest`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import os
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from .errors import MissingRoleError, UnauthorizedApiAccessError

ROLE_ADMIN = "ROLE_ADMIN"
ROLE_MANAGE_PROXIES = "ROLE_MANAGE_PROXIES"
SYSTEM_ADMIN = "admin"
SYSTEM_ANALYZER = "analyzer"

R = TypeVar("R")

_PBKDF2_ITERATIONS = 100_000
#: The scheme that starts every stored password hash.
PASSWORD_SCHEME = "pbkdf2_sha256"
_SCHEME = PASSWORD_SCHEME
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


class HashingPool:
    """The threads that check passwords: at most one per core, shared by the whole process.

    A password check is ~50 ms of CPU (on purpose) and releases the GIL, so in a general
    threadpool a flood of wrong passwords would run as many hashes at once as there are threads
    and take every core from the event loop that serves everyone else. Here the excess waits in
    the queue instead. The threads also run at a lower priority (``nice`` 10, where the OS
    allows it: Linux sets it per thread), so the scheduler hands a core to the event loop as
    soon as it has work, rather than sharing it evenly with the hashes. :attr:`peak` is the most
    checks that ever ran at once (see :meth:`reset_peak`): the bound, observable.
    """

    #: How much lower than the event loop's the hashing threads' priority is.
    NICENESS = 10

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor = ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="apinizer-hash", initializer=self._lower_priority
        )
        self._lock = threading.Lock()
        self._running = 0
        self.peak = 0

    @classmethod
    def _lower_priority(cls) -> None:
        # On Linux the "process" of setpriority may be a thread id: only this thread is lowered.
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), cls.NICENESS)

    def _counted(self, call: Callable[[], R]) -> R:
        with self._lock:
            self._running += 1
            self.peak = max(self.peak, self._running)
        try:
            return call()
        finally:
            with self._lock:
                self._running -= 1

    async def run(self, call: Callable[[], R]) -> R:
        """``call()`` on one of the pool's threads, awaited without blocking the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, self._counted, call)

    def reset_peak(self) -> None:
        with self._lock:
            self.peak = self._running


#: The process's one pool: two emulators in one process (tests) still hash on at most one thread per core.
PASSWORD_HASHING = HashingPool(os.cpu_count() or 1)


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
