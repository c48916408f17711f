"""get_policies: a proxy's policies, whole and typed, in one request from the program's process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import _emulator_http as emulator_http
import apinizer_pulumi as apinizer
from apinizer_pulumi.client import ApinizerClient, NotFoundError
from apinizer_pulumi.models import PolicyBase
from apinizer_pulumi.resources._connection import close_clients


@pytest.fixture(autouse=True)
def fresh_clients(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("APINIZER_URL", "APINIZER_TOKEN", "APINIZER_USERNAME", "APINIZER_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    yield
    close_clients()


def test_get_policies_reads_every_pipeline_in_one_request(emulator_url: str) -> None:
    where = {"target_scope": "ALL", "target_pipeline": "REQUEST", "deploy": False}
    with ApinizerClient(emulator_url, token="dev-admin-token") as client:
        client.policies.add("Demo", "Orders", "office",
                            {"type": "policy-white-ip", "ip_list": ["10.0.0.0/8"]}, where)
        client.policies.add("Demo", "Orders", "stamp", {
            "type": "policy-script", "script_language": "GROOVY", "script_body": "return"},
            {**where, "target_scope": "ENDPOINT", "target_endpoint": "/orders",
             "target_endpoint_http_method": "GET"})
    emulator_http.post(f"{emulator_url}/_emulator/stats/reset", json={}).raise_for_status()
    connection = {"url": emulator_url, "token": "dev-developer-token"}

    listed = apinizer.get_policies("Demo", "Orders", connection=connection)

    (office,) = listed.request_policy_list
    assert isinstance(office, PolicyBase) and office.name == "office"
    assert office.ip_list == ["10.0.0.0/8"]  # type: ignore[attr-defined]
    (orders,) = [item for item in listed.endpoint_list if item.endpoint == "/orders"]
    assert [policy.name for policy in orders.request_policy_list] == ["stamp"]
    assert emulator_http.get(f"{emulator_url}/_emulator/stats").json()["total"] == 1
    with pytest.raises(NotFoundError):
        apinizer.get_policies("Demo", "Nothing", connection=connection)
