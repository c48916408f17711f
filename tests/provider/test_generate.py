"""The generated program's declarations, driven through the SDK's dynamic provider server (gRPC):
each create is an adoption that writes nothing, and the next diff finds no change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import _emulator_http as emulator_http
from apinizer_pulumi.generate import declared_endpoints, resource_name
from apinizer_pulumi.resources.testing import DIFF_NONE, Engine

from .conftest import Gateway


def test_every_generated_endpoint_adopts_without_a_write(
    generated_project: Path, endpoints: Engine, gateway: Gateway
) -> None:
    declared = declared_endpoints((generated_project / "__main__.py").read_text())
    assert len(declared) == 6
    before = emulator_http.get(f"{gateway.url}/_emulator/state").json()["projects"]
    gateway.reset_stats()

    for item in declared:
        record = item.record
        inputs: dict[str, Any] = {
            "project_name": record.project,
            "api_proxy_name": record.proxy,
            "name": record.name,
            "http_method": record.http_method,
            "backend_resource_url": record.backend_resource_url,
            "backend_http_method": record.backend_http_method,
            "active": record.active,
            "adopt": True,
        }
        if record.description is not None:
            inputs["description"] = record.description
        id_, outs = endpoints.up(inputs, name=resource_name(record))
        assert id_ == f"{record.project}/{record.proxy}/{record.http_method}/{record.name}"
        assert endpoints.diff(id_, outs, endpoints.checked(inputs)).changes == DIFF_NONE

    # Not one write. Adoption only reads the proxy's list (one per create here: each call is its own
    # Pulumi operation, so nothing is shared).
    listed = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
    assert gateway.stats()["requests"] == {listed: 6}
    assert emulator_http.get(f"{gateway.url}/_emulator/state").json()["projects"] == before
