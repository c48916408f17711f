"""A delete in a fresh provider process imports only what it uses: no model, no pydantic.

`pulumi destroy` starts a provider process that sends one DELETE per resource and builds no model;
the imports of pydantic and of the models were 40-50 % of that process's CPU at N=1,000
(docs/performance.md, the request floor).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import EndpointProvider
from apinizer_pulumi.resources.testing import Engine, ProviderServer

from ._modules_provider import ModulesProvider
from .conftest import ADMIN_TOKEN, Gateway

#: Where pytest imports this package from (as ``provider``): the provider server must find it there too.
TESTS = Path(__file__).resolve().parents[1]

#: What a delete does not build: the models' modules and the library they are made with.
MODELS = ("pydantic", "pydantic_core", "apinizer_pulumi.models._base", "apinizer_pulumi.models._auth",
          "apinizer_pulumi.models._endpoint")

ENDPOINT = {"project_name": "Demo", "api_proxy_name": "PetStore", "name": "/gone", "http_method": "GET",
            "backend_resource_url": "/b", "backend_http_method": "GET"}


@pytest.mark.parametrize("credentials", [{"apinizer:token": ADMIN_TOKEN},
                                         {"apinizer:username": "admin", "apinizer:password": "admin"}],
                         ids=["token", "password"])
def test_a_delete_imports_no_model(credentials: dict[str, str], emulator_url: str, client: ApinizerClient,
                                   gateway: Gateway) -> None:
    client.endpoints.create("Demo", "PetStore", {key: ENDPOINT[key] for key in (
        "name", "http_method", "backend_resource_url", "backend_http_method")})
    env = {"PYTHONPATH": str(TESTS), "APINIZER_SKIP_CONNECTION_CHECK": "1"}
    with ProviderServer({"apinizer:url": emulator_url, **credentials}, env=env) as server:
        Engine(server, EndpointProvider(), "Endpoint").delete("Demo/PetStore/GET//gone", ENDPOINT)
        _, answer, _ = Engine(server, ModulesProvider(), "Modules").read("modules", {})

    assert gateway.endpoint("Demo", "PetStore", "GET", "/gone") is None
    assert "apinizer_pulumi.client" in answer["loaded"]  # it did go through the client
    assert [name for name in MODELS if name in answer["loaded"]] == []
