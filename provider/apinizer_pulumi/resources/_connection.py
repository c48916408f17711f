"""Where the gateway's address and credentials come from, and the per-process client cache.

Resolution, highest first: the resource's (or function's) ``connection`` input, the stack
config ``apinizer:*``, the environment ``APINIZER_*``. The URL is taken from the first source
that sets it; the credentials as a unit (a token, or a username with its password) from the
first source that sets any credential, so a token in the stack config never mixes with a
username from the environment.

Clients live in a module-level cache keyed by URL and a fingerprint of the credentials: the
provider object that Pulumi pickles never holds a client, a lock or a credential, and every
resource of a stack that talks to the same gateway with the same account shares one client
(one connection pool, one token request).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pulumi

from ._errors import ApinizerResourceError

if TYPE_CHECKING:
    from apinizer_pulumi.client import ApinizerClient

CONFIG_NAMESPACE = "apinizer"
FIELDS = ("url", "token", "username", "password")
SECRET_FIELDS = ("token", "password")
ENV_VARS = {name: f"APINIZER_{name.upper()}" for name in FIELDS}


@dataclass(kw_only=True, frozen=True)
class ConnectionArgs:
    """How to reach the gateway: its root URL and either a personal token or a username and password.

    ``token`` and ``password`` are marked secret when the resource is registered, so Pulumi stores
    them encrypted and never shows them. Any field left out falls back to the stack config
    (``apinizer:url`` ...), then to the environment (``APINIZER_URL`` ...).
    """

    url: pulumi.Input[str] | None = None
    token: pulumi.Input[str] | None = field(default=None, repr=False)
    username: pulumi.Input[str] | None = None
    password: pulumi.Input[str] | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Settings:
    """Resolved connection settings. Credentials never show in its repr."""

    url: str
    token: str | None = field(default=None, repr=False)
    username: str | None = None
    password: str | None = field(default=None, repr=False)

    @property
    def cache_key(self) -> tuple[str, str]:
        """The URL and a one-way fingerprint of the credentials: equal settings share a client."""
        digest = hashlib.sha256()
        for part in (self.token, self.username, self.password):
            digest.update(b"\x00" if part is None else b"\x01" + part.encode())
        return (self.url.rstrip("/"), digest.hexdigest())


def _clean(source: Mapping[str, Any] | None) -> dict[str, str]:
    """Non-empty string values of the four fields, secret wrappers removed."""
    if not source:
        return {}
    out: dict[str, str] = {}
    for name in FIELDS:
        value = unwrap_secret(source.get(name))
        if isinstance(value, str) and value.strip():
            out[name] = value.strip() if name == "url" else value
    return out


def unwrap_secret(value: Any) -> Any:
    """The plain value of a deserialized secret, which arrives as a signature-tagged dict."""
    from pulumi.runtime import rpc

    while rpc.is_rpc_secret(value):
        value = rpc.unwrap_rpc_secret(value)
    return value


def resolve(
    connection: Mapping[str, Any] | None,
    stack_config: Mapping[str, Any] | None,
    *,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Merge the three sources into one :class:`Settings`, or fail naming all three."""
    env = os.environ if environ is None else environ
    sources = [
        _clean(connection),
        _clean(stack_config),
        _clean({name: env.get(var) for name, var in ENV_VARS.items()}),
    ]
    url = next((src["url"] for src in sources if "url" in src), None)
    if url is None:
        raise ApinizerResourceError(
            "apinizer: no gateway URL: set the resource's connection.url, the stack config "
            "'apinizer:url' (pulumi config set apinizer:url ...), or the environment variable APINIZER_URL"
        )
    creds = next((src for src in sources if {"token", "username", "password"} & src.keys()), None)
    if creds is None:
        raise ApinizerResourceError(
            "apinizer: no credentials: set connection.token (or connection.username and "
            "connection.password), the stack config 'apinizer:token' (or 'apinizer:username' and "
            "'apinizer:password', with --secret), or the environment variables APINIZER_TOKEN "
            "(or APINIZER_USERNAME and APINIZER_PASSWORD)"
        )
    if "token" not in creds and not ("username" in creds and "password" in creds):
        raise ApinizerResourceError(
            "apinizer: incomplete credentials: a username needs its password (connection, stack "
            "config 'apinizer:username'/'apinizer:password', or APINIZER_USERNAME/APINIZER_PASSWORD)"
        )
    if "token" in creds:
        return Settings(url=url, token=creds["token"])
    return Settings(url=url, username=creds["username"], password=creds["password"])


def program_stack_config() -> dict[str, Any]:
    """The ``apinizer:*`` stack config as seen from a Pulumi program (empty outside one)."""
    config = pulumi.Config(CONFIG_NAMESPACE)
    values: dict[str, Any] = {}
    for name in FIELDS:
        value = config.get(name)
        if value is not None:
            values[name] = value
    return values


def provider_stack_config(config: Any) -> dict[str, Any]:
    """The ``apinizer:*`` keys of a dynamic provider's ``ConfigureRequest.config``."""
    values: dict[str, Any] = {}
    for name in FIELDS:
        value = config.get(f"{CONFIG_NAMESPACE}:{name}")
        if value is not None:
            values[name] = value
    return values


_CLIENTS: dict[tuple[str, str], ApinizerClient] = {}
_CLIENTS_LOCK = threading.Lock()


def client_for(settings: Settings) -> ApinizerClient:
    """The process's shared client for these settings, built on first use."""
    key = settings.cache_key
    client = _CLIENTS.get(key)
    if client is not None:
        return client
    from ._reads import TrackedClient

    with _CLIENTS_LOCK:
        client = _CLIENTS.get(key)
        if client is None:
            client = TrackedClient(
                settings.url,
                token=settings.token,
                username=settings.username,
                password=settings.password,
                fingerprint=key[1],
            )
            _CLIENTS[key] = client
        return client


def close_clients() -> None:
    """Close and forget every cached client (tests, and long-lived processes that rotate keys)."""
    with _CLIENTS_LOCK:
        clients = list(_CLIENTS.values())
        _CLIENTS.clear()
    for client in clients:
        client.close()
