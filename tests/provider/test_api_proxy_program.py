"""ApiProxy and ApiProxyDeployment as a program registers them (Pulumi's mocks stand in for the engine)."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from typing import Any

import pulumi
import pytest
from pulumi.runtime import rpc

import apinizer_pulumi as apinizer

from .test_resources import REGISTERED, mocks  # noqa: F401  (the autouse fixture of Pulumi's mocks)


def _inputs(name: str) -> dict[str, Any]:
    return dict(next(args for args in REGISTERED if args.name == name).inputs)


@pulumi.runtime.test
def test_the_spec_file_is_hashed_in_the_program_and_travels_as_its_path_and_hash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    (tmp_path / "specs").mkdir()
    content = b"openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n"
    (tmp_path / "specs" / "orders.yaml").write_bytes(content)
    monkeypatch.chdir(tmp_path)  # `pulumi up` runs the program in its folder

    proxy = apinizer.ApiProxy(
        "orders", project_name="Demo", name="Orders", spec_type="OPEN_API", spec_file="specs/orders.yaml",
        routing=apinizer.RoutingArgs(addresses=[apinizer.RoutingAddressArgs(address="http://b", weight=100)]),
        client_route=apinizer.ClientRouteArgs(relative_paths=["/orders"]),
        api_keys={"public_key": "pub-123", "secret_key": "sec-456"},
    )
    deployment = apinizer.ApiProxyDeployment("orders-test", project_name="Demo", api_proxy_name=proxy.name,
                                environment_name="test", triggers={"spec": proxy.spec_hash})

    def verify(values: list[Any]) -> None:
        spec_hash, triggers = values
        assert spec_hash == hashlib.sha256(content).hexdigest()
        inputs = _inputs("orders")
        # The bytes stay out of the inputs, and so out of the state: the provider reads the file.
        assert "spec_content" not in inputs
        assert inputs["spec_file"] == str(tmp_path / "specs" / "orders.yaml")
        assert content.decode() not in repr(inputs) and base64.b64encode(content).decode() not in repr(inputs)
        assert inputs["spec_filename"] == "orders.yaml"
        assert inputs["routing"] == {"addresses": [{"address": "http://b", "weight": 100}]}
        assert rpc.is_rpc_secret(inputs["api_keys"])
        assert b"sec-456" not in base64.b64decode(inputs["__provider"])
        types = {args.name: args.typ for args in REGISTERED}
        assert types["orders-test"] == "pulumi-python:dynamic/apinizer:ApiProxyDeployment"
        assert triggers == {"spec": spec_hash}

    return pulumi.Output.all(proxy.spec_hash, deployment.triggers).apply(verify)
