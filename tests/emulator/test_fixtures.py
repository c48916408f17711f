"""Fixture files: the default one, the documented example, expiry forms and refusals."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from apinizer_emulator.families import Backend
from apinizer_emulator.fixtures import FixtureError, TokenFixture, load_fixture, parse_fixture
from apinizer_emulator.store import Store

EMULATOR_DOCS = Path(__file__).resolve().parents[2] / "docs" / "emulator.md"


def test_default_fixture_holds_what_the_docs_promise():
    fixture = load_fixture()
    users = {u.username: (u.password, u.roles, u.system_role) for u in fixture.users}
    assert users == {
        "admin": ("admin", ["ROLE_ADMIN"], "admin"),
        "developer": ("developer", ["ROLE_MANAGE_PROXIES"], None),
        "analyst": ("analyst", [], "analyzer"),
        "guest": ("guest", [], None),
    }
    assert {t.value: (t.user, t.expires_at()) for t in fixture.tokens} == {
        "dev-admin-token": ("admin", None),
        "dev-developer-token": ("developer", None),
        "dev-analyst-token": ("analyst", None),
        "dev-guest-token": ("guest", None),
    }
    (demo,) = fixture.projects
    proxies = {
        p.name: (p.type, p.sharing_type.value, [(e.http_method.value, e.name) for e in p.endpoints])
        for p in demo.api_proxies
    }
    assert proxies == {
        "PetStore": ("REST", "EXTERNAL", [("GET", "/pets"), ("POST", "/pets"), ("GET", "/pets/{id}")]),
        "Orders": ("REST", "INTERNAL", [("GET", "/orders")]),
        "Calculator": ("SOAP", "BOTH", [("POST", "Add"), ("POST", "Subtract")]),
    }
    pets = demo.api_proxies[0].endpoints[0]
    assert pets.request_policies and pets.response_policies and pets.error_policies
    assert [(r.name, r.endpoint_rate_limit_list) for r in demo.rlcls] == [("Standard", []), ("Premium", [])]


def test_the_documented_fixture_example_loads():
    example = re.search(r"## Fixture files\n.*?```yaml\n(.*?)```", EMULATOR_DOCS.read_text(), re.S)
    assert example is not None
    backend = Backend(Store(), parse_fixture(example.group(1)))
    try:
        state = backend.state()
    finally:
        backend.store.close()
    assert state["projects"][0]["apiProxies"][0]["endpoints"][0]["id"] == "65f0c0ffee0000000000abcd"
    assert state["projects"][0]["rlcls"][0]["endpointRateLimitList"][0]["endpointId"] is None


END_OF_2030 = dt.datetime(2031, 1, 1, tzinfo=dt.UTC).timestamp()


@pytest.mark.parametrize(
    ("expires", "timestamp"),
    [
        (None, None),
        ("never", None),
        (dt.date(2030, 12, 31), END_OF_2030),
        ("2030-12-31", END_OF_2030),
        ("2030-12-31T12:00:00Z", dt.datetime(2030, 12, 31, 12, tzinfo=dt.UTC).timestamp()),
        ("2030-12-31T12:00:00", dt.datetime(2030, 12, 31, 12, tzinfo=dt.UTC).timestamp()),
    ],
)
def test_token_expiry_forms(expires, timestamp):
    assert TokenFixture(value="v", user="u", name="n", expires=expires).expires_at() == timestamp


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("users: [{username: u, password: p, roles: [], system_role: root}]", "system_role"),
        (
            "tokens: [{value: a, user: u, name: x}, {value: a, user: u, name: y}]",
            "token values must be unique",
        ),
        ("projects: [{name: P, api_proxies: [{name: X, colour: red}]}]", "colour"),
        (
            "projects: [{name: P, api_proxies: [{name: X, endpoints: [{name: /a, http_method: FETCH}]}]}]",
            "http_method",
        ),
        (
            "projects: [{name: P, api_proxies: [{name: X, endpoints: [{name: /a, http_method: GET,"
            " cache_settings: {name: c}}]}]}]",
            "handling_action",
        ),
    ],
)
def test_invalid_fixtures_are_refused(text, message):
    with pytest.raises(FixtureError, match=message):
        parse_fixture(text)


def test_a_missing_fixture_file_is_a_clear_error(tmp_path):
    with pytest.raises(FixtureError, match="cannot read fixture"):
        load_fixture(tmp_path / "absent.yaml")
