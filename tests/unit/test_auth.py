"""The auth flows: bearer token, client-credentials token fetch, reuse, refresh before expiry,
one refresh and one retry on 401, and a single token fetch for many threads."""

from __future__ import annotations

import logging
import threading

import httpx
import pytest

from apinizer_pulumi.client import (
    APIConnectionError,
    ApinizerClient,
    ApinizerError,
    APIResponseValidationError,
    AuthenticationError,
    BearerTokenAuth,
    ClientCredentialsAuth,
)

from ._fake_gateway import (
    BASE_URL,
    PASSWORD,
    STATIC_TOKEN,
    TOKEN_PATH,
    USERNAME,
    FakeGateway,
    error,
    make_client,
)

EP = "/apiops/projects/Demo/apiProxies/PetStore/endpoints/"
LISTED = {"success": True, "resultList": [], "resultCount": 0}


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def raw_client(gateway: FakeGateway, clock: FakeClock) -> tuple[httpx.Client, ClientCredentialsAuth]:
    auth = ClientCredentialsAuth(BASE_URL + TOKEN_PATH, USERNAME, PASSWORD, timeout=5.0, clock=clock)
    return httpx.Client(base_url=BASE_URL, transport=httpx.MockTransport(gateway), auth=auth), auth


def test_personal_token_is_sent_as_bearer(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    assert gateway.last.headers["authorization"] == "Bearer static-personal-token-value"
    assert gateway.token_requests == 0


def test_personal_token_refused_raises_without_refresh(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.revoke_all()
    with pytest.raises(AuthenticationError) as caught:
        client.endpoints.delete("Demo", "PetStore", "/pets", "GET")
    assert caught.value.path == EP + "delete/"
    assert caught.value.error_description == "Invalid token"
    assert len(gateway.requests) == 1


def test_first_call_fetches_a_token_with_the_form(gateway: FakeGateway, cc_client: ApinizerClient) -> None:
    cc_client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    token_request, api_request = gateway.requests
    assert (token_request.method, token_request.url.path) == ("POST", TOKEN_PATH)
    assert token_request.headers["content-type"] == "application/x-www-form-urlencoded"
    assert token_request.headers["accept"] == "application/json"
    assert token_request.content == (
        b"grant_type=client_credentials&client_id=admin&client_secret=pa55-w0rd-secret"
    )
    assert "authorization" not in token_request.headers
    assert api_request.headers["authorization"] == "Bearer fetched-token-1"


def test_token_request_carries_the_client_timeout(gateway: FakeGateway) -> None:
    with make_client(gateway, credentials=True, timeout=2.5) as client:
        client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    assert gateway.requests[0].extensions["timeout"] == {
        "connect": 2.5,
        "read": 2.5,
        "write": 2.5,
        "pool": 2.5,
    }
    assert gateway.requests[1].extensions["timeout"]["read"] == 2.5


def test_token_is_reused(gateway: FakeGateway, cc_client: ApinizerClient) -> None:
    for _ in range(5):
        cc_client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    assert gateway.token_requests == 1
    assert {r.headers["authorization"] for r in gateway.api_requests} == {"Bearer fetched-token-1"}


def test_token_url_keeps_a_base_path(gateway: FakeGateway) -> None:
    with ApinizerClient(
        "http://gateway.test/mgmt/",
        username=USERNAME,
        password=PASSWORD,
        transport=httpx.MockTransport(gateway),
    ) as client:
        gateway.script("POST", "/mgmt/apiops/auth/token", gateway._token)
        client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    assert [r.url.path for r in gateway.requests] == [
        "/mgmt/apiops/auth/token",
        "/mgmt/apiops/projects/Demo/apiProxies/PetStore/endpoints/status/",
    ]


@pytest.mark.parametrize(
    ("expires_in", "still_fresh", "refreshed"),
    [
        (3600, 3539.0, 3541.0),  # 60 s margin
        (30, 26.9, 27.1),  # 10% margin for short lives
        (600, 539.0, 541.0),  # 60 s is less than 10% (60) -> 60
    ],
)
def test_token_refreshed_shortly_before_expiry(expires_in: int, still_fresh: float, refreshed: float) -> None:
    gateway = FakeGateway(expires_in=expires_in)
    clock = FakeClock()
    http, _ = raw_client(gateway, clock)
    start = clock.now
    http.get(EP)
    clock.now = start + still_fresh
    http.get(EP)
    assert gateway.token_requests == 1
    clock.now = start + refreshed
    http.get(EP)
    assert gateway.token_requests == 2
    assert gateway.api_requests[-1].headers["authorization"] == "Bearer fetched-token-2"


def test_missing_expires_in_means_an_hour() -> None:
    gateway = FakeGateway()
    gateway.script(
        "POST", TOKEN_PATH, httpx.Response(200, json={"access_token": "t", "token_type": "Bearer"})
    )
    gateway.valid_tokens.add("t")
    clock = FakeClock()
    http, _ = raw_client(gateway, clock)
    http.get(EP)
    clock.now += 3500
    http.get(EP)
    assert len([r for r in gateway.requests if r.url.path == TOKEN_PATH]) == 1


def test_401_refreshes_once_and_retries_once(gateway: FakeGateway, cc_client: ApinizerClient) -> None:
    cc_client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    gateway.revoke_all()  # e.g. the token was revoked in the console
    cc_client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", False)
    assert gateway.token_requests == 2
    paths = [r.url.path for r in gateway.requests]
    assert paths == [TOKEN_PATH, EP + "status/", EP + "status/", TOKEN_PATH, EP + "status/"]
    assert [r.headers.get("authorization") for r in gateway.api_requests] == [
        "Bearer fetched-token-1",
        "Bearer fetched-token-1",
        "Bearer fetched-token-2",
    ]


def test_a_second_401_is_final(gateway: FakeGateway, cc_client: ApinizerClient) -> None:
    refused = error(401, "unauthorized_client", "Unauthorized API Access!")
    gateway.script("GET", "/apiops/reports/organization-api-data-model-access", refused, refused)
    with pytest.raises(AuthenticationError, match="Unauthorized API Access!") as caught:
        cc_client.reports.organization_access()
    assert caught.value.path == "/apiops/reports/organization-api-data-model-access"
    assert gateway.token_requests == 2
    assert len(gateway.api_requests) == 2


def test_bad_credentials_are_reported_as_the_token_request(gateway: FakeGateway) -> None:
    client = make_client(gateway, username=USERNAME, password="nope")
    with client, pytest.raises(AuthenticationError) as caught:
        client.endpoints.list("Demo", "PetStore")
    exc = caught.value
    assert (exc.method, exc.path, exc.status_code, exc.error) == (
        "POST",
        TOKEN_PATH,
        401,
        "unauthorized_client",
    )
    assert exc.error_description == "Bad credentials"
    assert gateway.api_requests == []


def test_failed_refresh_is_reported_as_the_token_request(
    gateway: FakeGateway, cc_client: ApinizerClient
) -> None:
    cc_client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    gateway.revoke_all()
    gateway.script("POST", TOKEN_PATH, error(401, "unauthorized_client", "Bad credentials"))
    with pytest.raises(AuthenticationError) as caught:
        cc_client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    assert caught.value.path == TOKEN_PATH


def test_token_answer_that_is_not_a_token(gateway: FakeGateway, cc_client: ApinizerClient) -> None:
    gateway.script("POST", TOKEN_PATH, httpx.Response(200, text="<html>sso</html>"))
    with pytest.raises(APIResponseValidationError, match="access_token") as caught:
        cc_client.endpoints.list("Demo", "PetStore")
    assert caught.value.path == TOKEN_PATH


def test_failed_token_fetch_leaves_no_token_and_is_retried_next_time(
    gateway: FakeGateway, cc_client: ApinizerClient
) -> None:
    gateway.script("POST", TOKEN_PATH, error(400, "invalid_request", "nope"))
    with pytest.raises(Exception, match="invalid_request"):
        cc_client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    cc_client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    assert gateway.api_requests[-1].headers["authorization"] == "Bearer fetched-token-1"


def test_concurrent_first_calls_make_one_token_request() -> None:
    gateway = FakeGateway(token_delay=0.05)
    threads_count = 16
    barrier = threading.Barrier(threads_count)
    failures: list[BaseException] = []
    with make_client(gateway, credentials=True) as client:

        def call() -> None:
            barrier.wait()
            try:
                client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
            except BaseException as exc:  # collected and asserted below
                failures.append(exc)

        threads = [threading.Thread(target=call) for _ in range(threads_count)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert failures == []
    assert gateway.token_requests == 1
    assert len(gateway.api_requests) == threads_count


def test_concurrent_401s_share_one_refresh(gateway: FakeGateway, cc_client: ApinizerClient) -> None:
    cc_client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    gateway.revoke_all()
    barrier = threading.Barrier(8)

    def call() -> None:
        barrier.wait()
        cc_client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)

    threads = [threading.Thread(target=call) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert gateway.token_requests == 2


def test_lock_is_released_when_the_token_request_fails(
    gateway: FakeGateway, cc_client: ApinizerClient
) -> None:
    gateway.script("POST", TOKEN_PATH, httpx.ReadError("reset"))
    with make_client(gateway, credentials=True, max_retries=0) as client:
        with pytest.raises(Exception, match="ReadError"):
            client.endpoints.list("Demo", "PetStore")
        lock = client._auth._lock  # type: ignore[union-attr]
        assert lock.acquire(blocking=False)
        lock.release()


def test_clear_forgets_the_token(gateway: FakeGateway) -> None:
    http, auth = raw_client(gateway, FakeClock())
    http.get(EP)
    auth.clear()
    http.get(EP)
    assert gateway.token_requests == 2


def test_auth_reprs_hide_secrets() -> None:
    bearer = BearerTokenAuth(STATIC_TOKEN)
    cc = ClientCredentialsAuth(BASE_URL + TOKEN_PATH, USERNAME, PASSWORD)
    assert STATIC_TOKEN not in repr(bearer)
    assert PASSWORD not in repr(cc) and USERNAME not in repr(cc)
    assert (
        repr(cc) == "ClientCredentialsAuth(token_url='http://gateway.test/apiops/auth/token', "
        "username='***', password='***')"
    )


def test_no_secret_in_log_lines(gateway: FakeGateway, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    gateway.script("GET", EP, error(503, "unavailable", "busy"), httpx.Response(200, json=LISTED))
    with make_client(gateway, credentials=True) as client:
        client.endpoints.list("Demo", "PetStore")
        gateway.revoke_all()
        client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    text = caplog.text
    assert "retrying GET" in text
    for secret in (PASSWORD, "fetched-token-1", "fetched-token-2"):
        assert secret not in text


def _reachable_text(exc: BaseException) -> str:
    """What an error reporter could find on an exception: its text, its chain, the requests it holds."""
    seen: list[str] = []
    current: BaseException | None = exc
    while current is not None:
        seen.append(repr(current) + str(current))
        for holder in (getattr(current, "response", None), current):
            try:
                request = holder.request if holder is not None else None  # type: ignore[union-attr]
            except (RuntimeError, AttributeError):
                request = None
            if isinstance(request, httpx.Request):
                seen.append(request.content.decode(errors="replace"))
        current = current.__cause__ or current.__context__
    return "\n".join(seen)


def test_a_refused_token_request_leaves_no_password_on_the_error(gateway: FakeGateway) -> None:
    client = make_client(gateway, username=USERNAME, password=PASSWORD + "x")
    with client, pytest.raises(AuthenticationError) as caught:
        client.endpoints.list("Demo", "PetStore")
    assert PASSWORD not in _reachable_text(caught.value)


def test_a_failed_token_connection_leaves_no_password_on_the_error(gateway: FakeGateway) -> None:
    gateway.script("POST", TOKEN_PATH, httpx.ConnectError("refused"))
    with (
        make_client(gateway, credentials=True, max_retries=0) as client,
        pytest.raises(APIConnectionError) as caught,
    ):
        client.endpoints.list("Demo", "PetStore")
    assert PASSWORD not in _reachable_text(caught.value)


def test_an_error_answer_leaves_no_token_on_the_error(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", EP, error(400, "bad_request", "no"))
    with pytest.raises(ApinizerError) as caught:
        client.endpoints.list("Demo", "PetStore")
    assert caught.value.response is not None  # type: ignore[attr-defined]
    held = caught.value.response.request.headers  # type: ignore[attr-defined]
    assert all(STATIC_TOKEN not in value for value in held.values())


def test_a_failed_connection_leaves_no_token_on_the_error(gateway: FakeGateway) -> None:
    gateway.script("GET", EP, httpx.ReadError("reset"))
    with make_client(gateway, max_retries=0) as client, pytest.raises(APIConnectionError) as caught:
        client.endpoints.list("Demo", "PetStore")
    assert caught.value.__cause__ is None
    assert STATIC_TOKEN not in _reachable_text(caught.value)


@pytest.mark.parametrize("status", [201, 202])
def test_a_token_answered_with_another_2xx_is_used(gateway: FakeGateway, status: int) -> None:
    answer = {"access_token": "fetched-token-9", "token_type": "Bearer", "expires_in": 3600}
    gateway.valid_tokens.add("fetched-token-9")
    gateway.script("POST", TOKEN_PATH, httpx.Response(status, json=answer))
    gateway.script("GET", EP, httpx.Response(200, json={**LISTED, "resultCount": 0}))
    with make_client(gateway, credentials=True) as client:
        assert client.endpoints.list("Demo", "PetStore") == []
    assert gateway.last.headers["authorization"] == "Bearer fetched-token-9"


def test_a_token_answer_without_a_token_is_never_taken_for_the_operations(gateway: FakeGateway) -> None:
    gateway.script("POST", TOKEN_PATH, httpx.Response(204))
    with (
        make_client(gateway, credentials=True) as client,
        pytest.raises(APIResponseValidationError) as caught,
    ):
        client.endpoints.list("Demo", "PetStore")
    assert caught.value.path == TOKEN_PATH
    assert gateway.api_requests == []


#: Token answers in the plain shape, read without the model: the same token and lifetime as the model's.
PLAIN_ANSWERS = [
    b'{"access_token": "t-1", "token_type": "Bearer", "expires_in": 120}',
    b'{"access_token": "t-2"}',
    b'{"access_token": "t-3", "token_type": "bearer", "expires_in": 0, "scope": "all", "extra": [1]}',
    b'{"access_token": "first", "access_token": "t-4", "expires_in": -5}',
]
#: Answers the model reads differently (coerced) or refuses: they go to the model, never read by hand.
MODEL_ANSWERS = [
    b'{"access_token": "t", "expires_in": "120"}',
    b'{"access_token": "t", "expires_in": 120.0}',
    b'{"access_token": "t", "expires_in": true}',
    b'{"access_token": "t", "token_type": null}',
    b'{"access_token": ""}',
    b'{"access_token": "t t"}',
    b'{"access_token": 5}',
    b'{"token": "t"}',
    b'["t"]',
    b"<html>sso</html>",
    b"",
]


@pytest.mark.parametrize("body", PLAIN_ANSWERS)
def test_a_plain_token_answer_is_read_as_the_model_reads_it(body: bytes) -> None:
    from apinizer_pulumi.client._auth import plain_token
    from apinizer_pulumi.models import TokenResponse

    plain, model = plain_token(body), TokenResponse.model_validate_json(body)
    assert plain is not None
    assert (plain.access_token, plain.expires_in) == (model.access_token, model.expires_in)
    assert plain.access_token not in repr(plain)


@pytest.mark.parametrize("body", MODEL_ANSWERS)
def test_any_other_token_answer_is_left_to_the_model(body: bytes) -> None:
    from apinizer_pulumi.client._auth import plain_token

    assert plain_token(body) is None


def test_a_token_answer_the_model_coerces_is_still_used() -> None:
    gateway = FakeGateway()
    answer = httpx.Response(200, json={"access_token": "t", "expires_in": "120"})
    gateway.script("POST", TOKEN_PATH, answer)
    gateway.valid_tokens.add("t")
    clock = FakeClock()
    http, _ = raw_client(gateway, clock)
    http.get(EP)
    clock.now += 100  # within the 120 s the model read from the string
    http.get(EP)
    assert len([r for r in gateway.requests if r.url.path == TOKEN_PATH]) == 1
    assert gateway.last.headers["authorization"] == "Bearer t"
