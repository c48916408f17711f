"""``client.rlcl.create/update/delete``: the RLCL's own lifecycle from the product's documentation.

https://apinizer.github.io/management-api-docs/02-api-reference/12-rlcl/crud/
"""

from __future__ import annotations

import httpx
import pytest

from apinizer_pulumi.client import APIConnectionError, ApinizerClient, BadRequestError, InvalidArgumentError
from apinizer_pulumi.models import ExecutionOrder, RlclSpec

from ._fake_gateway import FakeGateway, body, error

RLCLS = "/apiops/projects/Demo/rlcl/"
PREMIUM = "/apiops/projects/Demo/rlcl/PremiumUserRLCL/"
#: The documented defaults, as test_models pins them.
DEFAULTS = {key: value for key, value in RlclSpec(name="x").to_api().items() if key != "name"}


def test_create_posts_the_spec_with_documented_defaults(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.rlcl.create("Demo", RlclSpec(name="PremiumUserRLCL", description="premium"))
    request = gateway.last
    assert (request.method, request.url.path) == ("POST", RLCLS)
    assert body(request) == {"name": "PremiumUserRLCL", "description": "premium", **DEFAULTS}


def test_create_takes_the_api_json_and_snake_case(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.rlcl.create("Demo", {"name": "A", "executionOrder": "LAST"})
    client.rlcl.create("Demo", {"name": "B", "execution_order": "LAST", "target_variable": {
        "name": "ip", "type": "CONTEXT_VALUES", "context_value": "REQUEST_REMOTE_ADDRESS"}})
    first, second = (body(r) for r in gateway.api_requests)
    assert first["executionOrder"] == second["executionOrder"] == ExecutionOrder.LAST.value
    assert second["targetVariable"] == {
        "name": "ip", "type": "CONTEXT_VALUES", "contextValue": "REQUEST_REMOTE_ADDRESS"}


def test_create_with_a_taken_name_raises(gateway: FakeGateway, client: ApinizerClient) -> None:
    message = "An RLCL with same name (PremiumUserRLCL) already exists in project!"
    gateway.script("POST", RLCLS, error(400, "bad_request", message))
    with pytest.raises(BadRequestError) as info:
        client.rlcl.create("Demo", {"name": "PremiumUserRLCL"})
    assert info.value.error_description == message


def test_create_is_not_repeated_after_a_lost_answer(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", RLCLS, httpx.RemoteProtocolError("server disconnected"))
    with pytest.raises(APIConnectionError):
        client.rlcl.create("Demo", {"name": "X"})
    assert len(gateway.api_requests) == 1


def test_update_puts_every_field_to_the_named_path(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.rlcl.update("Demo", RlclSpec(name="PremiumUserRLCL", enabled=False))
    request = gateway.last
    assert (request.method, request.url.path) == ("PUT", PREMIUM)
    assert body(request) == {"name": "PremiumUserRLCL", **DEFAULTS, "enabled": False}


def test_update_of_an_unknown_rlcl(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("PUT", PREMIUM, error(400, "bad_request", "RLCL (PremiumUserRLCL) is not found!"))
    with pytest.raises(BadRequestError, match=r"RLCL \(PremiumUserRLCL\) is not found!"):
        client.rlcl.update("Demo", {"name": "PremiumUserRLCL"})


def test_delete_sends_no_body(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.rlcl.delete("Demo", "Gold/Tier 1")
    request = gateway.last
    assert request.method == "DELETE"
    assert request.url.raw_path.decode() == "/apiops/projects/Demo/rlcl/Gold%2FTier%201/"
    assert request.content == b""


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x", "execution_order": "MIDDLE"}, "execution_order"),
        ({"name": "x", "cache_connection_timeout_in_seconds": 0}, "cache_connection_timeout_in_seconds"),
        ({"name": "x", "time_interval_window_type": "ROLLING"}, "time_interval_window_type"),
        ({"name": "x", "target_variable": {"name": "v", "type": "CUSTOM"}}, "target_variable"),
    ],
)
def test_bad_specs_are_refused_before_sending(
    gateway: FakeGateway, client: ApinizerClient, data: dict[str, object], field: str
) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        client.rlcl.create("Demo", data)
    assert info.value.argument == "rlcl"
    assert info.value.problems[0][0].split(".")[1] == field
    assert gateway.api_requests == []
