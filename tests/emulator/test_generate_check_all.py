"""``generate --check`` sees drift in everything ``generate`` writes, not only endpoints and proxies:
a policy's settings, a proxy's routing and client route, a credential's access, an environment
variable, a proxy group and its deployments."""

from __future__ import annotations

from pathlib import Path

import pytest

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.generate.cli import main
from apinizer_pulumi.models import ApiBasedThrottlingPolicy, PolicyOperationMetadata

CHECK = ["generate", "--project", "Demo", "--proxy", "Orders", "--check", "--out"]
THROTTLE = {"targetVariableForIdentity": {"type": "HEADER", "headerName": "X-Key"},
            "messageCountForInterval": 60, "throttlingInterval": "ONE_MINUTE"}


@pytest.fixture(autouse=True)
def env(monkeypatch: pytest.MonkeyPatch, emulator_url: str, admin_token: str) -> None:
    for name in ("APINIZER_USERNAME", "APINIZER_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("APINIZER_URL", emulator_url)
    monkeypatch.setenv("APINIZER_TOKEN", admin_token)


def throttle(count: int) -> ApiBasedThrottlingPolicy:
    return ApiBasedThrottlingPolicy.model_validate({**THROTTLE, "messageCountForInterval": count})


def at_proxy_level() -> PolicyOperationMetadata:
    return PolicyOperationMetadata.model_validate(
        {"target_pipeline": "REQUEST", "target_scope": "ALL", "deploy": False})


@pytest.fixture
def client(emulator_url: str, admin_token: str):  # type: ignore[no-untyped-def]
    with ApinizerClient(emulator_url, token=admin_token) as c:
        c.policies.add("Demo", "Orders", "throttle", throttle(60), at_proxy_level())
        c.api_proxies.set_routing_addresses("Demo", "Orders", [{"address": "https://orders.internal"}])
        c.api_proxies.set_client_route("Demo", "Orders", {"relative_path_list": ["/orders"]})
        c.credentials.create("Demo", {"email": "p@example.com", "full_name": "P", "username": "partner",
                                      "password": "Never-In-The-Program-1"})
        c.credentials.grant_access("Demo", "partner", [{"name": "Orders", "type": "API_PROXY"}])
        c.environment_variables.create("Demo", {"name": "GREETING", "global": True, "globalValue": "hello"})
        yield c


def test_check_reports_drift_in_everything_generate_writes(client: ApinizerClient, tmp_path: Path, capsys):
    out = tmp_path / "gateway.py"
    assert main(["generate", "--project", "Demo", "--proxy", "Orders", "--out", str(out), "--quiet"]) == 0
    program = out.read_text()
    assert "routing={" in program and '"address": "https://orders.internal",' in program
    assert 'client_route={"relative_paths": ["/orders"]' in program
    assert main([*CHECK, str(out)]) == 0
    capsys.readouterr()

    # As the console would: each kind of object that the program declares, changed outside code.
    client.policies.update("Demo", "Orders", "throttle", throttle(999), at_proxy_level())
    client.api_proxies.set_routing_addresses("Demo", "Orders", [{"address": "https://elsewhere.internal"}])
    client.api_proxies.set_client_route("Demo", "Orders", {"relative_path_list": ["/v2/orders"]})
    client.credentials.grant_access("Demo", "partner", [{"name": "PetStore", "type": "API_PROXY"}])
    client.environment_variables.update("Demo", {"name": "GREETING", "global": True, "globalValue": "bye"})
    client.environment_variables.create("Demo", {"name": "ADDED", "global": True, "globalValue": "new"})

    assert main([*CHECK, str(out), "--quiet"]) == 1
    report = capsys.readouterr().out
    lines = report.splitlines()
    assert any(line.startswith("~ Policy Demo/Orders/throttle (") for line in lines), report
    assert "    settings.message_count_for_interval: declared 60, gateway has 999" in lines, report
    assert any(line.startswith("~ ApiProxy Demo/Orders (") for line in lines), report
    assert ("    routing.addresses[0].address: declared 'https://orders.internal', "
            "gateway has 'https://elsewhere.internal'") in lines, report
    assert "    client_route.relative_paths[0]: declared '/orders', gateway has '/v2/orders'" in lines, report
    assert any(line.startswith("~ Credential Demo/partner (") for line in lines), report
    assert any(line.startswith("    access: declared") and "PetStore" in line for line in lines), report
    assert any(line.startswith("~ EnvironmentVariable Demo/GREETING (") for line in lines), report
    assert "    global_value: declared 'hello', gateway has 'bye'" in lines, report
    assert f"+ EnvironmentVariable Demo/ADDED: on the gateway, not declared in {out}" in lines, report
    assert "Never-In-The-Program-1" not in report


def test_check_sees_a_policy_deleted_and_one_added(client: ApinizerClient, tmp_path: Path, capsys):
    out = tmp_path / "gateway.py"
    assert main(["generate", "--project", "Demo", "--proxy", "Orders", "--out", str(out), "--quiet"]) == 0
    client.policies.delete("Demo", "Orders", "throttle", metadata=at_proxy_level())
    client.policies.add("Demo", "Orders", "burst", throttle(5), at_proxy_level())
    assert main([*CHECK, str(out), "--quiet"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert f"+ Policy Demo/Orders/burst: on the gateway, not declared in {out}" in lines
    assert any(line.startswith("- Policy Demo/Orders/throttle: declared at ") for line in lines)
