"""The checks a delete's path skips when their answer is known without them, asked for the same answers.

Each Delete checks the names in its path and body, accepts the write's answer, resolves the
connection's settings and asks whether a create of the operation took the object over
(docs/performance.md, "the provider's CPU per delete"). Each of these now takes a shortcut for the
common case; here every shortcut is asked to give what the full work gives.
"""

from __future__ import annotations

import json
import os
import sys

import httpx
import pytest

from apinizer_pulumi import models
from apinizer_pulumi.client import ApinizerClient, APIResponseValidationError, InvalidArgumentError
from apinizer_pulumi.client._resources import _name_problem
from apinizer_pulumi.resources import _connection, _replace

from ._fake_gateway import FakeGateway

EP = "/apiops/projects/Demo/apiProxies/PetStore/endpoints/"

#: Every code point of the basic plane, and the other planes' in steps (each plane's first few,
#: the tag characters U+E0000-U+E007F and private use included).
CODE_POINTS = [
    *range(0x0000, 0xD800), *range(0xE000, 0x10000),
    *(point for plane in range(1, 17) for point in range(plane << 16, (plane << 16) + 0x200)),
    *range(0xE0000, 0xE0080), *range(0x10000, 0x110000, 97),
]


def test_a_name_is_refused_exactly_when_the_full_walk_refuses_it() -> None:
    """``_name_problem`` asks ``str.isprintable`` first and walks the name only when it says no."""
    differing = [f"U+{point:04X}" for point in CODE_POINTS
                 if _name_problem(f"/a{chr(point)}b") != models.name_problem(f"/a{chr(point)}b")]
    assert differing == []
    refused = [point for point in CODE_POINTS if _name_problem(chr(point)) is not None]
    assert {0x00, 0x1F, 0x7F, 0x85, 0x200B, 0x202E, 0x2028, 0x2029, 0xFEFF} <= set(refused)


@pytest.mark.parametrize("char", ["\u202e", "\x00", "\u2028", "\u00ad", "\U000e0001"])
def test_a_delete_of_a_name_with_a_refused_character_is_refused_before_sending(
        char: str, gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(InvalidArgumentError, match=f"U\\+{ord(char):04X}"):
        client.endpoints.delete("Demo", "PetStore", f"/pets{char}", "GET")
    with pytest.raises(InvalidArgumentError, match=f"U\\+{ord(char):04X}") as caught:
        client.endpoints.delete("Demo", f"Pet{char}Store", "/pets", "GET")
    assert caught.value.argument == "proxy"
    assert gateway.requests == []


def test_printable_names_of_any_script_are_sent(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", EP + "delete/", httpx.Response(200, json={"success": True}))
    client.endpoints.delete("Demo", "PetStore", "/kedi/ğüş/猫/{id} x", "GET")
    assert json.loads(gateway.requests[-1].content) == {"name": "/kedi/ğüş/猫/{id} x", "httpMethod": "GET"}


@pytest.mark.parametrize("body", [
    json.dumps({"success": False}).encode(),
    b'{"\\u0073uccess" : false }',
    b'\xef\xbb\xbf{"success": false}',
    json.dumps({"success": False}).encode("utf-16"),
    json.dumps({"success": False}).encode("utf-16-le"),
    json.dumps({"success": False}).encode("utf-32"),
    json.dumps({"success": False}).encode("utf-32-be"),
], ids=["utf-8", "escaped-key", "utf-8-bom", "utf-16", "utf-16-le", "utf-32", "utf-32-be"])
def test_a_write_answered_success_false_fails_in_any_encoding_json_reads(
        body: bytes, gateway: FakeGateway, client: ApinizerClient) -> None:
    """The answer is parsed only when it can say ``false``: it still fails in every spelling
    ``json.loads`` reads (a UTF-16 or UTF-32 body holds no ``false`` bytes, but zero bytes)."""
    gateway.script("POST", EP + "delete/", httpx.Response(200, content=body))
    with pytest.raises(APIResponseValidationError, match="success: false"):
        client.endpoints.delete("Demo", "PetStore", "/pets", "GET")


@pytest.mark.parametrize("body", [
    b'{"success":true}', b'{"success": true, "detail": false}', b"", b"OK", b'{"success":"false"}',
    json.dumps({"success": True}).encode("utf-16"),
])
def test_other_write_answers_are_accepted(body: bytes, gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", EP + "delete/", httpx.Response(200, content=body))
    client.endpoints.delete("Demo", "PetStore", "/pets", "GET")


def test_the_environment_key_changes_with_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept settings are keyed by ``os.environ``'s own dict: every change made through it shows."""
    public = lambda: tuple(os.environ.get(name) for name in _connection._ENV_READ)  # noqa: E731
    keys = set()
    for url in ("http://one", "http://two", None):
        if url is None:
            monkeypatch.delenv("APINIZER_URL")
        else:
            monkeypatch.setenv("APINIZER_URL", url)
        monkeypatch.setenv("APINIZER_TIMEOUT", "7")
        key = _connection._environment()
        assert len(key) == len(public())
        assert [value is None for value in key] == [value is None for value in public()]
        keys.add(key)
    assert len(keys) == 3
    assert _connection.resolved({"url": "http://input", "token": "t"}, None).timeout == 7.0
    monkeypatch.setenv("APINIZER_TIMEOUT", "8")
    assert _connection.resolved({"url": "http://input", "token": "t"}, None).timeout == 8.0


def test_without_os_environ_s_dict_the_environment_is_read_through_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_connection, "_ENV_KEYS", None)
    monkeypatch.setenv("APINIZER_URL", "http://three")
    assert _connection._environment()[0] == "http://three"


def test_only_a_dict_can_be_a_secret() -> None:
    from pulumi.runtime import rpc

    for plain in (None, "s", 1, ["a"], {"a": 1}):
        assert _connection.unwrap_secret(plain) == plain
    assert _connection.unwrap_secret(rpc.wrap_rpc_secret(rpc.wrap_rpc_secret("s"))) == "s"


def test_an_object_is_held_by_a_new_resource_only_once_one_was_claimed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_replace, "_claimed", set())
    fields, props = ("project_name", "name"), {"project_name": "Demo", "name": "n"}
    assert not _replace.claimed("Rlcl", fields, props)
    _replace.claim("Rlcl", fields, props)
    assert _replace.claimed("Rlcl", fields, props)
    assert not _replace.claimed("Rlcl", fields, {**props, "name": "other"})
    assert not _replace.claimed("IpGroup", fields, props)


def test_the_walk_is_still_what_names_the_character() -> None:
    assert _name_problem("/a\u202eb", "proxy") == models.name_problem("/a\u202eb", "proxy")
    assert "U+202E RIGHT-TO-LEFT OVERRIDE at position 2" in (_name_problem("/a\u202eb") or "")
    assert sys.maxunicode == 0x10FFFF
