"""Every documented request example of the policy pages, replayed against a live emulator.

The examples are those of ``tests/_documented_policies.py`` (every JSON block and cURL body of the
43 type pages and the crud pages, copied from the product's documentation). Each one that holds a
policy (under ``policy``, or flat beside ``operationMetadata`` as some type pages write it) is sent
as the add it documents and then as an update, to ``MyProject``/``MyAPI`` (a fixture of this
module's own with the endpoints the examples target and the environments they name); each
delete body is sent after a policy of its page's type was added where it points. Answers are the
crud pages' (``status``, and ``deploymentResult`` with one detail per environment named when the
request deploys, as it does by default).

A documented type that has no model yet is refused with the unknown-type 400, asserted as such,
never skipped: a type that gains its model is replayed from then on.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

import _emulator_http as emulator_http
from _documented_policies import CRUD_PAGES_DIR, TYPE_PAGES_DIR, load
from apinizer_emulator import key_references, policies
from apinizer_emulator.testing import EmulatorServer
from apinizer_pulumi.models import POLICY_TYPES
from unit.test_policy_models import NOT_YET_MODELLED

PROXY = "/apiops/projects/MyProject/apiProxies/MyAPI/"
TOKEN = "replay-admin-token"
#: A policy for the crud delete page's examples, which show none.
WHITE_IP = {"type": "policy-white-ip", "ipList": ["10.0.0.0/8"]}

FIXTURE = textwrap.dedent(
    f"""
    users:
      - {{username: admin, password: admin, roles: [ROLE_ADMIN], system_role: admin}}
    tokens:
      - {{value: {TOKEN}, user: admin, name: replay, expires: never}}
    environments:
      - {{name: production, type: PRODUCTION, status: PUBLISHED}}
      - {{name: staging, type: TEST, status: PUBLISHED}}
      - {{name: tester, type: TEST, status: PUBLISHED}}
    projects:
      - name: MyProject
        api_proxies:
          - name: MyAPI
            endpoints:
              - {{name: /api/users, http_method: GET}}
              - {{name: endpoint-id, http_method: POST}}
    """
)


@dataclass(frozen=True)
class Example:
    page: str
    index: int
    body: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.page.rsplit('/', 1)[-1]}[{self.index}]"

    @property
    def policy(self) -> dict[str, Any] | None:
        """The policy the body holds (nested under ``policy``, or flat beside ``operationMetadata``)."""
        if isinstance(self.body.get("policy"), dict):
            return dict(self.body["policy"])
        if str(self.body.get("type", "")).startswith("policy-"):
            return {k: v for k, v in self.body.items() if k != "operationMetadata"}
        return None

    @property
    def metadata(self) -> dict[str, Any]:
        return dict(self.body["operationMetadata"])


def _requests() -> list[Example]:
    """The request bodies (those with ``operationMetadata``) of the type and crud pages, in page order."""
    found = []
    for page, examples in load().items():
        if not (page.startswith(TYPE_PAGES_DIR) or page.startswith(CRUD_PAGES_DIR)):
            continue
        for index, example in enumerate(examples):
            body = example.get("body")
            if isinstance(body, dict) and isinstance(body.get("operationMetadata"), dict):
                found.append(Example(page, index, body))
    return found


REQUESTS = _requests()
WRITES = [e for e in REQUESTS if e.policy is not None]
DELETES = [e for e in REQUESTS if e.policy is None]


def test_every_type_page_documents_requests_but_the_system_managed() -> None:
    pages = {
        page.rsplit("/", 1)[-1].removesuffix(".md") for page in load() if page.startswith(TYPE_PAGES_DIR)
    }
    documented = {p for p in pages if p.startswith("policy-")}
    assert len(documented) == 43
    replayed = {e.page.rsplit("/", 1)[-1].removesuffix(".md") for e in WRITES}
    # "This policy cannot be added manually": the protocol transformation pages show no request.
    assert documented - replayed == set(policies.SYSTEM_MANAGED_TYPES)
    assert len(WRITES) > 150 and len(DELETES) > 40


def test_the_types_refused_as_unknown_are_the_models_not_yet_modelled() -> None:
    # The same set as the model tests': a type modelled there is replayed here.
    pages = [page.rsplit("/", 1)[-1].removesuffix(".md") for page in load()]
    documented = {page for page in pages if page.startswith("policy-")}
    assert documented - set(POLICY_TYPES) == NOT_YET_MODELLED


@pytest.fixture(scope="module")
def replay_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    fixture = tmp_path_factory.mktemp("replay") / "fixture.yaml"
    fixture.write_text(FIXTURE)
    with EmulatorServer(fixtures=fixture) as server:
        yield server.base_url


@pytest.fixture
def gateway(replay_server: str) -> Iterator[httpx.Client]:
    with emulator_http.client(base_url=replay_server, headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        client.post("/_emulator/reset", json={}).raise_for_status()
        yield client


def _add(gateway: httpx.Client, name: str, body: dict[str, Any]) -> httpx.Response:
    return gateway.post(f"{PROXY}policies/{name}/", json=body)


def _assert_answered(response: httpx.Response, example: Example) -> None:
    assert response.status_code == 200, (example.id, response.text)
    answer = response.json()
    assert answer["status"] == "SUCCESS", (example.id, answer)
    if example.metadata.get("deploy", True):
        environments = example.metadata.get("deployTargetEnvironmentNameList") or []
        details = answer["deploymentResult"]["detailList"]
        assert [d["envName"] for d in details] == list(dict.fromkeys(environments)), example.id
    else:
        assert set(answer) == {"status"}, example.id


def _listed(gateway: httpx.Client) -> dict[str, Any]:
    item: dict[str, Any] = gateway.get(f"{PROXY}policies/").json()["resultList"][0]
    return item


@pytest.mark.parametrize("example", WRITES, ids=[e.id for e in WRITES])
def test_a_documented_add_and_update_are_answered_as_documented(
    gateway: httpx.Client, example: Example
) -> None:
    policy = example.policy
    assert policy is not None
    policy_type = str(policy["type"])
    response = _add(gateway, "documented", example.body)
    if policy_type not in POLICY_TYPES:
        assert response.status_code == 400, (example.id, response.text)
        assert response.json()["error_description"].startswith(f"Unknown policy type ({policy_type})!")
        return
    if any(key_references.named_in(policy)):
        # The page's example names a key, certificate or JWK by a placeholder id that this gateway
        # does not hold: refused, as the product refuses a reference to nothing (test_keys_references.py).
        assert response.status_code == 400, (example.id, response.text)
        assert response.json()["error_description"].endswith("is not found in the project!"), example.id
        return
    _assert_answered(response, example)
    listed = json.dumps(_listed(gateway))
    assert '"name": "documented"' in listed and policy_type in listed, example.id
    _assert_answered(gateway.put(f"{PROXY}policies/documented/", json=example.body), example)


def _a_policy_of(page: str) -> dict[str, Any]:
    """The page's first documented policy that names no key, certificate or JWK (a white IP list for
    the crud delete page, which shows none, or a page whose every policy names one)."""
    for example in WRITES:
        policy = example.policy
        if example.page == page and policy is not None and not any(key_references.named_in(policy)):
            return policy
    return WHITE_IP


@pytest.mark.parametrize("example", DELETES, ids=[e.id for e in DELETES])
def test_a_documented_delete_is_answered_as_documented(gateway: httpx.Client, example: Example) -> None:
    policy = _a_policy_of(example.page)
    placement = {k: v for k, v in example.metadata.items() if k != "order"} | {"deploy": False}
    added = _add(gateway, "documented", {"operationMetadata": placement, "policy": policy})
    if policy["type"] not in POLICY_TYPES:
        assert added.status_code == 400, (example.id, added.text)
        return
    assert added.status_code == 200, (example.id, added.text)
    _assert_answered(gateway.request("DELETE", f"{PROXY}policies/documented/", json=example.body), example)
    assert '"name": "documented"' not in json.dumps(_listed(gateway)), example.id
