"""``ApinizerClient``: settings, the request pipeline every operation goes through, and the
operations that sit on the client itself (health check, token). The endpoint, RLCL and report
operations are grouped in :mod:`._resources`.

One request goes: build (path, JSON body, timeout) -> :func:`._retry.send_with_retries` (which
calls ``httpx.Client.send`` with this client's auth flow) -> a 2xx response, or an exception from
:func:`._exceptions.make_status_error`, or :class:`APIConnectionError` when no answer came.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import logging
import os
import random
import re
import time
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

import httpx

from .. import models
from ._api_proxies import ApiProxies, ApiProxyReports
from ._api_proxy_groups import ApiProxyGroups
from ._auth import BearerTokenAuth, ClientCredentialsAuth, is_token_request
from ._connections import Connections
from ._constants import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    ENV_PASSWORD,
    ENV_TIMEOUT,
    ENV_TOKEN,
    ENV_URL,
    ENV_USERNAME,
    HEALTH_PATH,
    HELLO_PATH,
    TOKEN_PATH,
)
from ._credentials import Credentials
from ._environment_variables import EnvironmentVariables
from ._exceptions import (
    APIConnectionError,
    ApinizerError,
    APITimeoutError,
    ConfigurationError,
    make_status_error,
    redact_secrets,
)
from ._geolocation import Geolocation
from ._ip_groups import IpGroups
from ._keys import Certificates, CryptoKeys, Jwks, Keystores
from ._parsing import expect_success, may_say_failure, parse_success
from ._policies import Policies
from ._projects import Environments, Projects
from ._resources import Endpoints, Rlcl, _segment
from ._retry import NEVER_SENT_ERRORS, _seconds, parse_retry_after, send_with_retries
from ._transport_pool import build_request, get_client, lean_cookies

if TYPE_CHECKING:
    import pydantic

__all__ = ["ApinizerClient"]

logger = logging.getLogger("apinizer_pulumi.client")

def _user_agent() -> str:
    try:
        version = importlib.metadata.version("apinizer-pulumi")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    return f"apinizer-pulumi/{version} httpx/{httpx.__version__}"


_USER_AGENT = _user_agent()
#: The headers of every request, and of one with a JSON body.
_JSON_HEADERS = (("Accept", "application/json"), ("User-Agent", _USER_AGENT))
_JSON_BODY_HEADERS = (*_JSON_HEADERS, ("Content-Type", "application/json"))
#: Parsed request URLs kept per client: a few per proxy, so this bound is never reached in a run.
_MAX_CACHED_URLS = 1024

_M = TypeVar("_M", bound="pydantic.BaseModel")


def _env(name: str) -> str | None:
    return os.environ.get(name) or None


def _forget_authorization(request: httpx.Request) -> None:
    """Drop the bearer token from a request that is done with, before an error keeps it."""
    request.headers.pop("Authorization", None)


def _header_safe_token(token: str | None, setting: str) -> str | None:
    """``token`` without surrounding whitespace (a token read from a file ends in a newline), or
    :class:`ConfigurationError` when what is left holds a character no header may carry.

    A bearer token is printable ASCII without spaces (RFC 6750's b64token is narrower still).
    Anything else (CR, LF, NUL, a control or non-ASCII character) is refused here, before any
    request: sent, it would be refused by h11 and quoted, token and all, in httpcore's DEBUG log.
    The message names the setting and the character, never the token.
    """
    if token is None:
        return None
    token = token.strip()
    problem = models.token_problem(token, setting)
    if problem is not None:
        raise ConfigurationError(problem)
    return token


def _resolve_credentials(
    token: str | None, username: str | None, password: str | None
) -> tuple[str | None, str | None, str | None]:
    """Arguments win as a group: the environment is read only when none of the three is given."""
    source = "arguments"
    token_setting = "token"
    if token is None and username is None and password is None:
        token, username, password = _env(ENV_TOKEN), _env(ENV_USERNAME), _env(ENV_PASSWORD)
        source = f"environment ({ENV_TOKEN}, {ENV_USERNAME}, {ENV_PASSWORD})"
        token_setting = ENV_TOKEN
    token = _header_safe_token(token, token_setting)
    token, username, password = token or None, username or None, password or None
    if token and (username or password):
        raise ConfigurationError(f"give either token or username and password, not both (from the {source})")
    if token:
        return token, None, None
    if username and password:
        return None, username, password
    if username:
        raise ConfigurationError(
            f"password is missing: username was given without password (or {ENV_PASSWORD})"
        )
    if password:
        raise ConfigurationError(
            f"username is missing: password was given without username (or {ENV_USERNAME})"
        )
    raise ConfigurationError(
        f"no credentials: pass token= (or set {ENV_TOKEN}), or username= and password= "
        f"(or set {ENV_USERNAME} and {ENV_PASSWORD})"
    )


def positive_seconds(value: object) -> float | None:
    """``value`` (a number, or its text as stack config and environment variables give it) as a finite
    positive number of seconds, or None when it is not one."""
    seconds = _seconds(value)
    return seconds if seconds is not None and seconds > 0 else None


def _resolve_timeout(timeout: float | None) -> float:
    """The argument, else ``APINIZER_TIMEOUT``, else :data:`DEFAULT_TIMEOUT`; a positive number of seconds."""
    setting: str = "timeout"
    value: object = timeout
    if timeout is None:
        value, setting = _env(ENV_TIMEOUT), ENV_TIMEOUT
        if value is None:
            return DEFAULT_TIMEOUT
    # The argument is a number; only the environment's text is read as one.
    seconds = None if isinstance(timeout, str) else positive_seconds(value)
    if seconds is None:
        raise ConfigurationError(f"{setting} must be a positive number of seconds, got {value!r}")
    return seconds


_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*://)?[^/?#]*@")


def _shown_url(base_url: str) -> str:
    """``base_url`` fit for a message: whatever stands before an ``@`` (a user and password) masked."""
    return _USERINFO.sub(lambda m: f"{m.group(1) or ''}***@", base_url)


def _resolve_base_url(base_url: str | None) -> str:
    base_url = base_url or _env(ENV_URL)
    if not base_url:
        raise ConfigurationError(
            f"base_url is missing: pass base_url= or set {ENV_URL} (e.g. http://127.0.0.1:18080)"
        )
    try:
        url = httpx.URL(base_url)
    except httpx.InvalidURL as exc:
        raise ConfigurationError(f"base_url is not a valid URL: {exc}") from None
    if url.scheme not in ("http", "https") or not url.host:
        raise ConfigurationError(
            f"base_url must be an http:// or https:// URL with a host, got {_shown_url(base_url)!r}"
        )
    if url.userinfo:
        raise ConfigurationError("base_url must not carry credentials; pass username= and password= instead")
    if url.query or url.fragment:
        raise ConfigurationError("base_url must not have a query or a fragment")
    return str(url).rstrip("/")


class ApinizerClient:
    """A typed, thread-safe client of the Apinizer management API.

    ``base_url`` is the gateway's root (``http://127.0.0.1:18080``; the API's ``/apiops/...``
    paths are appended). Authenticate with a personal ``token`` from the console, or with
    ``username`` and ``password``, exchanged for a token (``POST /apiops/auth/token``) that is
    refreshed before it expires. Missing arguments fall back to ``APINIZER_URL``, and, when no
    credential argument is given at all, to ``APINIZER_TOKEN`` or
    ``APINIZER_USERNAME``/``APINIZER_PASSWORD``.

    ``timeout`` bounds each attempt (seconds; else ``APINIZER_TIMEOUT``, else 10); a spec upload
    waits for its answer at least 60 s plus 20 s per MiB of spec, which ``timeout`` raises when it
    is longer. ``max_retries`` counts the extra attempts for transient failures. ``transport``
    replaces the network (``httpx.MockTransport`` in tests) and gives this client a private
    ``httpx.Client``; otherwise the process-wide one for the base URL is shared.
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        token: str | None = None,
        username: str | None = None,
        password: str | None = None,
        timeout: float | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = _resolve_base_url(base_url)
        token, username, password = _resolve_credentials(token, username, password)
        timeout = _resolve_timeout(timeout)
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise ConfigurationError(f"max_retries must be a non-negative integer, got {max_retries!r}")
        self.timeout = float(timeout)
        self.max_retries = max_retries
        self._auth: BearerTokenAuth | ClientCredentialsAuth
        self._password = password
        self._token = token
        if token is not None:
            self._auth = BearerTokenAuth(token)
        else:
            assert username is not None and password is not None
            self._auth = ClientCredentialsAuth(
                self.base_url + TOKEN_PATH, username, password, timeout=self.timeout
            )
        self._private_http: httpx.Client | None = None
        if transport is not None:
            self._private_http = lean_cookies(httpx.Client(
                base_url=self.base_url, transport=transport, follow_redirects=False
            ))
        self._closed = False
        self._urls: dict[str, httpx.URL] = {}
        #: Seams for tests: how to wait between attempts and where jitter comes from.
        self._sleep: Callable[[float], None] = time.sleep
        self._random: Callable[[], float] = random.random
        self.endpoints = Endpoints(self)
        self.rlcl = Rlcl(self)
        self.reports = ApiProxyReports(self)
        self.projects = Projects(self)
        self.environments = Environments(self)
        self.api_proxies = ApiProxies(self)
        self.ip_groups = IpGroups(self)
        self.environment_variables = EnvironmentVariables(self)
        self.credentials = Credentials(self)
        self.api_proxy_groups = ApiProxyGroups(self)
        self.policies = Policies(self)
        self.jwks = Jwks(self)
        self.keystores = Keystores(self)
        self.crypto_keys = CryptoKeys(self)
        self.certificates = Certificates(self)
        self.connections = Connections(self)
        self.geolocation = Geolocation(self)

    # -- lifecycle ---------------------------------------------------------------------------

    def __repr__(self) -> str:
        mode = "token" if self._token is not None else "client_credentials"
        return (
            f"ApinizerClient(base_url={self.base_url!r}, auth={mode!r}, "
            f"timeout={self.timeout}, max_retries={self.max_retries})"
        )

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop using this client. A private transport's ``httpx.Client`` is closed; the shared,
        pooled one is left open for the other clients of the process."""
        self._closed = True
        if self._private_http is not None:
            self._private_http.close()

    @property
    def is_closed(self) -> bool:
        return self._closed

    @property
    def _http(self) -> httpx.Client:
        # Looked up per request rather than kept: after `close_pooled_clients()` the next request
        # gets a fresh pooled client instead of failing on a closed one.
        return self._private_http if self._private_http is not None else get_client(self.base_url)

    # -- the pipeline ------------------------------------------------------------------------

    def _secrets(self) -> tuple[str, ...]:
        held = self._auth.secrets if isinstance(self._auth, ClientCredentialsAuth) else ()
        return tuple(s for s in (self._token, self._password, *held) if s)

    def _send(
        self,
        build: Callable[[], httpx.Request],
        method: str,
        path: str,
        *,
        idempotent: bool,
        auth: httpx.Auth | None,
    ) -> httpx.Response:
        if self._closed:
            raise ApinizerError("this ApinizerClient is closed")
        http = self._http
        failure: ApinizerError | None = None
        attempts = 0

        def attempt(request: httpx.Request) -> httpx.Response:
            nonlocal attempts
            attempts += 1
            return http.send(request, auth=auth)

        try:
            response = send_with_retries(
                build,
                attempt,
                idempotent=idempotent,
                max_retries=self.max_retries,
                sleep=self._sleep,
                random=self._random,
            )
        except httpx.TransportError as exc:
            failure = self._connection_error(exc, method, path, attempts)
        if failure is not None:
            # Raised outside the handler and without a cause: the one line names the URL, the
            # attempts and httpx's reason, and a chained httpx error would only add dozens of
            # httpcore frames (``error.__notes__`` and logging at DEBUG keep nothing secret either).
            raise failure from None
        token_request = is_token_request(response.request)
        if token_request:
            # The token request failed on the way; report it, not the operation behind it.
            method, path = "POST", TOKEN_PATH
        logger.debug("%s %s -> %d", method, path, response.status_code)
        if response.is_success:
            return response
        # The token request's body holds the password: its response (and request) stay off the
        # error; another request's bearer token is taken off the request the error keeps.
        _forget_authorization(response.request)
        raise make_status_error(
            response,
            method,
            path,
            retry_after=parse_retry_after(response),
            redact=self._secrets(),
            attach_response=not token_request,
        )

    def _connection_error(
        self, exc: httpx.TransportError, method: str, path: str, attempts: int
    ) -> APIConnectionError:
        """The one-line error for a request that got no answer after ``attempts`` tries.

        Its text names the full URL, the attempts and httpx's reason, with the client's secrets
        redacted (h11 quotes a header value it refused to send, the token request's body is the
        password), so the httpx error itself is not kept.
        """
        with contextlib.suppress(RuntimeError):  # an httpx error raised without a request
            if is_token_request(exc.request):
                method, path = "POST", TOKEN_PATH
            _forget_authorization(exc.request)
        cls = APITimeoutError if isinstance(exc, httpx.TimeoutException) else APIConnectionError
        detail = redact_secrets(str(exc), self._secrets())
        return cls(
            method,
            path,
            f"{type(exc).__name__}: {detail or 'no detail'}",
            url=self.base_url + path,
            attempts=max(attempts, 1),
            sent=not isinstance(exc, NEVER_SENT_ERRORS),
        )

    def _request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        idempotent: bool,
        authenticate: bool = True,
    ) -> httpx.Response:
        """Send ``method path`` with an optional JSON ``body``; a 2xx response or an exception."""
        headers: tuple[tuple[str, str], ...] = _JSON_HEADERS
        content: bytes | None = None
        if body is not None:
            content = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
            headers = _JSON_BODY_HEADERS

        url = self._url(path)

        def build() -> httpx.Request:
            return build_request(self._http, method, url, content=content, headers=headers,
                                 timeout=self.timeout)

        return self._send(
            build, method, path, idempotent=idempotent, auth=self._auth if authenticate else None
        )

    def _url(self, path: str) -> httpx.URL:
        """The absolute URL of ``path``, parsed once: httpx would parse and merge it per request."""
        url = self._urls.get(path)
        if url is None:
            if len(self._urls) >= _MAX_CACHED_URLS:
                self._urls.clear()
            url = self._urls[path] = httpx.URL(self.base_url + path)
        return url

    def _parse(self, model: type[_M], response: httpx.Response, method: str, path: str) -> _M:
        """A read's 2xx answer as ``model``; anything else raises :class:`APIResponseValidationError`."""
        return parse_success(model, response, method, path, redact=self._secrets())

    def _expect_success(self, response: httpx.Response, method: str, path: str) -> None:
        """Accept a write's ``{success: true}``; ``success: false`` under a 2xx status is an error."""
        if may_say_failure(response):  # the secrets to redact are gathered only for an error's text
            expect_success(response, method, path, redact=self._secrets())

    # -- operations on the client itself -----------------------------------------------------

    def health(self) -> bool:
        """``GET /apiops/test/healthcheck`` (no authentication): True when the gateway answers 2xx.

        An error status raises its :class:`APIStatusError`, no answer :class:`APIConnectionError`.
        """
        self._request("GET", HEALTH_PATH, idempotent=True, authenticate=False)
        return True

    def hello(self, name: str) -> str:
        """``GET /apiops/test/hello/{name}``: the gateway's greeting (``Hello <name>``, plain text)
        when the credentials are accepted; a check of authentication alone, which needs no role.

        ``name`` is sent as one path segment. A refused token raises :class:`AuthenticationError`.
        https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/16-test/secure-hello.md
        """
        path = HELLO_PATH.format(name=_segment(name, "name"))
        return self._request("GET", path, idempotent=True).text

    def probe_credentials(self, path: str | None = None) -> int | None:
        """Prove the credentials with at most one request, sent without retries; its status.

        With username and password: the token request, unless a token is held already (then
        nothing is sent and the answer is None); a token it gets serves the next operations.
        With a personal token: one ``GET path`` (the token request does not exist then), or
        nothing and None when ``path`` is None. Any answer's status is returned, 401 included:
        the caller decides what a status means. No answer raises :class:`APIConnectionError`
        (:class:`APITimeoutError`); a 2xx token answer without a token raises
        :class:`APIResponseValidationError`.
        """
        if self._closed:
            raise ApinizerError("this ApinizerClient is closed")
        http = self._http
        login = self._auth if isinstance(self._auth, ClientCredentialsAuth) else None
        if login is None and path is None:
            return None
        method, shown_path = ("POST", TOKEN_PATH) if login is not None else ("GET", str(path))
        flow = login.token_flow() if login is not None else None
        try:
            if flow is not None:
                try:
                    request = next(flow)
                except StopIteration:
                    return None
            else:
                request = http.build_request(
                    "GET", self._url(str(path)), timeout=self.timeout,
                    headers={"Accept": "application/json", "User-Agent": _USER_AGENT},
                )
                request = next(self._auth.auth_flow(request))
            try:
                response = http.send(request)
            except httpx.TransportError as exc:
                raise self._connection_error(exc, method, shown_path, 1) from None
            if flow is not None:
                with contextlib.suppress(StopIteration):
                    flow.send(response)
        finally:
            if flow is not None:
                flow.close()
        return response.status_code

    def request_token(self) -> models.TokenResponse:
        """``POST /apiops/auth/token`` (client credentials) with the configured username and password."""
        if not isinstance(self._auth, ClientCredentialsAuth):
            raise ConfigurationError("request_token needs username and password; this client has a token")
        auth = self._auth
        response = self._send(auth.token_request, "POST", TOKEN_PATH, idempotent=True, auth=None)
        return auth.parse_token_response(response)
