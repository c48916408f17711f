"""The test side's HTTP clients of the emulator: one TLS context for all of them.

httpx builds a TLS context for every ``httpx.Client`` (and every ``httpx.get``), loading certifi's
bundle: about 40 ms of CPU each, 0.4 s of wall clock on a loaded 2-core machine. The fixtures made one
or two clients per test against the plain-HTTP emulator, which was most of an emulator test's time.
A client made here, and a one-off request sent through ``get``/``post``/``put``/``delete``/``request``
here, shares one context, made once per worker. Tests call these instead of ``httpx.get(...)`` or
``httpx.Client(...)``.
"""

from __future__ import annotations

from typing import Any

import httpx

TLS_CONTEXT = httpx.create_ssl_context()


def client(**options: Any) -> httpx.Client:
    """``httpx.Client(**options)`` on the shared TLS context."""
    return httpx.Client(verify=TLS_CONTEXT, **options)


def emulator_client(base_url: str) -> httpx.Client:
    """A client of the emulator at ``base_url`` (10 s timeout), on the shared TLS context."""
    return client(base_url=base_url, timeout=10)


def request(method: str, url: str, **options: Any) -> httpx.Response:
    """``httpx.request(method, url, **options)`` on the shared TLS context."""
    return httpx.request(method, url, verify=TLS_CONTEXT, **options)


def get(url: str, **options: Any) -> httpx.Response:
    return request("GET", url, **options)


def post(url: str, **options: Any) -> httpx.Response:
    return request("POST", url, **options)


def put(url: str, **options: Any) -> httpx.Response:
    return request("PUT", url, **options)


def delete(url: str, **options: Any) -> httpx.Response:
    return request("DELETE", url, **options)
