"""Policies in fixture files: the proxy's own lists, whole policies validated with their models,
summaries of any type, and the refusals (a bad field, an unknown type with settings, a taken name)."""

from __future__ import annotations

import textwrap

import pytest

from apinizer_emulator import policies
from apinizer_emulator.families import Backend
from apinizer_emulator.fixtures import FixtureError, parse_fixture
from apinizer_emulator.store import Store

FIXTURE = """
projects:
  - name: Shop
    api_proxies:
      - name: Catalog
        request_policies:
          - name: office-only
            type: policy-white-ip
            description: Office addresses only
            settings: {{ipList: [192.168.1.0/24]}}
          - {{name: legacy, type: policy-anything, active: false}}
        endpoints:
          - name: /items
            http_method: GET
            response_policies:
              - {{name: {endpoint_policy}, type: policy-white-ip, settings: {settings}}}
"""


def _fixture(endpoint_policy: str = "items-ips", settings: str = "{ipList: [10.0.0.0/8]}") -> str:
    return textwrap.dedent(FIXTURE.format(endpoint_policy=endpoint_policy, settings=settings))


def test_a_fixture_declares_the_proxys_own_policies_and_whole_ones() -> None:
    backend = Backend(Store(), parse_fixture(_fixture()))
    try:
        with backend.store.read() as db:
            item = policies.list_policies(db, "Shop", "Catalog")["resultList"][0]
    finally:
        backend.store.close()
    assert item["requestPolicyList"] == [
        {
            "type": "policy-white-ip",
            "name": "office-only",
            "description": "Office addresses only",
            "active": True,
            "ipList": ["192.168.1.0/24"],
        },
        {"type": "policy-anything", "name": "legacy", "active": False},
    ]
    (items,) = item["endpointList"]
    assert items["responsePolicyList"] == [
        {"type": "policy-white-ip", "name": "items-ips", "active": True, "ipList": ["10.0.0.0/8"]}
    ]


@pytest.mark.parametrize(
    ("endpoint_policy", "settings", "problem"),
    [
        ("items-ips", "{}", "ipList"),
        ("items-ips", "{ipList: 10.0.0.0/8}", "ipList"),
        ("OFFICE-ONLY", "{ipList: [10.0.0.0/8]}", "a policy of that name is already in the proxy"),
    ],
)
def test_a_bad_fixture_policy_is_refused_naming_it(endpoint_policy: str, settings: str, problem: str) -> None:
    fixture = parse_fixture(_fixture(endpoint_policy, settings))
    with pytest.raises(FixtureError) as caught:
        Backend(Store(), fixture)
    message = str(caught.value)
    assert "proxy 'Catalog', endpoint GET /items: response policy" in message
    assert problem in message


def test_settings_of_an_unknown_type_are_refused() -> None:
    text = _fixture().replace(
        "type: policy-anything, active: false", "type: policy-anything, settings: {a: 1}"
    )
    with pytest.raises(FixtureError, match=r"Unknown policy type \(policy-anything\)"):
        Backend(Store(), parse_fixture(text))
