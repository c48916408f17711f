"""Bad arguments raise ``InvalidArgumentError`` (an ``ApinizerError`` and a ``ValueError``) naming the
argument, before anything is sent; the credentials a client is built with are fit for a header."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from apinizer_pulumi.client import (
    ApinizerClient,
    ApinizerError,
    ConfigurationError,
    InvalidArgumentError,
    InvalidArgumentTypeError,
)

from ._fake_gateway import BASE_URL, FakeGateway, body, make_client
from .test_client_operations import RATE_LIMIT_JSON as ENTRY

EP = "/apiops/projects/Demo/apiProxies/PetStore/endpoints/"

Call = Callable[[ApinizerClient], object]


@pytest.mark.parametrize(
    ("call", "argument", "message"),
    [
        # The four cases of the issue.
        (lambda c: c.endpoints.list("", "A"), "project", "project: must be a non-empty string, got ''"),
        (
            lambda c: c.endpoints.create("Demo", "PetStore", {}),
            "endpoint",
            "endpoint.name: Field required; endpoint.http_method: Field required; "
            "endpoint.backend_resource_url: Field required; endpoint.backend_http_method: Field required",
        ),
        (
            lambda c: c.endpoints.set_cache("Demo", "PetStore", "/pets", "GET", {"ttl": -1}),
            "cache_settings",
            "cache_settings.name: Field required; cache_settings.ttl: Input should be greater than 0; "
            "cache_settings.handling_action: Field required",
        ),
        (
            lambda c: c.rlcl.add_endpoints("Demo", "Standard", dict(ENTRY)),
            "entries",  # type: ignore[arg-type]
            "entries: must be a list of EndpointRateLimit, got dict",
        ),
        # And their kin.
        (lambda c: c.endpoints.list("Demo", ""), "proxy", "proxy: must be a non-empty string, got ''"),
        (
            lambda c: c.endpoints.get("Demo", "PetStore", "", "GET"),
            "name",
            "name: String should have at least 1 character",
        ),
        (
            lambda c: c.endpoints.get("Demo", "PetStore", "/pets", "FETCH"),
            "http_method",
            "http_method: must be one of GET, POST, PUT, DELETE, PATCH, OPTIONS, HEAD, TRACE, ALL, "
            "got 'FETCH'",
        ),
        (
            lambda c: c.endpoints.update("Demo", "PetStore", "/pets", "GET", backend_http_method="X"),
            "backend_http_method",
            "backend_http_method: must be one of GET, POST, PUT, DELETE, PATCH, OPTIONS, "
            "HEAD, TRACE, ALL, got 'X'",
        ),
        (
            lambda c: c.endpoints.update("Demo", "PetStore", "/pets", "GET", backend_resource_url=""),
            "backend_resource_url",
            "backend_resource_url: String should have at least 1 character",
        ),
        (
            lambda c: c.endpoints.set_status("Demo", "PetStore", "", "GET", True),
            "name",
            "name: String should have at least 1 character",
        ),
        (
            lambda c: c.endpoints.set_wsa("Demo", "PetStore", "Add", "POST", {"wsaTo": "not a uri"}),
            "wsa_settings",
            "wsa_settings.wsa_to: wsa_to must be a valid absolute URI, got 'not a uri'",
        ),
        (
            lambda c: c.rlcl.add_endpoints("Demo", "Standard", [ENTRY, {**ENTRY, "timeInterval": "WEEK"}]),
            "entries[1]",
            "entries[1].time_interval: Input should be 'ONE_SECOND', 'ONE_MINUTE', 'ONE_HOUR', "
            "'ONE_DAY' or 'ONE_MONTH'",
        ),
        (
            lambda c: c.rlcl.replace_endpoints("", "Standard", [ENTRY]),
            "project",
            "project: must be a non-empty string, got ''",
        ),
        (lambda c: c.rlcl.delete("Demo", ""), "rlcl", "rlcl: must be a non-empty string, got ''"),
        (
            lambda c: c.rlcl.create("Demo", {"name": "", "enabled": True}),
            "rlcl",
            "rlcl.name: String should have at least 1 character",
        ),
    ],
)
def test_bad_arguments_name_the_argument(
    call: Call, argument: str, message: str, gateway: FakeGateway, client: ApinizerClient
) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        call(client)
    assert caught.value.argument == argument
    assert str(caught.value) == message
    assert isinstance(caught.value, ApinizerError) and isinstance(caught.value, ValueError)
    assert gateway.requests == []


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda c: c.rlcl.add_endpoints("Demo", "Standard", dict(ENTRY)), "entries"),  # type: ignore[arg-type]
        (lambda c: c.rlcl.delete_endpoints("Demo", "Standard", "PetStore"), "entries"),  # type: ignore[arg-type]
        (lambda c: c.rlcl.replace_endpoints("Demo", "Standard", 3), "entries"),  # type: ignore[arg-type]
        (lambda c: c.endpoints.list(None, "A"), "project"),  # type: ignore[arg-type]
        (lambda c: c.endpoints.create("Demo", "PetStore", ["/pets"]), "endpoint"),  # type: ignore[arg-type]
        (lambda c: c.endpoints.set_cache("Demo", "PetStore", "/pets", "GET", 60), "cache_settings"),  # type: ignore[arg-type]
        (lambda c: c.rlcl.add_endpoints("Demo", "Standard", [ENTRY, "x"]), "entries[1]"),  # type: ignore[list-item]
    ],
)
def test_arguments_of_the_wrong_kind_are_type_errors_too(
    call: Call, argument: str, gateway: FakeGateway, client: ApinizerClient
) -> None:
    with pytest.raises(InvalidArgumentTypeError) as caught:
        call(client)
    assert caught.value.argument == argument
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, InvalidArgumentError)
    assert gateway.requests == []


def test_existing_value_error_handlers_still_catch(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(ValueError, match=r"^cache_settings\.handling_action: Field required$"):
        client.endpoints.set_cache("Demo", "PetStore", "/pets", "GET", {"name": "c"})


@pytest.mark.parametrize("char", ["\u0085", "\u202e", "\u2066", "\u2028", "\u200b", "\ufeff", "\u009b", "\n"])
@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda c, bad: c.endpoints.list(f"De{bad}mo", "PetStore"), "project"),
        (lambda c, bad: c.endpoints.list("Demo", f"Pet{bad}Store"), "proxy"),
        (lambda c, bad: c.endpoints.get("Demo", "PetStore", f"/pets{bad}", "GET"), "name"),
        (
            lambda c, bad: c.endpoints.create(
                "Demo",
                "PetStore",
                {
                    "name": f"/a{bad}",
                    "httpMethod": "GET",
                    "backendResourceUrl": "/b",
                    "backendHttpMethod": "GET",
                },
            ),
            "endpoint",
        ),
        (lambda c, bad: c.endpoints.set_status("Demo", "PetStore", f"/pets{bad}", "GET", True), "name"),
        (lambda c, bad: c.rlcl.replace_endpoints("Demo", f"Gold{bad}", [ENTRY]), "rlcl"),
        (
            lambda c, bad: c.rlcl.add_endpoints("Demo", "Gold", [{**ENTRY, "endpointName": f"/p{bad}"}]),
            "entries[0]",
        ),
        (lambda c, bad: c.rlcl.create("Demo", {"name": f"Gold{bad}"}), "rlcl"),
    ],
)
def test_names_with_invisible_or_reordering_characters_are_refused(
    char: str,
    call: Callable[[ApinizerClient, str], object],
    argument: str,
    gateway: FakeGateway,
    client: ApinizerClient,
) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        call(client, char)
    assert caught.value.argument == argument
    assert f"U+{ord(char):04X}" in str(caught.value)
    assert gateway.requests == []


# -- tokens ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw", ["tok-from-file\n", "tok-from-file\r\n", "  tok-from-file\t", "\ntok-from-file"]
)
def test_surrounding_whitespace_is_stripped_from_a_token(raw: str, gateway: FakeGateway) -> None:
    gateway.valid_tokens.add("tok-from-file")
    with make_client(gateway, token=raw) as client:
        client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    assert gateway.last.headers["authorization"] == "Bearer tok-from-file"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("tok\nen-secret", "U+000A"),
        ("tok\ren-secret", "U+000D"),
        ("tok\x00en-secret", "U+0000"),
        ("tok en-secret", "U+0020"),
        ("tok\u00e9n-secret", "U+00E9"),
        ("tok\x7fen-secret", "U+007F"),
    ],
)
def test_a_token_that_cannot_be_a_header_is_refused_without_being_shown(
    raw: str, code: str, gateway: FakeGateway, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with pytest.raises(ConfigurationError) as caught:
        ApinizerClient(BASE_URL, token=raw)
    message = str(caught.value)
    assert message.startswith(f"token holds {code} at position 3")
    assert "secret" not in message and "tok" not in message.replace("token", "")
    assert "secret" not in caplog.text
    assert gateway.requests == []


def test_the_environment_token_is_named_by_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APINIZER_TOKEN", "abc\rdef")
    with pytest.raises(ConfigurationError, match=r"^APINIZER_TOKEN holds U\+000D at position 3"):
        ApinizerClient(BASE_URL)


def test_a_token_of_whitespace_alone_is_no_token() -> None:
    with pytest.raises(ConfigurationError, match="no credentials"):
        ApinizerClient(BASE_URL, token="\n")


def test_a_one_letter_token_keeps_endpoint_not_found_working(gateway: FakeGateway) -> None:
    import httpx

    gateway.valid_tokens.add("e")
    gateway.script(
        "POST",
        EP + "details/",
        httpx.Response(
            400,
            json={
                "error": "bad_request",
                "error_description": "Endpoint with name (/pets) and HTTP method (GET) is not found!",
            },
        ),
    )
    with make_client(gateway, token="e") as client:
        assert client.endpoints.find("Demo", "PetStore", "/pets", "GET") is None


def test_the_request_sent_is_the_one_validated(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.endpoints.update("Demo", "PetStore", "/pets", "GET", backend_http_method="POST")
    assert body(gateway.last) == {"name": "/pets", "httpMethod": "GET", "backendHttpMethod": "POST"}


def test_arguments_are_models_or_mappings(gateway: FakeGateway, client: ApinizerClient) -> None:
    from apinizer_pulumi.models import CacheSettings

    settings: Any = CacheSettings(name="c", handling_action="STOP")
    client.endpoints.set_cache("Demo", "PetStore", "/pets", "GET", settings)
    assert body(gateway.last)["cacheSettings"]["handlingAction"] == "STOP"


def test_the_timeout_comes_from_the_argument_then_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APINIZER_TIMEOUT", "45")
    with ApinizerClient("http://gateway.test", token="t0ken-value") as client:
        assert client.timeout == 45.0
    with ApinizerClient("http://gateway.test", token="t0ken-value", timeout=3) as client:
        assert client.timeout == 3.0
    monkeypatch.setenv("APINIZER_TIMEOUT", "soon")
    with pytest.raises(ConfigurationError, match=r"^APINIZER_TIMEOUT must be a positive number of seconds, "
                                                 r"got 'soon'"):
        ApinizerClient("http://gateway.test", token="t0ken-value")
    monkeypatch.delenv("APINIZER_TIMEOUT")
    with ApinizerClient("http://gateway.test", token="t0ken-value") as client:
        assert client.timeout == 10.0
