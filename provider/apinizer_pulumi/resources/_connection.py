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

import functools
import hashlib
import math
import os
import threading
import time
from collections.abc import Mapping, Sequence
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
#: The stack config key (``apinizer:skipConnectionCheck``) that turns the preview's connection check off.
SKIP_CONFIG = "skipConnectionCheck"
#: Seconds each request waits (``connection.timeout``, ``apinizer:timeout``, ``APINIZER_TIMEOUT``); how
#: to talk to the gateway, not what to configure on it, so a change of it alone is no diff either.
TIMEOUT = "timeout"
TIMEOUT_ENV = "APINIZER_TIMEOUT"


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
    timeout: pulumi.Input[float] | None = None
    """Seconds each request waits for its answer (default 10; a spec upload waits at least 60 s plus
    20 s per MiB of spec, or this when longer)."""


@dataclass(frozen=True)
class Settings:
    """Resolved connection settings. Credentials never show in its repr."""

    url: str
    token: str | None = field(default=None, repr=False)
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    #: None: the client's default.
    timeout: float | None = None

    @functools.cached_property
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
    if not isinstance(value, dict):
        return value  # only a dict can be a secret: spares every Delete looking up the SDK's rpc
    from pulumi.runtime import rpc

    while rpc.is_rpc_secret(value):
        value = rpc.unwrap_rpc_secret(value)
    return value


def unwrap_secrets(props: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """``props`` with the secret inputs ``names`` unwrapped: secrets arrive as signature-tagged dicts."""
    return {key: unwrap_secret(value) if key in names else value for key, value in props.items()}


def wrap_secrets(inputs: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """``inputs`` with the secret inputs ``names`` marked secret again, for the inputs the state keeps."""
    from pulumi.runtime import rpc

    return {key: rpc.wrap_rpc_secret(value) if key in names and value is not None else value
            for key, value in inputs.items()}


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
    timeout = _timeout(connection, stack_config, env)
    if "token" in creds:
        return Settings(url=url, token=creds["token"], timeout=timeout)
    return Settings(url=url, username=creds["username"], password=creds["password"], timeout=timeout)


#: What :func:`resolved` read, by everything it reads: a few entries per provider process.
_RESOLVED: dict[tuple[Any, ...], Settings] = {}
_MAX_RESOLVED = 256
#: The environment variables :func:`resolve` reads.
_ENV_READ = (*ENV_VARS.values(), TIMEOUT_ENV)
#: Their names as ``os.environ`` keeps them (``os.environ._data``, its encoded keys): None where it
#: keeps them otherwise.
_ENV_KEYS: tuple[Any, ...] | None = None
if type(getattr(os.environ, "_data", None)) is dict and callable(getattr(os.environ, "encodekey", None)):
    _ENV_KEYS = tuple(os.environ.encodekey(name) for name in _ENV_READ)


def _environment() -> tuple[Any, ...]:
    """What :func:`resolve` would read of the environment, as a key of :data:`_RESOLVED`.

    ``os.environ.get`` encodes each name and raises and catches a ``KeyError`` for each one unset: 5
    of them were three quarters of resolving a Delete's kept settings. ``os.environ``'s own dict of
    encoded names and values holds the same, and changes with it (``os.environ[...] = ...``, ``del``,
    a test's ``monkeypatch.setenv``)."""
    data = getattr(os.environ, "_data", None)
    if _ENV_KEYS is not None and type(data) is dict:
        return tuple(map(data.get, _ENV_KEYS))
    return tuple(os.environ.get(name) for name in _ENV_READ)


def resolved(connection: Mapping[str, Any] | None, stack_config: Mapping[str, Any] | None) -> Settings:
    """:func:`resolve` with the process's environment, kept per connection input, stack config and
    environment: every Create and Delete of a stack resolves the same few, and resolving one anew
    is a tenth of the provider's CPU per delete. A value that cannot be a key is resolved anew."""
    environ = _environment()
    try:
        key = (_items(connection), _items(stack_config), environ)
        settings = _RESOLVED.get(key)
    except TypeError:  # a value that is not hashable (a list): nothing to keep it by
        return resolve(connection, stack_config)
    if settings is None:
        settings = resolve(connection, stack_config)
        if len(_RESOLVED) >= _MAX_RESOLVED:
            _RESOLVED.clear()
        _RESOLVED[key] = settings
    return settings


def _items(source: Mapping[str, Any] | None) -> tuple[tuple[str, type, Any], ...]:
    # Each value with its type: 1, 1.0 and True are equal keys, but not equal settings.
    return tuple((name, type(value), value) for name, value in (source or {}).items())


def _timeout(connection: Mapping[str, Any] | None, stack_config: Mapping[str, Any] | None,
             env: Mapping[str, str]) -> float | None:
    """The first timeout set, in seconds, or None; one that is not a positive number names its setting."""
    from apinizer_pulumi.client._client import positive_seconds

    sources = ((connection, f"connection.{TIMEOUT}"), (stack_config, f"{CONFIG_NAMESPACE}:{TIMEOUT}"),
               ({TIMEOUT: env.get(TIMEOUT_ENV)}, TIMEOUT_ENV))
    for source, name in sources:
        value = unwrap_secret((source or {}).get(TIMEOUT))
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        seconds = positive_seconds(value)
        if seconds is None:
            raise ApinizerResourceError(
                f"apinizer: {name} must be a positive number of seconds, got {value!r}")
        return seconds
    return None


def gateway_url(connection: Mapping[str, Any] | None, stack_config: Mapping[str, Any] | None) -> str:
    """The URL these settings resolve to, without a trailing slash ("" when none is set)."""
    sources = (connection, stack_config, {"url": os.environ.get(ENV_VARS["url"])})
    url = next((found["url"] for found in map(_clean, sources) if "url" in found), "")
    return url.rstrip("/")


def program_stack_config() -> dict[str, Any]:
    """The ``apinizer:*`` stack config as seen from a Pulumi program (empty outside one)."""
    config = pulumi.Config(CONFIG_NAMESPACE)
    values: dict[str, Any] = {}
    for name in (*FIELDS, TIMEOUT):
        value = config.get(name)
        if value is not None:
            values[name] = value
    return values


def provider_stack_config(config: Any) -> dict[str, Any]:
    """The ``apinizer:*`` keys of a dynamic provider's ``ConfigureRequest.config``."""
    values: dict[str, Any] = {}
    for name in (*FIELDS, SKIP_CONFIG, TIMEOUT):
        value = config.get(f"{CONFIG_NAMESPACE}:{name}")
        if value is not None:
            values[name] = value
    return values


_CLIENTS: dict[tuple[str, str, float | None], ApinizerClient] = {}
_CLIENTS_LOCK = threading.Lock()


def client_for(settings: Settings) -> ApinizerClient:
    """The process's shared client for these settings, built on first use."""
    key = (*settings.cache_key, settings.timeout)
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
                timeout=settings.timeout,
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


# -- the connection check at preview -------------------------------------------------------------
#
# ``check`` (which every preview and up runs for every resource) proves the connection once per
# provider process and resolved connection: first offline (a URL, with an http or https scheme,
# and credentials), then with one request, sent again after a transient failure (a dropped
# connection, a 5xx, a 429). A definite outcome, good or bad, is kept for the process, so N
# resources on one gateway cost one request, and resources checked while it is on its way wait for
# it instead of sending their own; one that only transient failures gave is kept for
# RECHECK_AFTER seconds, so that one lost request does not fail every check of the process and a
# gateway that is down does not cost each resource its own retries.

#: The environment variable that turns the check off (any of 1, true, yes, on).
SKIP_ENV = "APINIZER_SKIP_CONNECTION_CHECK"
_TRUE = ("1", "true", "yes", "on")
SKIP_HINT = (f"to preview without reaching the gateway, set {SKIP_ENV}=1 or "
             f"`pulumi config set {CONFIG_NAMESPACE}:{SKIP_CONFIG} true`")


def connection_check_skipped(stack_config: Mapping[str, Any] | None, *,
                             environ: Mapping[str, str] | None = None) -> bool:
    """Whether the stack config or the environment turns the connection check off."""
    env = os.environ if environ is None else environ
    configured = unwrap_secret((stack_config or {}).get(SKIP_CONFIG))
    values = (configured, env.get(SKIP_ENV))
    return any(str(value).strip().lower() in _TRUE for value in values if value is not None)


def setting_names(
    connection: Mapping[str, Any] | None,
    stack_config: Mapping[str, Any] | None,
    *,
    environ: Mapping[str, str] | None = None,
) -> tuple[str, str]:
    """Where the URL and the credentials come from, named as a user sets them (``apinizer:url`` ...)."""
    env = os.environ if environ is None else environ
    sources = [
        (_clean(connection), "connection.{}"),
        (_clean(stack_config), CONFIG_NAMESPACE + ":{}"),
        (_clean({name: env.get(var) for name, var in ENV_VARS.items()}), "APINIZER_{}"),
    ]

    def spelt(template: str, name: str) -> str:
        return template.format(name.upper() if template.startswith("APINIZER_") else name)

    url = next((spelt(template, "url") for found, template in sources if "url" in found), "the URL")
    creds = next(((found, template) for found, template in sources
                  if {"token", "username", "password"} & found.keys()), None)
    if creds is None:
        return url, "the credentials"
    found, template = creds
    if "token" in found:
        return url, spelt(template, "token")
    return url, f"{spelt(template, 'username')}/{spelt(template, 'password')}"


@functools.lru_cache(maxsize=64)
def url_problem(url: str) -> str | None:
    """Why ``url`` cannot be a gateway's root URL, or None.

    Kept per URL: every resource's check asks it of the same few URLs, and parsing one is a
    tenth of a millisecond (a second at 5,000 resources, on the provider's one interpreter lock).
    """
    import httpx

    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as error:
        return f"is not a URL ({error})"
    if parsed.scheme not in ("http", "https") or not parsed.host:
        return "is not an http:// or https:// URL with a host (e.g. https://gateway.example.com)"
    return None


#: Sends of the check's request when every answer so far was transient.
PROOF_ATTEMPTS = 4
#: Seconds an outcome that only transient failures gave is kept before a check tries again.
RECHECK_AFTER = float(os.environ.get("APINIZER_CONNECTION_RECHECK_AFTER", "10"))

#: Each connection's reason (None: accepted) and until when it is kept (``math.inf``: definite).
_PROVEN: dict[tuple[str, str], tuple[str | None, float]] = {}
_PROVING: dict[tuple[str, str], threading.Lock] = {}
_PROVING_LOCK = threading.Lock()


def prove_connection(settings: Settings, names: tuple[str, str], probe: tuple[str, str] | None) -> str | None:
    """The reason why the gateway refuses these settings or cannot be reached; None when it accepts them.

    At most one request per process and connection, whose outcome later calls reuse:

    * username and password: the token request, made through the shared client's own login, so
      the token it gets is the one the deployment's operations then use (no request added);
    * a personal token: ``GET`` of the endpoint list of ``probe`` = (project, API proxy), a proxy
      the resources name. It needs the role the resources need (ROLE_MANAGE_PROXIES), and the
      deployment lists that proxy anyway; the cheaper documented candidates prove nothing (the
      health check takes no token, the organization report answers 401 to valid users who are
      not administrators or analyzers). A missing proxy answers 404 after the token was accepted.
      With no proxy named (an ``Rlcl`` alone), no request is made and the token is not proven.

    A 401 is a refusal; any other definite answer (2xx, a 403 for a missing role, a 404) shows
    the credentials were accepted. No answer (a refused or dropped connection), a 5xx or a 429 is
    transient: the request is sent again after the pauses of the look-ups after a create, up to
    :data:`PROOF_ATTEMPTS` sends; when all were transient, no answer means the gateway cannot be
    reached, and a 5xx or 429 passes the check unproven; either is kept :data:`RECHECK_AFTER`
    seconds only.
    """
    already = kept_proof(settings)
    if already is not None:
        return already[0]
    key = settings.cache_key
    if settings.token is not None and probe is None:
        return None
    with _PROVING_LOCK:
        lock = _PROVING.setdefault(key, threading.Lock())
    with lock:
        kept = _PROVEN.get(key)
        if kept is None or kept[1] <= time.monotonic():
            reason, definite = _send_proof(settings, names, probe)
            kept = _PROVEN[key] = (reason, math.inf if definite else time.monotonic() + RECHECK_AFTER)
        return kept[0]


def kept_proof(settings: Settings) -> tuple[str | None] | None:
    """``(reason,)`` of the proof of these settings that is still kept (None in it: accepted), or None
    when no proof is kept: the next :func:`prove_connection` sends one."""
    kept = _PROVEN.get(settings.cache_key)
    if kept is not None and kept[1] > time.monotonic():
        return (kept[0],)
    return None


def _send_proof(settings: Settings, names: tuple[str, str],
                probe: tuple[str, str] | None) -> tuple[str | None, bool]:
    """(the reason of a refusal or None, whether that outcome is definite)."""
    from apinizer_pulumi.client import APIConnectionError, ApinizerError, Endpoints

    from ._create import BACKOFF

    url_name, credentials_name = names
    client = client_for(settings)
    reason: str | None = None
    for attempt in range(PROOF_ATTEMPTS):
        if attempt:
            time.sleep(BACKOFF.delay(attempt - 1))
        # Each send is one request without the client's retries (they would hide how many were
        # sent), through the client's own pooled connection and, for a login, its own token cache.
        try:
            status = client.probe_credentials(Endpoints._path(*probe) if probe is not None else None)
        except APIConnectionError as error:
            reason = f"cannot reach the gateway at {settings.url} ({url_name}): {error.detail}; {SKIP_HINT}"
            continue
        except ApinizerError as error:  # a 2xx token answer that holds no token
            return (f"the gateway at {settings.url} ({url_name}) answered the login with no token: "
                    f"{error}"), True
        if status is not None and (status >= 500 or status == 429):
            reason = None  # the gateway is there, and said nothing about the credentials
            continue
        if status == 401:
            what = "token request" if settings.token is None else "token"
            return (f"the gateway at {settings.url} refused {credentials_name} (401 on the {what}): "
                    "check the credentials, or which gateway the URL names"), True
        return None, True
    return reason, False


def forget_proven_connections() -> None:
    """Forget every check's outcome (tests; a long-lived process whose credentials were fixed)."""
    with _PROVING_LOCK:
        _PROVEN.clear()
        _PROVING.clear()
