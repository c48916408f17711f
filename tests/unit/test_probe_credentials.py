"""``ApinizerClient.probe_credentials``: at most one request, never retried, its status returned."""

from __future__ import annotations

import httpx
import pytest

from apinizer_pulumi.client import APIConnectionError, APIResponseValidationError

from ._fake_gateway import STATIC_TOKEN, TOKEN_PATH, FakeGateway, error, make_client

EP = "/apiops/projects/Demo/apiProxies/PetStore/endpoints/"


def test_a_login_is_proved_by_one_token_request_whose_token_serves_the_next_operation() -> None:
    gateway = FakeGateway()
    client = make_client(gateway, credentials=True)
    assert client.probe_credentials(EP) == 200
    assert [r.url.path for r in gateway.requests] == [TOKEN_PATH]
    assert client.probe_credentials(EP) is None  # a token is held: nothing to prove
    gateway.script("GET", EP, httpx.Response(200, json={"success": True, "resultList": [], "resultCount": 0}))
    client.endpoints.list("Demo", "PetStore")
    assert gateway.token_requests == 1
    assert gateway.last.headers["authorization"] == "Bearer fetched-token-1"


def test_a_refused_login_answers_401_once_without_a_retry() -> None:
    gateway = FakeGateway()
    client = make_client(gateway, username="someone", password="not-the-password")
    assert client.probe_credentials(EP) == 401
    assert len(gateway.requests) == 1
    assert client.slept == []


@pytest.mark.parametrize("status", [401, 403, 503])
def test_a_personal_token_is_proved_by_one_get_of_the_path(status: int) -> None:
    gateway = FakeGateway()
    gateway.script("GET", EP, error(status, "x", "y"))
    client = make_client(gateway)
    assert client.probe_credentials(EP) == status
    assert [(r.method, r.url.path) for r in gateway.requests] == [("GET", EP)]
    assert gateway.requests[0].headers["authorization"] == f"Bearer {STATIC_TOKEN}"


def test_a_personal_token_without_a_path_sends_nothing() -> None:
    gateway = FakeGateway()
    assert make_client(gateway).probe_credentials() is None
    assert gateway.requests == []


def test_no_answer_raises_the_connection_error_after_one_attempt() -> None:
    gateway = FakeGateway()
    gateway.script("GET", EP, httpx.ConnectError("refused"))
    with pytest.raises(APIConnectionError) as caught:
        make_client(gateway).probe_credentials(EP)
    assert caught.value.attempts == 1
    assert STATIC_TOKEN not in str(caught.value)
    assert len(gateway.requests) == 1


def test_a_token_answer_without_a_token_is_an_error() -> None:
    gateway = FakeGateway()
    gateway.script("POST", TOKEN_PATH, httpx.Response(200, json={"token_type": "Bearer"}))
    with pytest.raises(APIResponseValidationError):
        make_client(gateway, credentials=True).probe_credentials()
