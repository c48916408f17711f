"""What the product's public documentation shows beyond the spec: test paths, OpenAPI places,
documented error bodies (429 with ``retry_after``, 500, 403), and the script languages.

https://apinizer.github.io/management-api-docs/ (repository apinizer/management-api-docs).
"""

from __future__ import annotations

import httpx
import pytest
import yaml

import _emulator_http as emulator_http
from apinizer_pulumi.client import ApinizerClient, RateLimitError

from .conftest import GUEST_TOKEN, Api, assert_error, rlcl_path
from .test_rlcl import entry, rl


def test_secure_hello_greets_any_valid_token(api: Api):
    # 02-api-reference/16-test/secure-hello: "Hello {name}" as text/plain.
    response = api.request("GET", "/apiops/test/hello/John")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert response.text == "Hello John"
    # No role is needed: a user without any still authenticates.
    assert api.request("GET", "/apiops/test/hello/Guest", token=GUEST_TOKEN).text == "Hello Guest"


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer nope"}, {"Authorization": "nope"}])
def test_secure_hello_refuses_without_a_valid_token(http: httpx.Client, headers):
    response = http.get("/apiops/test/hello/John", headers=headers)
    assert_error(response, 401, "unauthorized_client", "Invalid token")


def test_healthcheck_needs_no_token(http: httpx.Client):
    response = http.get("/apiops/test/healthcheck")
    assert (response.status_code, response.text) == (200, "OK")
    assert response.headers["content-type"].startswith("text/plain")


def test_openapi_is_served_where_the_documentation_says(http: httpx.Client):
    # 03-appendix/openapi-spec: /apiops/openapi (interactive), /apiops/openapi.yaml, /apiops/openapi.json.
    as_json = http.get("/apiops/openapi.json")
    as_yaml = http.get("/apiops/openapi.yaml")
    interactive = http.get("/apiops/openapi")
    assert as_json.status_code == as_yaml.status_code == interactive.status_code == 200
    assert yaml.safe_load(as_yaml.text) == as_json.json()
    assert interactive.headers["content-type"].startswith("text/html")
    assert "/apiops/openapi.json" in interactive.text


def test_the_openapi_document_describes_the_rlcl_lifecycle(http: httpx.Client):
    paths = http.get("/apiops/openapi.json").json()["paths"]
    create = paths["/apiops/projects/{projectName}/rlcl/"]["post"]
    schema = create["requestBody"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/RlclSpec"}
    delete = paths["/apiops/projects/{projectName}/rlcl/{rlclName}/"]["delete"]
    assert {"400", "401", "403"} <= set(delete["responses"])
    hello = paths["/apiops/test/hello/{name}"]["get"]
    assert set(hello["responses"]) == {"200", "401"}


def test_a_429_carries_retry_after_in_body_and_header(api: Api):
    # 01-getting-started/error-handling: {"error": "rate_limit_exceeded", ..., "retry_after": 60}.
    api.client.post("/_emulator/faults", json={"status": 429, "retry_after": 60, "count": 1})
    response = api.list()
    assert response.status_code == 429
    assert response.json() == {
        "error": "rate_limit_exceeded",
        "error_description": "Rate limit exceeded. Please try again later.",
        "retry_after": 60,
    }
    assert response.headers["retry-after"] == "60"


def test_the_client_raises_rate_limit_error_with_the_wait(emulator_url: str, admin_token: str):
    emulator_http.post(f"{emulator_url}/_emulator/faults", json={"status": 429, "retry_after": 7, "count": 1})
    client = ApinizerClient(emulator_url, token=admin_token, max_retries=0)
    with client, pytest.raises(RateLimitError) as info:
        client.endpoints.list("Demo", "PetStore")
    assert info.value.status_code == 429 and info.value.error == "rate_limit_exceeded"
    assert info.value.retry_after == 7


@pytest.mark.parametrize(
    ("status", "error", "description"),
    [
        (500, "internal_error", "An unexpected error occurred. Please try again later."),
        (403, "forbidden", "You do not have permission to perform this action"),
        (409, "conflict", "Fault injected by the emulator (409)"),
        (401, "unauthorized_client", "Invalid token"),
    ],
)
def test_injected_errors_use_the_documented_codes(api: Api, status, error, description):
    api.client.post("/_emulator/faults", json={"status": status, "count": 1})
    assert_error(api.list(), status, error, description)


def test_a_missing_role_is_403_forbidden(api: Api):
    # 01-getting-started/error-handling: 403 forbidden when the user lacks the required role.
    assert_error(api.as_user(GUEST_TOKEN).list(), 403, "forbidden")
    assert_error(api.request("PUT", rlcl_path(), rl(entry()), token=GUEST_TOKEN), 403, "forbidden")


@pytest.mark.parametrize("language", ["GROOVY", "JAVASCRIPT"])
def test_custom_variables_take_the_documented_script_languages(api: Api, language):
    variable = {"name": "v", "type": "CUSTOM", "scriptLanguage": language, "scriptBody": "return 1"}
    response = api.request("PUT", rlcl_path(), rl(entry(targetVariable=variable)))
    assert response.status_code == 200, response.text
    assert api.rlcl_entries()[0]["targetVariable"]["scriptLanguage"] == language


def test_an_undocumented_script_language_is_400(api: Api):
    variable = {"name": "v", "type": "CUSTOM", "scriptLanguage": "PYTHON", "scriptBody": "return 1"}
    response = api.request("PUT", rlcl_path(), rl(entry(targetVariable=variable)))
    assert_error(response, 400, "bad_request")
    assert "targetVariable.scriptLanguage" in response.json()["error_description"]
