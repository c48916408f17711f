"""The test side's HTTP clients of the emulator: one TLS context for all of them.

httpx builds a TLS context for every ``httpx.Client`` (and every ``httpx.get``), loading certifi's
bundle: about 40 ms of CPU each, 0.4 s of wall clock on a loaded 2-core machine. The fixtures made one
or two clients per test against the plain-HTTP emulator, which was most of an emulator test's time.
A client made here shares one context, made once per worker.
"""

from __future__ import annotations

import httpx

TLS_CONTEXT = httpx.create_ssl_context()


def emulator_client(base_url: str) -> httpx.Client:
    """A client of the emulator at ``base_url`` (10 s timeout), on the shared TLS context."""
    return httpx.Client(base_url=base_url, timeout=10, verify=TLS_CONTEXT)
