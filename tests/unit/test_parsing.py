"""A 2xx that is not a success raises: every answer goes through ``client._parsing``."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from apinizer_pulumi.client import ApinizerClient, APIResponseValidationError

from ._fake_gateway import STATIC_TOKEN, TOKEN_PATH, FakeGateway, make_client

EP = "/apiops/projects/Demo/apiProxies/PetStore/endpoints/"
REPORT = "/apiops/reports/organization-api-data-model-access"
ENDPOINT_JSON = {
    "id": "e1",
    "endpoint": "/pets",
    "active": True,
    "httpMethod": "GET",
    "backendResourceUrl": "/v1/pets",
    "backendHttpMethod": "GET",
}

Read = Callable[[ApinizerClient], Any]

READS: list[tuple[str, str, Read]] = [
    ("GET", EP, lambda c: c.endpoints.list("Demo", "PetStore")),
    ("POST", EP + "details/", lambda c: c.endpoints.get("Demo", "PetStore", "/pets", "GET")),
    ("POST", EP + "policies/", lambda c: c.endpoints.policies("Demo", "PetStore", "/pets", "GET")),
    ("GET", REPORT, lambda c: c.reports.organization_access()),
]


@pytest.mark.parametrize(
    "answer",
    [
        {"success": False},
        {},
        {"success": True},
        {"success": False, "resultList": [], "resultCount": 0},
    ],
    ids=["success-false", "empty-object", "success-true-without-content", "success-false-with-list"],
)
@pytest.mark.parametrize(("method", "path", "read"), READS, ids=[r[1].split("/")[-2] or "x" for r in READS])
def test_a_read_answering_200_without_its_content_raises(
    answer: dict[str, Any], method: str, path: str, read: Read, gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script(method, path, httpx.Response(200, json=answer))
    with pytest.raises(APIResponseValidationError) as caught:
        read(client)
    error = caught.value
    assert (error.method, error.path, error.status_code) == (method, path, 200)
    if answer.get("success") is False:
        assert error.detail == "the gateway answered success: false"
    else:
        assert error.detail.startswith("the body is not a valid ")
    assert error.snippet == httpx.Response(200, json=answer).text
    assert str(error).endswith(f"(body: {error.snippet})")


def test_the_list_issue_cases_name_what_is_missing(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", EP, httpx.Response(200, json={"success": True}))
    with pytest.raises(APIResponseValidationError) as caught:
        client.endpoints.list("Demo", "PetStore")
    assert str(caught.value) == (
        f"GET {EP} -> 200: the body is not a valid EndpointList (result_list: Field required) "
        '(body: {"success":true})'
    )


def test_an_empty_proxy_is_still_an_empty_list(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", EP, httpx.Response(200, json={"success": True, "resultList": [], "resultCount": 0}))
    assert client.endpoints.list("Demo", "PetStore") == []


def test_report_with_success_false_raises(gateway: FakeGateway, client: ApinizerClient) -> None:
    body = {"success": False, "result": {"apiProxyList": [], "dataModelList": []}}
    gateway.script("GET", REPORT, httpx.Response(200, json=body))
    with pytest.raises(APIResponseValidationError, match="success: false"):
        client.reports.organization_access()


@pytest.mark.parametrize(
    ("answer", "accepted"),
    [
        (httpx.Response(200, json={"success": True}), True),
        (httpx.Response(200), True),
        (httpx.Response(204), True),
        (httpx.Response(200, text="OK"), True),
        (httpx.Response(200, json={"success": False}), False),
        (httpx.Response(201, json={"success": False, "message": "x"}), False),
    ],
)
def test_write_answers(
    answer: httpx.Response, accepted: bool, gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("PATCH", EP + "status/", answer)
    if accepted:
        client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
    else:
        with pytest.raises(APIResponseValidationError, match="success: false") as caught:
            client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)
        assert caught.value.snippet == answer.text


def test_the_snippet_never_holds_the_token(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", EP, httpx.Response(200, json={"success": False, "echo": f"Bearer {STATIC_TOKEN}"}))
    with pytest.raises(APIResponseValidationError) as caught:
        client.endpoints.list("Demo", "PetStore")
    assert STATIC_TOKEN not in str(caught.value)
    assert "Bearer ***" in caught.value.snippet


def test_a_long_body_is_cut(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", EP + "details/", httpx.Response(200, text="<html>" + "x" * 5000 + "</html>"))
    with pytest.raises(APIResponseValidationError) as caught:
        client.endpoints.get("Demo", "PetStore", "/pets", "GET")
    assert len(caught.value.snippet) == 200 and caught.value.snippet.endswith("...")


def test_a_token_answer_that_is_no_token_is_never_quoted(gateway: FakeGateway) -> None:
    gateway.script("POST", TOKEN_PATH, httpx.Response(200, json={"success": False, "access_token": ""}))
    client = make_client(gateway, credentials=True)
    with pytest.raises(APIResponseValidationError) as caught:
        client.endpoints.list("Demo", "PetStore")
    assert (caught.value.method, caught.value.path, caught.value.snippet) == ("POST", TOKEN_PATH, "")


def test_a_token_that_cannot_be_a_header_is_refused_unquoted(gateway: FakeGateway) -> None:
    gateway.script("POST", TOKEN_PATH, httpx.Response(200, json={"access_token": "fresh-token\r\nX-Evil: 1"}))
    client = make_client(gateway, credentials=True)
    with pytest.raises(APIResponseValidationError) as caught:
        client.endpoints.list("Demo", "PetStore")
    assert "printable ASCII" in str(caught.value)
    assert "fresh-token" not in str(caught.value) and "Evil" not in str(caught.value)
    assert gateway.api_requests == []


def test_a_parse_error_survives_pickling(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", EP, httpx.Response(200, json={}))
    with pytest.raises(APIResponseValidationError) as caught:
        client.endpoints.list("Demo", "PetStore")
    copy = pickle.loads(pickle.dumps(caught.value))
    assert str(copy) == str(caught.value) and copy.snippet == "{}"


def test_a_valid_get_still_parses(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", EP + "details/", httpx.Response(200, json=ENDPOINT_JSON))
    assert client.endpoints.get("Demo", "PetStore", "/pets", "GET").id == "e1"
