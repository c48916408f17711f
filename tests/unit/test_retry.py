"""Which failures are retried, how long the client waits, and the rules for non-idempotent calls.
Time is faked: the client's ``_sleep`` records waits instead of sleeping."""

from __future__ import annotations

import logging
import pickle
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest

from apinizer_pulumi.client import (
    APIConnectionError,
    ApinizerClient,
    APITimeoutError,
    BadRequestError,
    InternalServerError,
    RateLimitError,
)
from apinizer_pulumi.client._constants import MAX_RETRY_AFTER, MAX_RETRY_DELAY
from apinizer_pulumi.client._retry import (
    backoff_delay,
    error_is_retryable,
    parse_retry_after,
    status_is_retryable,
)
from apinizer_pulumi.models import EndpointRateLimit, EndpointSpec

from ._fake_gateway import BASE_URL, TOKEN_PATH, FakeGateway, error, make_client

EP = "/apiops/projects/Demo/apiProxies/PetStore/endpoints/"
RL = "/apiops/projects/Demo/rlcl/Standard/endpoints/"
LISTED = httpx.Response(200, json={"success": True, "resultList": [], "resultCount": 0})
OK = httpx.Response(200, json={"success": True})
SPEC = EndpointSpec(name="/a", http_method="GET", backend_resource_url="/a", backend_http_method="GET")
ENTRY = EndpointRateLimit(
    api_proxy_name="PetStore",
    endpoint_name="ALL",
    permitted_message_count=1,
    time_interval_period_length=1,
    time_interval="ONE_SECOND",
    cache_connection_timeout_in_seconds=1,
    cache_error_handling_type="CONTINUE",
    time_interval_window_type="SLIDING",
)


def unavailable(status: int = 503, **headers: str) -> httpx.Response:
    return error(status, "unavailable", "try later", **headers)


# -- the pure rules -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("retry", "expected"), [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (5, 8.0), (30, MAX_RETRY_DELAY)]
)
def test_backoff_is_exponential_and_capped(retry: int, expected: float) -> None:
    assert backoff_delay(retry, lambda: 0.0) == expected


@pytest.mark.parametrize("draw", [0.0, 0.5, 0.999])
def test_backoff_jitter_shortens_by_at_most_a_quarter(draw: float) -> None:
    delay = backoff_delay(2, lambda: draw)
    assert delay == pytest.approx(2.0 * (1 - 0.25 * draw))
    assert 1.5 < delay <= 2.0


def response(headers: dict[str, str] | None = None, json: object = None) -> httpx.Response:
    return httpx.Response(429, headers=headers, json=json)


NOW = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("resp", "expected"),
    [
        (response({"Retry-After": "3"}), 3.0),
        (response({"Retry-After": " 1.5 "}), 1.5),
        (response({"Retry-After": "0"}), 0.0),
        (response({"Retry-After": "-4"}), 0.0),
        (response({"Retry-After": "3600"}), MAX_RETRY_AFTER),
        (response({"Retry-After": format_datetime(NOW + timedelta(seconds=12), usegmt=True)}), 12.0),
        (response({"Retry-After": format_datetime(NOW - timedelta(seconds=30), usegmt=True)}), 0.0),
        (response({"Retry-After": "soon"}), None),
        (response({"Retry-After": "nan"}), None),
        (response(json={"retry_after": 7}), 7.0),
        (response(json={"retry_after": "2.5"}), 2.5),
        (response(json={"retry_after": 900}), MAX_RETRY_AFTER),
        (response(json={"retry_after": True}), None),
        (response(json={"retry_after": None}), None),
        (response(json=[1, 2]), None),
        (response({"Retry-After": "4"}, json={"retry_after": 9}), 4.0),
        (httpx.Response(503, text='{"retry_after": 5}'), None),  # not declared JSON
        (response(), None),
    ],
)
def test_parse_retry_after(resp: httpx.Response, expected: float | None) -> None:
    assert parse_retry_after(resp, now=NOW.timestamp) == expected


@pytest.mark.parametrize(
    ("error_type", "idempotent", "expected"),
    [
        (httpx.ConnectError, False, True),
        (httpx.ConnectTimeout, False, True),
        (httpx.PoolTimeout, False, True),
        (httpx.ReadTimeout, False, False),
        (httpx.WriteTimeout, False, False),
        (httpx.ReadError, False, False),
        (httpx.RemoteProtocolError, False, False),
        (httpx.ConnectError, True, True),
        (httpx.ReadTimeout, True, True),
        (httpx.WriteTimeout, True, True),
        (httpx.ReadError, True, True),
        (httpx.WriteError, True, True),
        (httpx.RemoteProtocolError, True, True),
        (httpx.LocalProtocolError, True, False),
        (httpx.UnsupportedProtocol, True, False),
        (httpx.ProxyError, True, False),
    ],
)
def test_which_transport_errors_retry(
    error_type: type[httpx.TransportError], idempotent: bool, expected: bool
) -> None:
    assert error_is_retryable(error_type("x"), idempotent=idempotent) is expected


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (429, True),
        (502, True),
        (503, True),
        (504, True),
        (500, False),
        (501, False),
        (400, False),
        (401, False),
        (403, False),
        (404, False),
        (409, False),
    ],
)
def test_which_statuses_retry(status: int, expected: bool) -> None:
    assert status_is_retryable(status, idempotent=True) is expected
    assert status_is_retryable(status, idempotent=False) is False


# -- through the client ---------------------------------------------------------------------


@pytest.mark.parametrize("status", [429, 502, 503, 504])
def test_idempotent_call_retries_transient_statuses(
    status: int, gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("GET", EP, unavailable(status), unavailable(status), LISTED)
    assert client.endpoints.list("Demo", "PetStore") == []
    assert len(gateway.api_requests) == 3
    assert client.slept == [0.5, 1.0]  # type: ignore[attr-defined]


@pytest.mark.parametrize("status", [500, 400, 404, 409])
def test_other_statuses_are_not_retried(status: int, gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", EP, error(status, "x", "y"), LISTED)
    with pytest.raises(Exception, match=f"-> {status} x: y"):
        client.endpoints.list("Demo", "PetStore")
    assert len(gateway.api_requests) == 1
    assert client.slept == []  # type: ignore[attr-defined]


def test_retry_after_header_is_honoured(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", EP, unavailable(429, **{"Retry-After": "7"}), LISTED)
    client.endpoints.list("Demo", "PetStore")
    assert client.slept == [7.0]  # type: ignore[attr-defined]


def test_retry_after_is_capped(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", EP, unavailable(503, **{"Retry-After": "86400"}), LISTED)
    client.endpoints.list("Demo", "PetStore")
    assert client.slept == [MAX_RETRY_AFTER]  # type: ignore[attr-defined]


def test_retry_after_json_field_is_honoured(gateway: FakeGateway, client: ApinizerClient) -> None:
    busy = httpx.Response(
        429, json={"error": "too_many_requests", "error_description": "slow", "retry_after": 3}
    )
    gateway.script("GET", EP, busy, LISTED)
    client.endpoints.list("Demo", "PetStore")
    assert client.slept == [3.0]  # type: ignore[attr-defined]


def test_jitter_comes_from_the_random_seam(gateway: FakeGateway, client: ApinizerClient) -> None:
    client._random = lambda: 1.0
    gateway.script("GET", EP, unavailable(), LISTED)
    client.endpoints.list("Demo", "PetStore")
    assert client.slept == [0.375]  # type: ignore[attr-defined]


def test_retries_run_out(gateway: FakeGateway) -> None:
    gateway.script("GET", EP, *[unavailable() for _ in range(5)])
    with make_client(gateway, max_retries=2) as client, pytest.raises(InternalServerError) as caught:
        client.endpoints.list("Demo", "PetStore")
    assert len(gateway.api_requests) == 3
    assert client.slept == [0.5, 1.0]  # type: ignore[attr-defined]
    assert caught.value.status_code == 503


def test_max_retries_zero_means_one_attempt(gateway: FakeGateway) -> None:
    gateway.script("GET", EP, unavailable(429, **{"Retry-After": "2"}))
    with make_client(gateway, max_retries=0) as client, pytest.raises(RateLimitError) as caught:
        client.endpoints.list("Demo", "PetStore")
    assert len(gateway.api_requests) == 1
    assert caught.value.retry_after == 2.0


def test_default_is_three_retries(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", EP, *[unavailable() for _ in range(10)])
    with pytest.raises(InternalServerError):
        client.endpoints.list("Demo", "PetStore")
    assert len(gateway.api_requests) == 4
    assert client.slept == [0.5, 1.0, 2.0]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "failure",
    [
        httpx.ReadTimeout("slow"),
        httpx.ReadError("reset"),
        httpx.RemoteProtocolError("Server disconnected without sending a response."),
        httpx.ConnectError("refused"),
    ],
)
def test_idempotent_call_retries_transport_failures(
    failure: Exception, gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("PATCH", EP + "cache/", failure, OK)
    client.endpoints.set_cache("Demo", "PetStore", "/pets", "GET", {"name": "c", "handling_action": "STOP"})
    assert len(gateway.api_requests) == 2


def test_connection_failures_run_out(gateway: FakeGateway) -> None:
    gateway.script("GET", EP, *[httpx.ConnectError("refused") for _ in range(3)])
    with make_client(gateway, max_retries=2) as client, pytest.raises(APIConnectionError) as caught:
        client.endpoints.list("Demo", "PetStore")
    exc = caught.value
    assert type(exc) is APIConnectionError
    assert (exc.method, exc.path, exc.url, exc.attempts) == ("GET", EP, BASE_URL + EP, 3)
    # One line a person can act on: where, how often, why; no chained httpx/httpcore traceback.
    assert str(exc) == f"GET {BASE_URL}{EP} failed after 3 attempts: ConnectError: refused"
    assert exc.__cause__ is None and exc.__suppress_context__


def test_connection_failures_name_the_class_by_its_public_path(gateway: FakeGateway) -> None:
    gateway.script("GET", EP, httpx.ConnectError("refused"))
    with make_client(gateway, max_retries=0) as client, pytest.raises(APIConnectionError) as caught:
        client.endpoints.list("Demo", "PetStore")
    assert type(caught.value).__module__ == "apinizer_pulumi.client"
    assert str(caught.value).endswith("failed after 1 attempt: ConnectError: refused")
    assert pickle.loads(pickle.dumps(caught.value)).__dict__ == caught.value.__dict__


def test_each_retry_is_logged_at_info_with_its_cause_and_delay(
    gateway: FakeGateway, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="apinizer_pulumi.client")
    gateway.script(
        "GET", EP, httpx.ConnectError("[Errno 111] Connection refused"), error(503, "x", "busy"), LISTED
    )
    with make_client(gateway, max_retries=2) as client:
        client.endpoints.list("Demo", "PetStore")
    retries = [r for r in caplog.records if r.levelno == logging.INFO]
    assert [r.getMessage() for r in retries] == [
        f"retrying GET {BASE_URL}{EP} in 0.50s (attempt 2 of 3) after ConnectError: "
        "[Errno 111] Connection refused",
        f"retrying GET {BASE_URL}{EP} in 1.00s (attempt 3 of 3) after 503 Service Unavailable",
    ]


def test_timeouts_raise_api_timeout_error(gateway: FakeGateway) -> None:
    gateway.script("GET", EP, httpx.ReadTimeout("timed out"))
    with make_client(gateway, max_retries=0) as client, pytest.raises(APITimeoutError, match="ReadTimeout"):
        client.endpoints.list("Demo", "PetStore")


# -- non-idempotent operations: only failures that never reached the server ------------------

NON_IDEMPOTENT = [
    ("create", "POST", EP, lambda c: c.endpoints.create("Demo", "PetStore", SPEC)),
    ("delete", "POST", EP + "delete/", lambda c: c.endpoints.delete("Demo", "PetStore", "/a", "GET")),
    ("rlcl-add", "POST", RL, lambda c: c.rlcl.add_endpoints("Demo", "Standard", [ENTRY])),
]


@pytest.mark.parametrize(
    ("name", "method", "path", "call"), NON_IDEMPOTENT, ids=[n[0] for n in NON_IDEMPOTENT]
)
@pytest.mark.parametrize("status", [429, 502, 503, 504])
def test_non_idempotent_call_is_not_retried_on_status(
    name: str, method: str, path: str, call: object, status: int, gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script(method, path, unavailable(status), OK)
    with pytest.raises(Exception, match=f"-> {status}"):
        call(client)  # type: ignore[operator]
    assert len(gateway.api_requests) == 1


@pytest.mark.parametrize(
    ("name", "method", "path", "call"), NON_IDEMPOTENT, ids=[n[0] for n in NON_IDEMPOTENT]
)
@pytest.mark.parametrize(
    "failure",
    [
        httpx.ReadTimeout("slow"),
        httpx.WriteTimeout("slow"),
        httpx.ReadError("x"),
        httpx.RemoteProtocolError("dropped"),
    ],
    ids=type,
)
def test_non_idempotent_call_is_not_retried_when_it_may_have_arrived(
    name: str,
    method: str,
    path: str,
    call: object,
    failure: Exception,
    gateway: FakeGateway,
    client: ApinizerClient,
) -> None:
    gateway.script(method, path, failure, OK)
    with pytest.raises(APIConnectionError):
        call(client)  # type: ignore[operator]
    assert len(gateway.api_requests) == 1


@pytest.mark.parametrize(
    ("name", "method", "path", "call"), NON_IDEMPOTENT, ids=[n[0] for n in NON_IDEMPOTENT]
)
@pytest.mark.parametrize(
    "failure",
    [httpx.ConnectError("refused"), httpx.ConnectTimeout("slow"), httpx.PoolTimeout("busy")],
    ids=type,
)
def test_non_idempotent_call_is_retried_when_it_never_left(
    name: str,
    method: str,
    path: str,
    call: object,
    failure: Exception,
    gateway: FakeGateway,
    client: ApinizerClient,
) -> None:
    gateway.script(method, path, failure, OK)
    call(client)  # type: ignore[operator]
    assert len(gateway.api_requests) == 2
    assert client.slept == [0.5]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "token_failure",
    [unavailable(503), httpx.ReadTimeout("slow"), httpx.ReadError("x")],
    ids=["503", "read-timeout", "read-error"],
)
def test_token_failures_before_a_create_are_retried(token_failure: object, gateway: FakeGateway) -> None:
    gateway.script("POST", TOKEN_PATH, token_failure)  # type: ignore[arg-type]
    with make_client(gateway, credentials=True) as client:
        client.endpoints.create("Demo", "PetStore", SPEC)
    assert gateway.token_requests == 1
    assert len(gateway.api_requests) == 1


def test_token_failures_run_out_naming_the_token_request(gateway: FakeGateway) -> None:
    gateway.script("POST", TOKEN_PATH, *[httpx.ConnectError("refused") for _ in range(2)])
    client = make_client(gateway, credentials=True, max_retries=1)
    with client, pytest.raises(APIConnectionError) as caught:
        client.endpoints.create("Demo", "PetStore", SPEC)
    assert (caught.value.method, caught.value.path) == ("POST", TOKEN_PATH)
    assert gateway.api_requests == []


def test_request_token_itself_is_retried(gateway: FakeGateway) -> None:
    gateway.script("POST", TOKEN_PATH, unavailable(502), httpx.ReadTimeout("slow"))
    with make_client(gateway, credentials=True) as client:
        assert client.request_token().access_token == "fetched-token-1"
    assert len(gateway.requests) == 3


def test_bad_request_is_never_retried(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("PATCH", EP, error(400, "bad_request", "bad"), OK)
    with pytest.raises(BadRequestError):
        client.endpoints.update("Demo", "PetStore", "/a", "GET", description="x")
    assert len(gateway.api_requests) == 1
