"""``ApiProxy(adopt=True)`` without a spec, as ``apinizer-pulumi generate`` writes it: the proxy is taken
over with the spec it has, through the dynamic provider server, against a live emulator."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import grpc
import pytest

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import ApiProxyProvider
from apinizer_pulumi.resources.api_proxy import spec_inputs
from apinizer_pulumi.resources.testing import DIFF_SOME, Engine

from .conftest import Gateway

SPEC = Path(__file__).parents[2] / "examples" / "new-service" / "specs" / "orders.yaml"
#: What creates or re-parses a proxy: none may be sent when the spec is kept as it is.
SPEC_WRITES = {
    "POST /apiops/projects/{projectName}/apiProxies/file/",
    "POST /apiops/projects/{projectName}/apiProxies/url/",
    "PUT /apiops/projects/{projectName}/apiProxies/file/",
    "PUT /apiops/projects/{projectName}/apiProxies/url/",
}


@pytest.fixture
def proxies(server: Any, emulator_url: str) -> Engine:
    return Engine(server, ApiProxyProvider(), "ApiProxy")


def as_generated(name: str = "PetStore", **extra: Any) -> dict[str, Any]:
    return {"project_name": "Demo", "name": name, "adopt": True, **extra}


def endpoints(client: ApinizerClient, proxy: str) -> list[tuple[str, str]]:
    return sorted((e.http_method.value, e.endpoint) for e in client.endpoints.list("Demo", proxy))


def test_without_adopt_the_spec_type_is_required(proxies: Engine) -> None:
    failures = proxies.check({"project_name": "Demo", "name": "New"}).failures
    assert "only adopt=True may leave it out" in " ".join(failures.values()), failures
    failures = proxies.check({**as_generated(), **spec_inputs(SPEC)}).failures
    assert "spec_file and spec_url need spec_type" in " ".join(failures.values()), failures
    assert proxies.check(as_generated()).failures == {}


def test_adopt_without_a_spec_keeps_the_spec_and_endpoints(
    proxies: Engine, client: ApinizerClient, gateway: Gateway
) -> None:
    before = endpoints(client, "PetStore")
    gateway.reset_stats()

    id_, outs = proxies.up(as_generated(description="Pets, managed by Pulumi"))

    assert id_ == "Demo/PetStore"
    assert not SPEC_WRITES & set(gateway.stats()["requests"]), gateway.stats()
    assert endpoints(client, "PetStore") == before
    assert client.api_proxies.get("Demo", "PetStore").description == "Pets, managed by Pulumi"
    assert sorted((e["http_method"], e["name"]) for e in outs["endpoints"]) == before
    assert outs.get("spec_type") is None and outs.get("spec_hash") is None


def test_adopt_without_a_spec_of_a_missing_proxy_says_what_to_declare(
    proxies: Engine, client: ApinizerClient
) -> None:
    with pytest.raises(grpc.RpcError) as refused:
        proxies.up(as_generated("Nowhere"))
    assert str(refused.value.details()) == (
        "apinizer:ApiProxy Nowhere in Demo: adopt=True found no proxy of this name, and without spec_file "
        "or spec_url there is nothing to create it from"
    )
    assert client.api_proxies.find("Demo", "Nowhere") is None


def test_declaring_a_spec_later_re_parses_in_place(
    proxies: Engine, client: ApinizerClient, gateway: Gateway
) -> None:
    id_, outs = proxies.up(as_generated("Orders"))
    news = proxies.checked({**as_generated("Orders"), "spec_type": "OPEN_API", **spec_inputs(SPEC)})

    diff = proxies.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == [], diff
    gateway.reset_stats()
    updated = proxies.update(id_, outs, news)

    assert "PUT /apiops/projects/{projectName}/apiProxies/file/" in gateway.stats()["requests"]
    assert ("GET", "/orders/{orderId}/items") in endpoints(client, "Orders")
    assert updated["spec_type"] == "OPEN_API" and updated["spec_hash"] == news["spec_hash"]
