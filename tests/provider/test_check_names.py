"""A preview refuses names that would display as other names, naming the property and the code
point, without a request to the gateway: check runs the models through the SDK's own dynamic
provider server, as the engine does."""

from __future__ import annotations

from typing import Any

import pytest

from _documented_bodies import REFUSED_NAME_CHARACTERS
from apinizer_pulumi.resources.testing import Engine

from .conftest import Gateway
from .test_endpoint import USERS
from .test_endpoint_cache import CACHE
from .test_rlcl_endpoints import RLCL, entry

REFUSED = REFUSED_NAME_CHARACTERS


@pytest.mark.parametrize("char", REFUSED, ids=[f"U+{ord(c):04X}" for c in REFUSED])
def test_preview_refuses_names_with_control_format_or_separator_characters(
    char: str, endpoints: Engine, caches: Engine, rlcls: Engine, gateway: Gateway
) -> None:
    code = f"U+{ord(char):04X}"
    gateway.reset_stats()
    cases: list[tuple[Engine, dict[str, Any], str]] = [
        (endpoints, {**USERS, "name": f"/api/users{char}"}, "name"),
        (endpoints, {**USERS, "project_name": f"De{char}mo"}, "project_name"),
        (endpoints, {**USERS, "api_proxy_name": f"Pet{char}Store"}, "api_proxy_name"),
        (caches, {**CACHE, "endpoint_name": f"/pets{char}"}, "endpoint_name"),
        (
            caches,
            {**CACHE, "cache_settings": {**CACHE["cache_settings"], "name": f"c{char}"}},
            "cache_settings.name",
        ),
        (
            caches,
            {
                **CACHE,
                "cache_settings": {
                    **CACHE["cache_settings"],
                    "variable_list": [{"name": f"t{char}", "type": "HEADER"}],
                },
            },
            "cache_settings.variable_list.0.name",
        ),
        (rlcls, {**RLCL, "rlcl_name": f"Standard{char}"}, "rlcl_name"),
        (rlcls, {**RLCL, "endpoints": [entry(f"/pets{char}")]}, "endpoints.0.endpoint_name"),
    ]
    for engine, inputs, prop in cases:
        failures = engine.check(inputs).failures
        assert list(failures) == [prop], (prop, failures)
        assert code in failures[prop] and prop.split(".")[-1] in failures[prop], failures[prop]
    assert gateway.stats()["total"] == 0


def test_plain_unicode_names_pass_the_preview(endpoints: Engine) -> None:
    assert endpoints.check({**USERS, "name": "/çiçek/ağaç", "api_proxy_name": "Ağaç"}).failures == {}


def test_preview_refuses_a_connection_token_no_header_can_carry(endpoints: Engine, gateway: Gateway) -> None:
    gateway.reset_stats()
    refused = endpoints.check(
        {**USERS, "connection": {"url": "http://gw", "token": "tok-secret\r\nX-Evil: 1"}}
    )
    assert list(refused.failures) == ["connection.token"]
    assert refused.failures["connection.token"].startswith("token holds U+000D at position 10")
    assert "secret" not in refused.failures["connection.token"]
    # A token read from a file keeps its newline: the client strips it, so the preview lets it pass.
    assert (
        endpoints.check({**USERS, "connection": {"url": "http://gw", "token": "tok-secret\n"}}).failures == {}
    )
    assert gateway.stats()["total"] == 0
