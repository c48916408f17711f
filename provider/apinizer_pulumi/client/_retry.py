"""The one place that decides whether, and how long after, a failed attempt is tried again.

What is retried:

* an answer of 429, 502, 503 or 504, and a read/write timeout or a connection dropped mid-way,
  only for idempotent operations, because the first attempt may have been carried out;
* a connect error, a connect timeout or a pool timeout for every operation, idempotent or not:
  those requests provably never reached the server;
* anything that failed on the way to a token (the token request is safe to repeat, and the
  operation behind it was not sent yet).

The wait is ``Retry-After`` (header, seconds or an HTTP date) or a ``retry_after`` JSON field
when the server gives one, capped at ``MAX_RETRY_AFTER``; otherwise capped exponential backoff
with jitter. ``sleep`` and ``random`` are parameters so that tests run without waiting.
"""

from __future__ import annotations

import email.utils
import json
import logging
import math
import time
from collections.abc import Callable
from datetime import UTC

import httpx

from ._constants import (
    INITIAL_RETRY_DELAY,
    MAX_RETRY_AFTER,
    MAX_RETRY_DELAY,
    RETRY_JITTER,
    RETRYABLE_STATUSES,
)

__all__ = [
    "NEVER_SENT_ERRORS",
    "backoff_delay",
    "error_is_retryable",
    "parse_retry_after",
    "send_with_retries",
    "status_is_retryable",
]

logger = logging.getLogger("apinizer_pulumi.client")

#: Failures that happen before a single byte of the request left: safe to repeat for any method.
NEVER_SENT_ERRORS: tuple[type[httpx.TransportError], ...] = (
    httpx.ConnectError,
    httpx.ConnectTimeout,
    httpx.PoolTimeout,
)
#: Failures after the request may have been received: repeated only when repeating is harmless.
_MAYBE_SENT_ERRORS: tuple[type[httpx.TransportError], ...] = (
    httpx.TimeoutException,
    httpx.NetworkError,
    httpx.RemoteProtocolError,
)


def error_is_retryable(error: httpx.TransportError, *, idempotent: bool) -> bool:
    """Whether a transport failure deserves another attempt."""
    if isinstance(error, NEVER_SENT_ERRORS):
        return True
    return idempotent and isinstance(error, _MAYBE_SENT_ERRORS)


def status_is_retryable(status_code: int, *, idempotent: bool) -> bool:
    """Whether an answer's status deserves another attempt (never for non-idempotent operations)."""
    return idempotent and status_code in RETRYABLE_STATUSES


def backoff_delay(retry: int, random: Callable[[], float]) -> float:
    """Seconds before retry number ``retry`` (0 for the first retry): capped, with jitter."""
    base = min(INITIAL_RETRY_DELAY * math.pow(2.0, retry), MAX_RETRY_DELAY)
    return base * (1.0 - RETRY_JITTER * random())


def _seconds(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) else None


def parse_retry_after(response: httpx.Response, now: Callable[[], float] = time.time) -> float | None:
    """The wait the server asked for, in seconds between 0 and ``MAX_RETRY_AFTER``, or None.

    ``Retry-After`` may be a number of seconds or an HTTP date (RFC 9110 10.2.3); a date in the
    past means "now". Without the header a top-level ``retry_after`` number in a JSON body counts.
    """
    seconds: float | None = None
    header = response.headers.get("retry-after")
    if header is not None:
        seconds = _seconds(header.strip())
        if seconds is None:
            try:
                when = email.utils.parsedate_to_datetime(header.strip())
            except (TypeError, ValueError, IndexError):
                when = None
            if when is not None:
                if when.tzinfo is None:
                    when = when.replace(tzinfo=UTC)
                seconds = when.timestamp() - now()
    if seconds is None and "json" in response.headers.get("content-type", ""):
        try:
            body = json.loads(response.content or b"null")
        except ValueError:
            body = None
        if isinstance(body, dict):
            seconds = _seconds(body.get("retry_after"))
    if seconds is None:
        return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER)


def _failed_request(error: httpx.TransportError) -> httpx.Request | None:
    try:
        return error.request
    except RuntimeError:
        return None


def send_with_retries(
    build: Callable[[], httpx.Request],
    send: Callable[[httpx.Request], httpx.Response],
    *,
    idempotent: bool,
    max_retries: int,
    sleep: Callable[[float], None],
    random: Callable[[], float],
) -> httpx.Response:
    """Send ``build()`` until it gets an answer worth returning, or the retries run out.

    Returns the last response, success or error (mapping errors to exceptions is the caller's);
    raises the last ``httpx.TransportError`` when no attempt got an answer. A response or error
    that belongs to a token request made on the way (it is not ``build()``'s request) is
    retried like an idempotent one: the operation itself was not sent.
    """
    retry = 0
    while True:
        request = build()
        try:
            response = send(request)
        except httpx.TransportError as error:
            # `request_context` in httpx records which request failed: a token fetch or ours.
            failed = _failed_request(error)
            safe = idempotent or (failed is not None and failed is not request)
            if retry >= max_retries or not error_is_retryable(error, idempotent=safe):
                raise
            delay = backoff_delay(retry, random)
            cause = _transport_cause(error)
        else:
            safe = idempotent or response.request is not request
            if retry >= max_retries or not status_is_retryable(response.status_code, idempotent=safe):
                return response
            retry_after = parse_retry_after(response)
            delay = backoff_delay(retry, random) if retry_after is None else retry_after
            cause = f"{response.status_code} {response.reason_phrase}".rstrip()
            response.close()
        retry += 1
        # INFO, so that a silent pause of seconds has an explanation for whoever turns logging on.
        # The URL holds no credential (base URLs with user:password@ are refused) and no body.
        logger.info(
            "retrying %s %s in %.2fs (attempt %d of %d) after %s",
            request.method,
            request.url.copy_with(query=None),
            delay,
            retry + 1,
            max_retries + 1,
            cause,
        )
        sleep(delay)


def _transport_cause(error: httpx.TransportError) -> str:
    """``ConnectError: [Errno 111] Connection refused``: the class and httpx's reason.

    Only failures that carry no request content are quoted: connect, pool and timeout errors. Other
    transport errors can quote what was being sent (h11 quotes a refused header), so for them
    the class name alone is logged.
    """
    if isinstance(error, (*NEVER_SENT_ERRORS, httpx.TimeoutException)) and str(error):
        return f"{type(error).__name__}: {' '.join(str(error).split())}"
    return type(error).__name__
