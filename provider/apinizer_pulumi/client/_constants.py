"""Settings, limits and the API's fixed paths, kept in one place."""

from __future__ import annotations

#: Seconds for connect, read, write and pool waits of one attempt.
DEFAULT_TIMEOUT = 10.0
#: The least a spec upload (create or re-parse from a file) waits for its answer, in seconds ...
UPLOAD_TIMEOUT = 60.0
#: ... plus this much per MiB of spec: the gateway parses the whole spec before it answers, and a
#: spec of 4 MiB (Stripe's) took 13 s on the emulator, far past the 10 s that suit other requests.
UPLOAD_SECONDS_PER_MIB = 20.0
#: Retries after the first attempt (so at most ``1 + DEFAULT_MAX_RETRIES`` attempts).
DEFAULT_MAX_RETRIES = 3

#: Exponential backoff: ``INITIAL_RETRY_DELAY * 2**retry``, capped at ``MAX_RETRY_DELAY``,
#: then scaled by a jitter factor in ``(1 - RETRY_JITTER, 1]`` so that clients that failed
#: together do not come back together.
INITIAL_RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 8.0
RETRY_JITTER = 0.25
#: A server's ``Retry-After`` (or ``retry_after``) is honoured up to this many seconds; a longer
#: wait is cut to it, because a provider run blocked for minutes looks hung.
MAX_RETRY_AFTER = 60.0

#: HTTP statuses worth another attempt: the server or something in front of it is overloaded
#: or restarting. 500 is not among them: it usually means the request itself broke something.
RETRYABLE_STATUSES = frozenset({429, 502, 503, 504})

#: A fetched token is refreshed this long before ``expires_in`` runs out ...
TOKEN_REFRESH_MARGIN = 60.0
#: ... or this fraction of its lifetime before, whichever is shorter (short-lived tokens).
TOKEN_REFRESH_FRACTION = 0.1

#: How much of a non-JSON error body goes into an exception message.
ERROR_SNIPPET_LENGTH = 200
#: Secrets shorter than this are redacted only where they stand as a credential (``Bearer x``,
#: ``client_secret=x``): in free text a one-letter token would garble every word it is part of.
MIN_REDACTED_SECRET_LENGTH = 8

TOKEN_PATH = "/apiops/auth/token"
HEALTH_PATH = "/apiops/test/healthcheck"
HELLO_PATH = "/apiops/test/hello/{name}"
REPORT_PATH = "/apiops/reports/organization-api-data-model-access"
ENDPOINTS_PATH = "/apiops/projects/{project}/apiProxies/{proxy}/endpoints/"
RLCL_ENDPOINTS_PATH = "/apiops/projects/{project}/rlcl/{rlcl}/endpoints/"
RLCLS_PATH = "/apiops/projects/{project}/rlcl/"
RLCL_PATH = "/apiops/projects/{project}/rlcl/{rlcl}/"
RLCL_CREDENTIALS_PATH = "/apiops/projects/{project}/rlcl/{rlcl}/credentials/"
RLCL_CONDITION_PATH = "/apiops/projects/{project}/rlcl/{rlcl}/condition/"

ENV_URL = "APINIZER_URL"
ENV_TIMEOUT = "APINIZER_TIMEOUT"
ENV_TOKEN = "APINIZER_TOKEN"
ENV_USERNAME = "APINIZER_USERNAME"
ENV_PASSWORD = "APINIZER_PASSWORD"


def upload_timeout(size: int, timeout: float) -> float:
    """Seconds a spec upload of ``size`` bytes waits for its answer: the size's default, or the
    client's ``timeout`` when that is longer (a timeout raised for a slow gateway raises this too)."""
    return max(timeout, UPLOAD_TIMEOUT + UPLOAD_SECONDS_PER_MIB * size / (1024 * 1024))
