"""Property-based tests of the emulator against its own OpenAPI document (Schemathesis).

Every operation of the document served at ``/apiops/openapi.json`` is fuzzed with an admin
token: cases that fit the document (some aimed at the fixture's real project, proxy and RLCL,
so that they get past "not found" and reach the rules) and cases that break it on purpose.
Each answer must not be a server error, must have a status the document lists for the
operation, and must match the schema documented for that status.

The run is bounded and reproducible: a fixed number of cases per operation, derandomized
generation (the same cases on every machine), no example database, and a wall-clock cap.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from apinizer_emulator.app import API_ROUTES, HEALTH_PATH

from ._budget import cases

ADMIN_TOKEN = "dev-admin-token"
#: Cases per operation that takes input: 20 over the 90 operations give well over 1,000 cases
#: within the budget (at 80 the budget ran out near the 50th operation on a loaded machine, at 30
#: near the 75th: generating the larger bodies costs more than sending them). The fast loop
#: (scripts/test.sh --fast) runs 12 an operation, derandomized as well; CI runs all 20.
CASES_PER_OPERATION = cases(full=20, fast_loop=12)
#: The whole module's budget on a loaded 2-core CI machine, shared out among the operations left:
#: an operation stops sending past its share, once MIN_CASES of its cases have run.
DEADLINE_SECONDS = 180.0
MIN_CASES = 8
#: Path parameters that exist in the default fixture, so that valid cases reach the rules.
REAL_PATH = {"projectName": "Demo", "apiProxyName": "PetStore", "rlclName": "Standard"}
#: The fixture's endpoints of PetStore, and the SOAP proxy's (the only ones WS-Addressing accepts).
REST_ENDPOINTS = [("/pets", "GET"), ("/pets", "POST"), ("/pets/{id}", "GET")]
SOAP_PROXY, SOAP_ENDPOINTS = "Calculator", [("Add", "POST"), ("Subtract", "POST")]
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]

OPERATIONS = [(method, path) for method, path, *_ in API_ROUTES]
#: Cases run per operation, kept for the report at the end of the module.
CASE_COUNTS: dict[str, int] = {}
#: JSON Schema has no such keywords: pydantic writes them when a constraint is not translated.
NOT_JSON_SCHEMA = {"gt", "ge", "lt", "le", "min_length", "max_length"}


@pytest.fixture(scope="module")
def document(emulator: Any) -> dict[str, Any]:
    response = httpx.get(f"{emulator.base_url}/apiops/openapi.json", timeout=10)
    response.raise_for_status()
    body: dict[str, Any] = response.json()
    return body


@pytest.fixture(scope="module")
def schema(document: dict[str, Any]) -> Any:
    return schemathesis.openapi.from_dict(document)


@pytest.fixture(scope="module")
def deadline() -> float:
    """When the module's budget runs out (monotonic clock), counted from its first fuzzing test."""
    return time.monotonic() + DEADLINE_SECONDS


@pytest.fixture(scope="module")
def session() -> Iterator[requests.Session]:
    with requests.Session() as http:
        yield http


def test_the_document_lists_every_operation_of_the_emulator(document: dict[str, Any]) -> None:
    documented = {(method.upper(), path) for path, item in document["paths"].items() for method in item}
    assert documented == set(OPERATIONS)


def _keywords(node: Any, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield path, key
            yield from _keywords(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _keywords(value, f"{path}/{i}")


def test_the_document_states_its_bounds_in_json_schema(document: dict[str, Any]) -> None:
    """Fuzzing found counts documented as ``gt: 0``, which no JSON Schema tool reads (so 0 and -5
    were "valid"), and an RLCL list documented as possibly empty (spec 4.12 refuses it)."""
    schemas = document["components"]["schemas"]
    stray = [f"{where}/{key}" for where, key in _keywords(schemas) if key in NOT_JSON_SCHEMA
             and not where.endswith("/properties")]
    assert stray == []
    rate_limit = schemas["EndpointRateLimit"]["properties"]
    for field in ("permittedMessageCount", "timeIntervalPeriodLength", "cacheConnectionTimeoutInSeconds"):
        assert rate_limit[field]["exclusiveMinimum"] == 0
    assert schemas["EndpointRateLimitList"]["properties"]["endpointRateLimitList"]["minItems"] == 1


def test_the_document_says_which_strings_must_not_be_empty(document: dict[str, Any]) -> None:
    """Fuzzing sent empty identifiers and token-request credentials the document allowed; the
    emulator refuses them (spec 4.1: all required; 4.9-4.11: identifiers required)."""
    paths = document["paths"]
    token = paths["/apiops/auth/token"]["post"]["requestBody"]["content"]
    form = token["application/x-www-form-urlencoded"]["schema"]["properties"]
    assert form["client_id"]["minLength"] == form["client_secret"]["minLength"] == 1
    for suffix in ("status/", "cache/", "wsa/"):
        body = paths[f"/apiops/projects/{{projectName}}/apiProxies/{{apiProxyName}}/endpoints/{suffix}"]
        schema = body["patch"]["requestBody"]["content"]["application/json"]["schema"]
        if "$ref" in schema:
            schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        assert schema["properties"]["identifierName"]["minLength"] == 1, suffix


def _aimed(case: Case, pair: tuple[str, str]) -> Case:
    """The case with its endpoint identifiers pointed at an endpoint that exists, so it can succeed."""
    name, method = pair
    body = case.body
    if isinstance(body, dict):
        for name_key, method_key in (("name", "httpMethod"), ("identifierName", "identifierHttpMethod")):
            if name_key in body:
                body[name_key], body[method_key] = name, method
        for item in body.get("endpointRateLimitList") or []:
            if isinstance(item, dict):
                item.update(apiProxyName="PetStore", endpointName=name, endpointHTTPMethod=method)
    return case


def _strategy(operation: Any, path: str) -> st.SearchStrategy[Case]:
    real = {name: value for name, value in REAL_PATH.items() if "{" + name + "}" in path}
    pairs = REST_ENDPOINTS
    if path.endswith("/wsa/"):
        real["apiProxyName"], pairs = SOAP_PROXY, SOAP_ENDPOINTS
    strategies = [
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.POSITIVE, path_parameters=real),
        st.builds(
            _aimed,
            operation.as_strategy(GenerationMode.POSITIVE, path_parameters=real),
            st.sampled_from(pairs),
        ),
    ]
    if path != HEALTH_PATH:  # no input to break
        strategies.append(operation.as_strategy(GenerationMode.NEGATIVE, path_parameters=real))
        strategies.append(operation.as_strategy(GenerationMode.NEGATIVE))
    return st.one_of(*strategies)


@pytest.mark.timeout(DEADLINE_SECONDS + 60)
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_operation_conforms_under_fuzzing(
    method: str, path: str, schema: Any, session: requests.Session, deadline: float, emulator_url: str
) -> None:
    operation = schema[path][method]
    seen = 0
    # Each operation's share of what is left of the budget, so that a loaded machine fuzzes every
    # operation less rather than the last ones not at all; at least MIN_CASES run whatever the clock.
    left = len(OPERATIONS) - len(CASE_COUNTS)
    share = time.monotonic() + max(deadline - time.monotonic(), 0.0) / max(left, 1)
    floor = 1 if path == HEALTH_PATH else MIN_CASES

    @settings(
        max_examples=CASES_PER_OPERATION,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @given(case=_strategy(operation, path))
    def run(case: Case) -> None:
        nonlocal seen
        if seen >= floor and time.monotonic() > share:
            return  # out of its share: the remaining examples are not sent
        seen += 1
        case.call_and_validate(
            base_url=emulator_url,
            session=session,
            headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
            checks=CHECKS,
            timeout=10,
        )

    run()
    CASE_COUNTS[f"{method} {path}"] = seen
    assert seen >= floor, f"only {seen} cases ran for {method} {path}"


def test_at_least_a_thousand_cases_ran() -> None:
    if len(CASE_COUNTS) < len(OPERATIONS):
        pytest.fail("run the whole module: the count covers every operation's test")
    total = sum(CASE_COUNTS.values())
    print(f"\n{total} generated cases over {len(CASE_COUNTS)} operations: {CASE_COUNTS}")
    assert total >= 1000, CASE_COUNTS


#: Values for the path parameters that name no object (a flag, a greeting).
NOT_OBJECTS = {"hideSpecFile": "true", "name": "x"}
#: An object of each kind that the default fixture holds, for the parameters that are not the one tested.
KNOWN = {**REAL_PATH, "environmentName": "test", "apiProxyGroupName": "Payments", "username": "partner",
         "ipGroupName": "x", "policyName": "x"}
# Keys and secrets: the default fixture holds none, and the path's other object is always the project.
KNOWN |= {"jwkName": "x", "certificateName": "x", "keyName": "x", "keystoreName": "x"}
# Connections: the default fixture holds none either.
KNOWN |= {"connectionName": "x"}


def test_an_unknown_object_in_the_path_answers_a_declared_status(
    document: dict[str, Any], emulator_url: str
) -> None:
    """Most of the product's pages answer 400 for an object that does not exist, some 404: for every
    operation and every path parameter that names an object, a name that exists nowhere gets one of
    the two, the document declares it for the operation and says there that it covers a missing
    object, and the body is the API's error."""
    checked: list[str] = []
    problems: list[str] = []
    with httpx.Client(base_url=emulator_url, timeout=10,
                      headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}) as http:
        for template, item in document["paths"].items():
            for method, operation in item.items():
                for parameter in re.findall(r"{(\w+)}", template):
                    if parameter in NOT_OBJECTS:
                        continue
                    values = {**KNOWN, **NOT_OBJECTS, parameter: "NoSuchObject"}
                    path = re.sub(r"{(\w+)}", lambda m, given=values: given[m.group(1)], template)
                    response = http.request(method.upper(), path)
                    status = str(response.status_code)
                    declared = operation["responses"].get(status)
                    where = f"{method.upper()} {template} ({parameter} unknown)"
                    checked.append(where)
                    if status not in ("400", "404") or declared is None:
                        problems.append(f"{where}: {status} undeclared")
                    elif "does not exist" not in declared["description"]:
                        problems.append(f"{where}: the {status} does not say it covers a missing object")
                    elif set(response.json()) != {"error", "error_description"}:
                        problems.append(f"{where}: {response.text}")
    assert len(checked) > 150
    assert problems == []
