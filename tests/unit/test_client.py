"""ApinizerClient's settings, lifecycle and secrecy (the operations are in test_client_operations)."""

from __future__ import annotations

import httpx
import pytest

from apinizer_pulumi.client import (
    ApinizerClient,
    ApinizerError,
    AuthenticationError,
    ConfigurationError,
    InvalidArgumentError,
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


def mock(gateway: FakeGateway | None = None) -> httpx.MockTransport:
    return httpx.MockTransport(gateway or FakeGateway())


# -- settings -------------------------------------------------------------------------------


@pytest.mark.parametrize("base_url", [None, ""])
def test_base_url_is_required(base_url: str | None) -> None:
    with pytest.raises(ConfigurationError, match=r"base_url is missing.*APINIZER_URL"):
        ApinizerClient(base_url, token="t", transport=mock())


def test_base_url_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APINIZER_URL", "http://from-env.test:8080/")
    client = ApinizerClient(token="t", transport=mock())
    assert client.base_url == "http://from-env.test:8080"


def test_argument_wins_over_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APINIZER_URL", "http://from-env.test")
    assert ApinizerClient("http://arg.test", token="t", transport=mock()).base_url == "http://arg.test"


@pytest.mark.parametrize(
    "url",
    [
        "gateway.test",
        "ftp://gateway.test",
        "http://",
        "/apiops",
        "http://gateway.test/?x=1",
        "http://g.test/#f",
    ],
)
def test_bad_base_urls(url: str) -> None:
    with pytest.raises(ConfigurationError, match="base_url"):
        ApinizerClient(url, token="t", transport=mock())


def test_base_url_with_credentials_is_refused_without_echoing_them() -> None:
    with pytest.raises(ConfigurationError) as caught:
        ApinizerClient("http://admin:hunter2@gateway.test", token="t", transport=mock())
    assert "hunter2" not in str(caught.value)


@pytest.mark.parametrize(
    "url",
    [
        "ftp://admin:hunter2@gateway.test",
        "http://admin:hunter2@",
        "admin:hunter2@gateway.test",
        "http://admin:hunter2@gateway.test:port",
    ],
)
def test_a_bad_base_url_is_never_echoed_with_its_credentials(url: str) -> None:
    with pytest.raises(ConfigurationError, match="base_url") as caught:
        ApinizerClient(url, token="t", transport=mock())
    assert "hunter2" not in str(caught.value)
    assert "hunter2" not in repr(caught.value)


def test_no_credentials_names_every_way() -> None:
    with pytest.raises(ConfigurationError) as caught:
        ApinizerClient(BASE_URL, transport=mock())
    message = str(caught.value)
    for name in ("token", "username", "password", "APINIZER_TOKEN", "APINIZER_USERNAME", "APINIZER_PASSWORD"):
        assert name in message


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"token": "t", "username": "u", "password": "p"}, "either token or username and password, not both"),
        ({"token": "t", "password": "p"}, "not both"),
        ({"username": "u"}, "password is missing"),
        ({"password": "p"}, "username is missing"),
        ({"token": ""}, "no credentials"),
        ({"username": "", "password": ""}, "no credentials"),
    ],
)
def test_credential_rules(kwargs: dict[str, str], match: str) -> None:
    with pytest.raises(ConfigurationError, match=match) as caught:
        ApinizerClient(BASE_URL, transport=mock(), **kwargs)
    assert "'p'" not in str(caught.value) and "'t'" not in str(caught.value)


def test_credentials_from_environment_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APINIZER_TOKEN", STATIC_TOKEN)
    gateway = FakeGateway()
    with ApinizerClient(BASE_URL, transport=mock(gateway)) as client:
        client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    assert gateway.last.headers["authorization"] == f"Bearer {STATIC_TOKEN}"


def test_credentials_from_environment_login(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APINIZER_USERNAME", USERNAME)
    monkeypatch.setenv("APINIZER_PASSWORD", PASSWORD)
    gateway = FakeGateway()
    with ApinizerClient(BASE_URL, transport=mock(gateway)) as client:
        client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    assert gateway.token_requests == 1


def test_conflicting_environment_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APINIZER_TOKEN", "t")
    monkeypatch.setenv("APINIZER_USERNAME", "u")
    with pytest.raises(ConfigurationError, match="environment"):
        ApinizerClient(BASE_URL, transport=mock())


def test_credential_arguments_win_as_a_group(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APINIZER_USERNAME", "env-user")
    monkeypatch.setenv("APINIZER_PASSWORD", "env-pass")
    gateway = FakeGateway()
    with ApinizerClient(BASE_URL, token=STATIC_TOKEN, transport=mock(gateway)) as client:
        client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    assert gateway.token_requests == 0


@pytest.mark.parametrize("timeout", [0, -1.0, True, "10", float("nan")])
def test_bad_timeouts(timeout: object) -> None:
    with pytest.raises(ConfigurationError, match="timeout"):
        ApinizerClient(BASE_URL, token="t", timeout=timeout, transport=mock())  # type: ignore[arg-type]


@pytest.mark.parametrize("max_retries", [-1, 1.5, True, None])
def test_bad_max_retries(max_retries: object) -> None:
    with pytest.raises(ConfigurationError, match="max_retries"):
        ApinizerClient(BASE_URL, token="t", max_retries=max_retries, transport=mock())  # type: ignore[arg-type]


def test_defaults() -> None:
    client = ApinizerClient(BASE_URL, token="t", transport=mock())
    assert (client.timeout, client.max_retries) == (10.0, 3)


def test_timeout_applies_to_every_request(gateway: FakeGateway) -> None:
    with make_client(gateway, timeout=3) as client:
        client.health()
    assert gateway.requests[0].extensions["timeout"] == {
        "connect": 3.0,
        "read": 3.0,
        "write": 3.0,
        "pool": 3.0,
    }


def test_user_agent(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.health()
    assert gateway.requests[0].headers["user-agent"].startswith("apinizer-pulumi/")


def test_base_path_is_kept(gateway: FakeGateway) -> None:
    with ApinizerClient("http://gateway.test/mgmt/", token=STATIC_TOKEN, transport=mock(gateway)) as client:
        client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    assert gateway.last.url.raw_path == b"/mgmt/apiops/projects/Demo/apiProxies/PetStore/endpoints/status/"


# -- lifecycle ------------------------------------------------------------------------------


def test_context_manager_closes_a_private_transport(gateway: FakeGateway) -> None:
    with make_client(gateway) as client:
        http = client._http
        assert not http.is_closed
    assert client.is_closed and http.is_closed


def test_closed_client_refuses_requests(gateway: FakeGateway) -> None:
    client = make_client(gateway)
    client.close()
    with pytest.raises(ApinizerError, match="closed"):
        client.health()
    assert gateway.requests == []


def test_close_is_idempotent(gateway: FakeGateway) -> None:
    client = make_client(gateway)
    client.close()
    client.close()
    assert client.is_closed


# -- secrets --------------------------------------------------------------------------------


def test_repr_hides_the_token() -> None:
    client = ApinizerClient(BASE_URL, token=STATIC_TOKEN, transport=mock())
    assert (
        repr(client)
        == "ApinizerClient(base_url='http://gateway.test', auth='token', timeout=10.0, max_retries=3)"
    )
    assert STATIC_TOKEN not in str(client)


def test_repr_hides_username_and_password(gateway: FakeGateway, cc_client: ApinizerClient) -> None:
    cc_client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)  # a token is now cached
    for text in (repr(cc_client), str(cc_client), repr(cc_client._auth), repr(cc_client.endpoints.__dict__)):
        assert PASSWORD not in text and USERNAME not in text and "fetched-token-1" not in text


def test_echoed_password_is_redacted(gateway: FakeGateway, cc_client: ApinizerClient) -> None:
    gateway.script("POST", TOKEN_PATH, error(401, "unauthorized_client", f"Bad credentials: {PASSWORD}"))
    with pytest.raises(AuthenticationError) as caught:
        cc_client.endpoints.list("Demo", "PetStore")
    assert PASSWORD not in str(caught.value) and PASSWORD not in repr(caught.value)
    assert caught.value.error_description == "Bad credentials: ***"


def test_echoed_token_is_redacted(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", EP, error(401, "unauthorized_client", f"Invalid token {STATIC_TOKEN}"))
    with pytest.raises(AuthenticationError) as caught:
        client.endpoints.list("Demo", "PetStore")
    assert STATIC_TOKEN not in str(caught.value)


def test_connection_errors_carry_no_credentials(gateway: FakeGateway) -> None:
    gateway.script("POST", TOKEN_PATH, httpx.ConnectError("refused"))
    client = make_client(gateway, credentials=True, max_retries=0)
    with client, pytest.raises(ApinizerError) as caught:
        client.endpoints.list("Demo", "PetStore")
    assert PASSWORD not in str(caught.value) and PASSWORD not in repr(caught.value)


# -- the secure hello ------------------------------------------------------------------------


def test_hello_greets_with_the_token(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", "/apiops/test/hello/Jo Ann/Q", httpx.Response(200, text="Hello Jo Ann/Q"))
    assert client.hello("Jo Ann/Q") == "Hello Jo Ann/Q"
    sent = gateway.last
    assert sent.url.raw_path == b"/apiops/test/hello/Jo%20Ann%2FQ"  # one path segment, whatever the name
    assert sent.headers["authorization"] == f"Bearer {STATIC_TOKEN}"


def test_hello_with_a_refused_token_raises(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", "/apiops/test/hello/me", error(401, "unauthorized_client", "Invalid token"))
    with pytest.raises(AuthenticationError, match="Invalid token"):
        client.hello("me")


def test_hello_needs_a_name(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(InvalidArgumentError, match="name"):
        client.hello("")
    assert gateway.requests == []
